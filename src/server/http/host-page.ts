// The host page: the upload form, the widget element (docs/reference/widget.md) and this session's
// merged results. A pure function of its inputs; every value is HTML-escaped.
import { formatDuration, formatSize, formatUtcMinute } from '../../shared/format.js';
import { OUTPUT_FORMATS } from '../../shared/output-formats.js';
import { API, WIDGET_ELEMENT_ID } from '../../shared/types.js';
import type { ResultRow } from '../data/store.js';
import { DEFAULT_LOCALE, directionOf, type LocaleCode } from '../../shared/locales.js';
import { HOST_PAGE_WORDS, type HostPageWords } from './host-page-words.js';

export interface HostPageInput {
  csrfToken: string;
  sid: string;
  appid: string;
  socketPort: number;
  maxFileMb: number;
  results: ResultRow[];
  /** What the last plain-form upload refused, shown once. */
  notices?: string[];
  makeLabel?: string;
  title?: string;
  /** The page's language (from Accept-Language); the widget is told the same. */
  locale?: LocaleCode;
}

const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};
export const escapeHtml = (value: string | number): string =>
  String(value).replace(/[&<>"']/g, (c) => ESCAPES[c]);

/** Each chapter as a button that seeks the result's player (the widget script wires the click). */
function renderChapters(r: ResultRow, words: HostPageWords): string {
  if (r.chapters.length === 0) return '';
  const items = r.chapters.map(
    (c) =>
      `<li><button type="button" class="audio-merge-chapter" data-start="${escapeHtml(c.start)}"><bdi class="audio-merge-chapter-time" dir="ltr">${escapeHtml(formatDuration(c.start))}</bdi> <bdi>${escapeHtml(c.title)}</bdi></button></li>`,
  );
  const heading = escapeHtml(words.chapters);
  return `\n      <h4 class="audio-merge-chapters-heading">${heading}</h4>\n      <ol class="audio-merge-chapters" aria-label="${heading}">${items.join('')}</ol>`;
}

/** The book's title (the download name when it has none). */
export const resultTitle = (r: Pick<ResultRow, 'details' | 'downloadName'>): string =>
  r.details.title?.trim() || r.downloadName;

/** The card's head: the cover kept with the result, its title as the heading, author and narrator. */
function renderCardHead(r: ResultRow, words: HostPageWords): string {
  const title = resultTitle(r);
  const cover = r.cover
    ? `<img class="audio-merge-result-cover" src="${escapeHtml(`${API.resultCover}/${encodeURIComponent(r.id)}`)}" alt="${escapeHtml(words.coverOf(title))}" width="96" height="96" decoding="async">`
    : '';
  const people = (
    [
      ['artist', words.author],
      ['composer', words.narrator],
    ] as const
  )
    .filter(([tag]) => r.details[tag]?.trim())
    .map(
      ([tag, label]) =>
        `<div class="audio-merge-result-${tag === 'artist' ? 'author' : 'narrator'}"><dt>${escapeHtml(label)}</dt><dd dir="auto">${escapeHtml(r.details[tag].trim())}</dd></div>`,
    );
  const dl = people.length > 0 ? `<dl class="audio-merge-result-people">${people.join('')}</dl>` : '';
  // A heading that is only the download name says so, so the widget names the player otherwise.
  const untitled = r.details.title?.trim() ? '' : ' audio-merge-result-untitled';
  return `<div class="audio-merge-result-head">${cover}<div class="audio-merge-result-heading"><h3 class="audio-merge-result-title${untitled}" dir="auto">${escapeHtml(title)}</h3>${dl}</div></div>`;
}

function renderResult(r: ResultRow, words: HostPageWords): string {
  const src = `/results/${encodeURIComponent(r.sid)}/${encodeURIComponent(r.id)}.${encodeURIComponent(r.format)}`;
  const when = new Date(r.createdAt);
  // Names and numbers isolated from the page's direction: in Arabic "The Harbour.mp3" stays one
  // left-to-right run, and a time or a size keeps its digits' order.
  const sources = r.sources.map((name) => `<li><bdi>${escapeHtml(name)}</bdi></li>`).join('');
  return `<article class="audio-merge-result" data-result-id="${escapeHtml(r.id)}" data-format="${escapeHtml(r.format)}">
      ${renderCardHead(r, words)}
      <audio controls preload="metadata" src="${escapeHtml(src)}"></audio>
      <p class="audio-merge-result-meta">
        <a class="audio-merge-download" href="${escapeHtml(src)}?download=1" download>${escapeHtml(words.download)}</a>
        <span class="audio-merge-format" dir="ltr">${escapeHtml(r.format.toUpperCase())}</span>
        <span class="audio-merge-duration" dir="ltr">${escapeHtml(formatDuration(r.duration))}</span>
        <span class="audio-merge-size" dir="auto" data-bytes="${escapeHtml(String(r.size))}">${escapeHtml(formatSize(r.size))}</span>
        <time dir="auto" datetime="${escapeHtml(when.toISOString())}">${escapeHtml(formatUtcMinute(r.createdAt))}</time>
      </p>
      <ol class="audio-merge-sources" data-label="${escapeHtml(words.joinedFrom)}">${sources}</ol>${renderChapters(r, words)}
    </article>`;
}

const STYLE = `
  *, *::before, *::after { box-sizing: border-box; }
  body { margin: 0; font: 16px/1.5 system-ui, -apple-system, "Segoe UI", sans-serif; color: #1d2330; background: #f5f6f8; }
  main { max-width: calc(960px + 2rem); margin: 0 auto; padding: 1.5rem 1rem 3rem; }
  h1 { font-size: 1.6rem; margin: 0 0 .25rem; }
  h2 { font-size: 1.15rem; margin: 0 0 .75rem; }
  .lead { margin: 0 0 1.5rem; color: #4a5263; }
  section { background: #fff; border: 1px solid #dde1e8; border-radius: 10px; padding: 1rem; margin: 0 0 1.25rem; }
  /* The widget's panel matches the upload and results panels the widget's stylesheet draws. */
  #${WIDGET_ELEMENT_ID} {
    display: block; max-width: 960px; margin: 0 auto 20px; padding: 20px; background: #fff;
    border: 1px solid #e5e7eb; border-radius: 12px; box-shadow: 0 1px 2px rgb(0 0 0 / 0.04);
  }
  @media (max-width: 480px) { #${WIDGET_ELEMENT_ID} { padding: 14px; } }
  form { display: flex; flex-wrap: wrap; gap: .75rem; align-items: center; }
  input[type=file] { max-width: 100%; }
  button { font: inherit; padding: .45rem 1.1rem; border-radius: 6px; border: 1px solid #2f5bd3; background: #2f5bd3; color: #fff; cursor: pointer; }
  .hint { color: #4a5263; font-size: .9rem; margin: .5rem 0 0; }
  .audio-merge-upload-list { list-style: none; margin: .75rem 0 0; padding: 0; }
  .audio-merge-result { border-top: 1px solid #e6e9ef; padding: .75rem 0; }
  .audio-merge-result:first-of-type { border-top: 0; }
  .audio-merge-result audio { width: 100%; }
  .audio-merge-result-head { display: flex; gap: .75rem; align-items: flex-start; margin: 0 0 .5rem; }
  .audio-merge-result-cover { flex: none; width: 96px; height: 96px; object-fit: contain; background: #f3f4f6; border-radius: 6px; border: 1px solid #dde1e8; }
  .audio-merge-result-heading { min-width: 0; }
  .audio-merge-result-title { font-size: 1.05rem; margin: 0; overflow-wrap: anywhere; }
  .audio-merge-result-people { margin: .15rem 0 0; font-size: .9rem; color: #4a5263; }
  .audio-merge-result-people div { display: flex; gap: .35rem; }
  .audio-merge-result-people dt::after { content: ":"; }
  .audio-merge-result-people dd { margin: 0; color: #1d2330; }
  .audio-merge-chapters-heading { font-size: .95rem; margin: .5rem 0 0; }
  .audio-merge-chapters { margin: .25rem 0; padding-inline-start: 1.25rem; font-size: .9rem; }
  .audio-merge-chapter { display: inline-flex; align-items: center; gap: .3rem; min-height: 28px; border: 0; background: none; padding: .1rem 0; color: #1f5fbf; cursor: pointer; font: inherit; text-align: start; }
  .audio-merge-chapter:hover, .audio-merge-chapter:focus-visible { text-decoration: underline; }
  .audio-merge-chapter-time { color: #4a5263; font-variant-numeric: tabular-nums; }
  .audio-merge-result-meta { display: flex; flex-wrap: wrap; gap: .4rem 1rem; margin: .25rem 0; color: #4a5263; font-size: .9rem; }
  .audio-merge-sources { margin: .25rem 0 0; padding-inline-start: 1.4rem; font-size: .9rem; }
  .empty { color: #4a5263; margin: 0; }
  .audio-merge-upload-errors { margin: .75rem 0 0; padding-block: .5rem; padding-inline: 1.75rem .75rem; color: #8a1c1c; background: #fdecec; border-radius: 6px; }
  /* The page follows the reader's light or dark scheme, as the widget in it does. */
  :root { color-scheme: light dark; }
  @media (prefers-color-scheme: dark) {
    body { color: #e5e7eb; background: #0b1020; }
    .lead, .hint, .empty, .audio-merge-result-meta, .audio-merge-chapter-time, .audio-merge-result-people { color: #a3acbd; }
    .audio-merge-result-people dd { color: #e5e7eb; }
    section, #${WIDGET_ELEMENT_ID} { background: #111827; border-color: #374151; }
    .audio-merge-result { border-top-color: #374151; }
    .audio-merge-chapter { color: #93b4f5; }
    .audio-merge-upload-errors { color: #fecaca; background: #3b1212; }
  }
`;

export function renderHostPage(input: HostPageInput): string {
  const e = escapeHtml;
  const locale = input.locale ?? DEFAULT_LOCALE;
  const words = HOST_PAGE_WORDS[locale];
  const makeLabel = input.makeLabel ?? words.makeLabel;
  const title = input.title ?? words.title;
  const results =
    input.results.length === 0
      ? `<p class="empty">${e(words.noResults)}</p>`
      : input.results.map((r) => renderResult(r, words)).join('\n    ');
  const notices =
    input.notices && input.notices.length > 0
      ? `\n    <ul class="audio-merge-upload-errors" role="alert">${input.notices.map((m) => `<li>${e(m)}</li>`).join('')}</ul>`
      : '';
  return `<!doctype html>
<html lang="${locale}" dir="${directionOf(locale)}">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <meta name="csrf-token" content="${e(input.csrfToken)}">
  <link rel="icon" href="data:,">
  <title>${e(words.heading)}</title>
  <style>${STYLE}</style>
</head>
<body>
<main>
  <h1>${e(words.heading)}</h1>
  <p class="lead">${e(words.lead)}</p>
  <section id="audio-merge-upload" class="audio-merge-upload" data-appid="${e(input.appid)}" data-max-file-mb="${e(input.maxFileMb)}">
    <h2>${e(words.upload)}</h2>
    <form id="audio-merge-upload-form" method="post" action="${e(API.upload)}" enctype="multipart/form-data">
      <input type="hidden" name="appid" value="${e(input.appid)}"> <input type="hidden" name="_csrf" value="${e(input.csrfToken)}">
      <input id="audio-merge-file-input" type="file" name="files" multiple accept="audio/*,.mp3,.wav,.flac,.ogg,.oga,.opus,.m4a,.aac,.webm">
      <button type="submit">${e(words.uploadButton)}</button>
    </form>
    <p class="hint">${e(words.uploadHint(String(input.maxFileMb)))}</p>
    <ul id="audio-merge-upload-list" class="audio-merge-upload-list"></ul>${notices}
  </section>
  <div id="${WIDGET_ELEMENT_ID}" data-appid="${e(input.appid)}" data-sid="${e(input.sid)}" data-port="${e(input.socketPort)}" data-locale="${locale}" data-make-label="${e(makeLabel)}" data-title="${e(title)}" data-formats="${e(OUTPUT_FORMATS.join(' '))}"></div>
  <section id="audio-merge-results" class="audio-merge-results">
    <h2>${e(words.results)}</h2>
    ${results}
  </section>
</main>
<script type="module" src="${e(API.widgetScript)}"></script>
</body>
</html>
`;
}

/** A page that only tells a person something (the server cannot serve the tool right now). */
export function renderNoticePage(message: string): string {
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Audio merge</title></head>
<body><main><p role="alert">${escapeHtml(message)}</p></main></body>
</html>
`;
}
