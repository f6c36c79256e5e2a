// The upload area's list: one line per file with its name, size, state and bar; a refusal stays
// next to its file, and one line says how each batch ended.
import { t } from '../i18n/locale.js';
import type { UploadOutcome } from '../api/upload-request.js';

export interface UploadRow {
  li: HTMLLIElement;
  state: HTMLElement;
  fill: HTMLElement;
}

export function el<K extends keyof HTMLElementTagNameMap>(doc: Document, tag: K, cls: string, text?: string) {
  const e = doc.createElement(tag);
  e.className = cls;
  if (text !== undefined) e.textContent = text;
  return e;
}

/** What a screen reader hears when a batch ends with `stored` of `tried` files kept. */
export function batchSummary(stored: number, tried: number): string {
  return t().batchSummary(stored, tried);
}

export function addRow(list: HTMLElement, file: File): UploadRow {
  const doc = list.ownerDocument;
  const li = el(doc, 'li', 'audio-merge-upload-item');
  const state = el(doc, 'span', 'audio-merge-upload-state', t().uploadWaiting);
  const bar = el(doc, 'span', 'audio-merge-upload-bar');
  const fill = el(doc, 'span', 'audio-merge-upload-bar-fill');
  bar.append(fill);
  // Name and size apart, so a long name is cut short and the size still shows.
  const name = el(doc, 'span', 'audio-merge-upload-name');
  name.title = file.name;
  // Each isolated, so a Latin name and its size keep their own direction in a right-to-left list.
  const size = el(doc, 'span', 'audio-merge-upload-size', ' (');
  size.append(el(doc, 'bdi', '', t().fileSize(file.size)), ')');
  name.append(el(doc, 'bdi', 'audio-merge-upload-file', file.name), size);
  li.append(name, state, bar);
  list.append(li);
  return { li, state, fill };
}

export function showProgress(row: UploadRow, fraction: number): void {
  const pct = Math.round(fraction * 100);
  row.fill.style.width = `${pct}%`;
  // Sent is not stored: the server still checks the file after the last byte.
  row.state.textContent = pct >= 100 ? t().uploadChecking : t().percent(pct);
}

export function showOutcome(row: UploadRow, outcome: UploadOutcome): void {
  if (outcome.ok) {
    row.li.classList.add('audio-merge-upload-item--done');
    row.state.textContent = t().uploaded;
    row.fill.style.width = '100%';
    return;
  }
  row.li.classList.add('audio-merge-upload-item--failed');
  row.state.textContent = t().uploadRefused;
  const msg = el(row.li.ownerDocument, 'p', 'audio-merge-upload-error', outcome.message);
  msg.setAttribute('role', 'alert');
  row.li.append(msg);
}

/**
 * The stored files are rows of the widget now: forty "Uploaded" lines would only push the list
 * off the screen. Refusals stay, each next to its reason.
 */
export function endBatch(list: HTMLElement, summary: HTMLElement, stored: number, tried: number): void {
  for (const done of Array.from(list.querySelectorAll('.audio-merge-upload-item--done'))) done.remove();
  summary.textContent = batchSummary(stored, tried);
}
