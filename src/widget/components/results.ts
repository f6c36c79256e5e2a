// The host page's merged results, enhanced: times in the browser's own time zone and sizes in the
// widget's language, a delete button
// on each (POST deleteResult), and names that tell the players and links apart (result-labels.ts).
import { deleteResult, isExpired, reasonOf } from '../api/http.js';
import { DATE_TIME } from '../i18n/format.js';
import { t } from '../i18n/locale.js';
import { labelResults, RESULT, resultName } from './result-labels.js';

export interface ResultsDeps {
  deleteResult: (id: string) => Promise<void>;
  /** A language tag for the times; undefined: the widget's language. */
  locale?: string;
}

/** The server writes UTC (it cannot know the reader's zone); the browser knows. */
export function showLocalTime(time: HTMLTimeElement, locale?: string): void {
  const at = new Date(time.dateTime);
  if (Number.isNaN(at.getTime())) return;
  time.textContent = locale ? at.toLocaleString(locale, DATE_TIME) : t().dateTime(at);
  time.title = at.toISOString();
}

function afterDelete(article: Element): void {
  const section = article.closest('.audio-merge-results');
  const next = article.nextElementSibling?.matches(RESULT)
    ? article.nextElementSibling
    : article.previousElementSibling;
  article.remove();
  if (!section) return;
  if (!section.querySelector(RESULT)) {
    const empty = section.ownerDocument.createElement('p');
    empty.className = 'empty';
    empty.textContent = t().noResults;
    section.append(empty);
  }
  // The button that had focus is gone: the next result's button, else the section, takes it.
  const target = next?.matches(RESULT)
    ? next.querySelector<HTMLElement>('.audio-merge-result-delete')
    : section.querySelector<HTMLElement>('h2');
  if (target && !target.hasAttribute('tabindex') && target.tagName === 'H2') target.tabIndex = -1;
  target?.focus();
}

function addDeleteButton(article: HTMLElement, deps: ResultsDeps): void {
  const id = article.dataset.resultId;
  const meta = article.querySelector('.audio-merge-result-meta');
  if (!id || !meta || article.querySelector('.audio-merge-result-delete')) return;
  const doc = article.ownerDocument;
  const button = doc.createElement('button');
  button.type = 'button';
  button.className = 'audio-merge-result-delete';
  button.textContent = t().deleteResult;
  button.setAttribute('aria-label', t().deleteResultLabel(resultName(article)));
  const say = (words: string) => {
    let problem = article.querySelector('.audio-merge-result-error');
    if (!problem) {
      problem = doc.createElement('p');
      problem.className = 'audio-merge-result-error';
      problem.setAttribute('role', 'alert');
      article.append(problem);
    }
    problem.textContent = words;
  };
  button.addEventListener('click', () => {
    button.disabled = true;
    button.textContent = t().deletingResult;
    deps.deleteResult(id).then(
      () => afterDelete(article),
      (err: unknown) => {
        console.error('Error', err);
        button.disabled = false;
        button.textContent = t().deleteResult;
        say(isExpired(err) ? t().expired : t().deleteResultFailed(reasonOf(err)));
      },
    );
  });
  meta.append(button);
}

/** The server writes sizes in English ("110 KB"); its exact bytes let the widget say them its way. */
function showLocalSize(span: HTMLElement): void {
  const bytes = Number(span.dataset.bytes);
  if (span.dataset.bytes !== undefined && Number.isFinite(bytes)) span.textContent = t().fileSize(bytes);
}

/**
 * The card in the widget's language: the cover's alt text, the author and narrator labels and the
 * chapters heading; a cover that cannot be loaded is taken out rather than shown broken.
 */
export function wordCard(article: HTMLElement): void {
  const words = t();
  const title = article.querySelector('.audio-merge-result-title')?.textContent?.trim() ?? '';
  const cover = article.querySelector<HTMLImageElement>('img.audio-merge-result-cover');
  if (cover) {
    cover.alt = words.resultCover(title);
    const drop = () => cover.remove();
    if (cover.complete && cover.naturalWidth === 0 && cover.getAttribute('src')) drop();
    else cover.addEventListener('error', drop, { once: true });
  }
  const label = (selector: string, text: string) => {
    const dt = article.querySelector(`${selector} dt`);
    if (dt) dt.textContent = text;
  };
  label('.audio-merge-result-author', words.detailLabels.artist);
  label('.audio-merge-result-narrator', words.detailLabels.narrator);
  const heading = article.querySelector('.audio-merge-chapters-heading');
  if (heading) heading.textContent = words.chapters;
  article.querySelector('ol.audio-merge-chapters')?.setAttribute('aria-label', words.chapters);
}

export function enhanceResults(root: ParentNode = document, deps: ResultsDeps = { deleteResult }): void {
  const articles = Array.from(root.querySelectorAll<HTMLElement>(RESULT));
  for (const time of articles.flatMap((a) => Array.from(a.querySelectorAll('time'))))
    showLocalTime(time, deps.locale);
  for (const size of articles.flatMap((a) =>
    Array.from(a.querySelectorAll<HTMLElement>('.audio-merge-size')),
  ))
    showLocalSize(size);
  for (const article of articles) wordCard(article);
  labelResults(root);
  for (const article of articles) addDeleteButton(article, deps);
}
