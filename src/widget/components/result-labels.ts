// Names for the host page's merged results, so a screen reader can tell the players and the
// download links apart: the server's markup gives every player none and every link "Download".
import { t } from '../i18n/locale.js';

export const RESULT = '.audio-merge-result';

/** The result's format, from its player's file extension ("mp3" when it cannot tell). */
function formatOf(article: Element): string {
  const src = article.querySelector('audio')?.getAttribute('src') ?? '';
  return /\.([a-z0-9]+)(?:[?#]|$)/i.exec(src)?.[1] ?? 'mp3';
}

/** The book title heading the result's card; undefined when it has none (the heading is its file name). */
export function bookTitle(article: Element): string | undefined {
  const heading = article.querySelector('.audio-merge-result-title');
  if (!heading || heading.classList.contains('audio-merge-result-untitled')) return undefined;
  return heading.textContent?.trim() || undefined;
}

/**
 * "merged MP3 of intro.wav and 2 more, 22 Nov 2026, 01:22", from what the result shows, after
 * the book's title when it has one ("merged M4B of ...: The Book").
 */
export function resultName(article: Element): string {
  const when = article.querySelector('time')?.textContent?.trim();
  const title = bookTitle(article);
  const sources = Array.from(
    article.querySelectorAll('.audio-merge-sources li'),
    (li) => li.textContent?.trim() ?? '',
  ).filter(Boolean);
  let name = t().merged(formatOf(article));
  if (sources.length > 0) name = t().mergedOf(name, sources[0], sources.length - 1);
  if (title) name = t().bookResult(title, name);
  return when ? t().mergedAt(name, when) : name;
}

/** Label every result's player and download link that has no name of its own. */
export function labelResults(root: ParentNode = document): void {
  for (const article of Array.from(root.querySelectorAll(RESULT))) {
    const name = resultName(article);
    const audio = article.querySelector('audio');
    if (audio && !audio.hasAttribute('aria-label')) audio.setAttribute('aria-label', t().playResult(name));
    const link = article.querySelector('a.audio-merge-download');
    // The visible word stays first in the name, so speech control by "Download" still works.
    if (link && !link.hasAttribute('aria-label')) link.setAttribute('aria-label', t().downloadResult(name));
  }
}

/**
 * A click on one of a result's chapters seeks that result's player there and plays. Delegated
 * from `root`, so results the page adds later work too. Returns a function that removes it.
 */
export function enableChapterSeek(root: Document | HTMLElement = document): () => void {
  const onClick = (event: Event) => {
    const button = (event.target as Element | null)?.closest?.('.audio-merge-chapter');
    const audio = button?.closest(RESULT)?.querySelector('audio');
    const start = Number(button?.getAttribute('data-start'));
    if (!audio || !Number.isFinite(start)) return;
    audio.currentTime = start;
    void audio.play().catch(() => undefined); // a browser may refuse to play without a gesture it counts
  };
  root.addEventListener('click', onClick);
  return () => root.removeEventListener('click', onClick);
}
