// Enhances the host page's upload form: a drop zone and the picker, several files at once,
// one request per file with its own progress bar, and the server's refusal next to that file.
import { csrfToken } from '../api/http.js';
import { formatSize } from '../../shared/format.js';
import { uploadFile, type UploadOutcome } from '../api/upload-request.js';

export const UPLOAD_FORM_ID = 'audio-merge-upload-form';
export const UPLOAD_LIST_ID = 'audio-merge-upload-list';

export interface UploadAreaOptions {
  /** Called when the last running upload finishes and at least one file was stored. */
  onAllDone?: () => void;
  /** true when a batch starts sending, false when its last upload has ended (stored or not). */
  onBusyChange?: (busy: boolean) => void;
  createXhr?: () => XMLHttpRequest;
  /** Uploads running at once; one by default, so items arrive in the order the files were chosen. */
  concurrency?: number;
}

interface Row {
  li: HTMLLIElement;
  state: HTMLElement;
  fill: HTMLElement;
}

function el<K extends keyof HTMLElementTagNameMap>(doc: Document, tag: K, cls: string, text?: string) {
  const e = doc.createElement(tag);
  e.className = cls;
  if (text !== undefined) e.textContent = text;
  return e;
}

/** What a screen reader hears when a batch ends with `stored` of `tried` files kept. */
export function batchSummary(stored: number, tried: number): string {
  const where = stored === 1 ? 'It is' : 'They are';
  const what = stored === tried ? `${stored} ${stored === 1 ? 'file' : 'files'}` : `${stored} of ${tried} files`;
  return `${what} uploaded. ${where} at the end of the list to order.`;
}

export function enhanceUploadForm(form: HTMLFormElement, opts: UploadAreaOptions = {}): void {
  const doc = form.ownerDocument;
  const section = form.closest<HTMLElement>('.audio-merge-upload');
  const input = form.querySelector<HTMLInputElement>('input[type="file"]');
  if (!input) return;
  let list = doc.getElementById(UPLOAD_LIST_ID);
  if (!list) {
    list = el(doc, 'ul', 'audio-merge-upload-list');
    list.id = UPLOAD_LIST_ID;
    form.after(list);
  }
  const appid = form.querySelector<HTMLInputElement>('input[name="appid"]')?.value ?? section?.dataset.appid ?? '';
  const maxMb = Number(section?.dataset.maxFileMb);
  const concurrency = Math.max(1, opts.concurrency ?? 1);

  // The picker sits inside a label that is also the drop zone.
  const zone = el(doc, 'label', 'audio-merge-dropzone');
  zone.append(el(doc, 'strong', '', 'Choose audio files'), el(doc, 'span', '', 'or drop them here. Several at once are fine.'));
  input.before(zone);
  zone.append(input);
  form.classList.add('audio-merge-upload-form--enhanced');

  // One line says how each batch ended (a screen reader hears only that, not every percent).
  const summary = el(doc, 'p', 'audio-merge-upload-summary');
  summary.setAttribute('role', 'status');
  list.after(summary);

  const waiting: Array<{ file: File; row: Row }> = [];
  let running = 0;
  let busy = false;
  let storedInBatch = 0;
  let triedInBatch = 0;

  const addRow = (file: File): Row => {
    const li = el(doc, 'li', 'audio-merge-upload-item');
    const state = el(doc, 'span', 'audio-merge-upload-state', 'Waiting');
    const bar = el(doc, 'span', 'audio-merge-upload-bar');
    const fill = el(doc, 'span', 'audio-merge-upload-bar-fill');
    bar.append(fill);
    // Name and size apart, so a long name is cut short and the size still shows.
    const name = el(doc, 'span', 'audio-merge-upload-name');
    name.title = file.name;
    name.append(el(doc, 'span', 'audio-merge-upload-file', file.name), el(doc, 'span', 'audio-merge-upload-size', ` (${formatSize(file.size)})`));
    li.append(name, state, bar);
    list.append(li);
    return { li, state, fill };
  };

  const finish = (row: Row, outcome: UploadOutcome) => {
    if (outcome.ok) {
      storedInBatch++;
      row.li.classList.add('audio-merge-upload-item--done');
      row.state.textContent = 'Uploaded';
      row.fill.style.width = '100%';
    } else {
      row.li.classList.add('audio-merge-upload-item--failed');
      row.state.textContent = 'Refused';
      const msg = el(doc, 'p', 'audio-merge-upload-error', outcome.message);
      msg.setAttribute('role', 'alert');
      row.li.append(msg);
    }
  };

  const pump = () => {
    while (running < concurrency && waiting.length > 0) {
      const { file, row } = waiting.shift()!;
      running++;
      if (!busy) opts.onBusyChange?.((busy = true));
      row.state.textContent = '0%';
      void uploadFile({
        file,
        appid,
        csrf: csrfToken(doc),
        createXhr: opts.createXhr,
        onProgress: (f) => {
          const pct = Math.round(f * 100);
          row.fill.style.width = `${pct}%`;
          // Sent is not stored: the server still checks the file after the last byte.
          row.state.textContent = pct >= 100 ? 'Checking…' : `${pct}%`;
        },
      }).then((outcome) => {
        finish(row, outcome);
        running--;
        if (running === 0 && waiting.length === 0) {
          opts.onBusyChange?.((busy = false));
          const stored = storedInBatch;
          const tried = triedInBatch;
          storedInBatch = 0;
          triedInBatch = 0;
          if (stored > 0) {
            // The stored files are rows of the widget now: forty "Uploaded" lines would only push
            // the list off the screen. Refusals stay, each next to its reason.
            for (const done of Array.from(list.querySelectorAll('.audio-merge-upload-item--done'))) done.remove();
            summary.textContent = batchSummary(stored, tried);
            opts.onAllDone?.();
          }
        } else pump();
      });
    }
  };

  const enqueue = (files: FileList | File[] | null | undefined) => {
    if (running === 0 && waiting.length === 0) summary.textContent = '';
    for (const file of Array.from(files ?? [])) {
      triedInBatch++;
      const row = addRow(file);
      if (Number.isFinite(maxMb) && maxMb > 0 && file.size > maxMb * 1024 * 1024) {
        finish(row, { ok: false, message: `${file.name} is larger than the ${maxMb} MB limit.` });
        continue;
      }
      waiting.push({ file, row });
    }
    if (running === 0 && waiting.length === 0) triedInBatch = 0; // all refused before sending
    pump();
  };

  input.addEventListener('change', () => {
    enqueue(input.files);
    input.value = '';
  });
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    enqueue(input.files);
    input.value = '';
  });

  const dropTarget = section ?? form;
  const over = (on: boolean) => zone.classList.toggle('audio-merge-dropzone--over', on);
  dropTarget.addEventListener('dragover', (e) => {
    e.preventDefault();
    over(true);
  });
  dropTarget.addEventListener('dragleave', (e) => {
    if (!dropTarget.contains(e.relatedTarget as Node | null)) over(false);
  });
  dropTarget.addEventListener('drop', (e) => {
    e.preventDefault();
    over(false);
    enqueue(e.dataTransfer?.files);
  });
  // A file dropped just beside the zone must not make the browser open it and leave the page.
  const win = doc.defaultView;
  const carriesFiles = (e: DragEvent) => Array.from(e.dataTransfer?.types ?? []).includes('Files');
  win?.addEventListener('dragover', (e) => {
    if (carriesFiles(e)) e.preventDefault();
  });
  win?.addEventListener('drop', (e) => {
    if (carriesFiles(e)) e.preventDefault();
  });
}
