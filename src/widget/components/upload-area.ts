// Enhances the host page's upload form: a drop zone and the picker, a few files going up at once
// with tus (each with its bar, resuming after a dropped connection or a reload), items arriving in
// the order chosen, and the server's refusal next to its file. Without the script the plain
// multipart form still works.
import type { UploadOptions } from 'tus-js-client';
import { csrfToken } from '../api/http.js';
import type { UploadOutcome } from '../api/upload-request.js';
import { languageAttributes, t } from '../i18n/locale.js';
import { createUploadQueue, type UploadQueue } from './upload-queue.js';
import { addRow, el, endBatch, showOutcome, showProgress, type UploadRow } from './upload-rows.js';

export { batchSummary } from './upload-rows.js';

export const UPLOAD_FORM_ID = 'audio-merge-upload-form';
export const UPLOAD_LIST_ID = 'audio-merge-upload-list';
/** Files going up at once: enough to fill the line, few enough that each bar moves. */
export const DEFAULT_CONCURRENCY = 3;

export interface UploadAreaOptions {
  /** Called when a batch ends with at least one file stored. */
  onAllDone?: () => void;
  /** true when a batch starts sending, false when its last upload has ended (stored or not). */
  onBusyChange?: (busy: boolean) => void;
  /** Files going up at once. */
  concurrency?: number;
  /** tus-js-client options for tests (httpStack, urlStorage). */
  tusOptions?: Partial<UploadOptions>;
}

interface Entry {
  file: File;
  row: UploadRow;
}

interface Area {
  doc: Document;
  section: HTMLElement | null;
  form: HTMLFormElement;
  zone: HTMLElement;
  list: HTMLElement;
  summary: HTMLElement;
  appid: string;
  maxMb: number;
}

/** Phase 1: the list, the drop zone around the picker, and the batch summary line. */
function buildArea(form: HTMLFormElement, input: HTMLInputElement): Area {
  const doc = form.ownerDocument;
  const section = form.closest<HTMLElement>('.audio-merge-upload');
  let list = doc.getElementById(UPLOAD_LIST_ID);
  if (!list) {
    list = el(doc, 'ul', 'audio-merge-upload-list');
    list.id = UPLOAD_LIST_ID;
    form.after(list);
  }
  // The picker sits inside a label that is also the drop zone.
  const zone = el(doc, 'label', 'audio-merge-dropzone');
  zone.append(el(doc, 'strong', '', t().chooseFiles), el(doc, 'span', '', t().orDropThem));
  // What the script adds speaks the widget's language, in its direction.
  for (const added of [zone, list]) Object.assign(added, languageAttributes());
  input.before(zone);
  zone.append(input);
  form.classList.add('audio-merge-upload-form--enhanced');
  // One line says how each batch ended (a screen reader hears only that, not every percent).
  const summary = el(doc, 'p', 'audio-merge-upload-summary');
  summary.setAttribute('role', 'status');
  Object.assign(summary, languageAttributes());
  list.after(summary);
  const appid =
    form.querySelector<HTMLInputElement>('input[name="appid"]')?.value ?? section?.dataset.appid ?? '';
  return { doc, section, form, zone, list, summary, appid, maxMb: Number(section?.dataset.maxFileMb) };
}

/** Phase 2: the queue that sends each file with tus and says how each ended. */
function buildQueue(area: Area, opts: UploadAreaOptions): UploadQueue<Entry> {
  return createUploadQueue<Entry>(Math.max(1, opts.concurrency ?? DEFAULT_CONCURRENCY), {
    send: ({ file, row }, mayFinish) => {
      row.state.textContent = t().percent(0);
      // The tus client comes with the first file sent: a page that only orders its files never fetches it.
      return import('../api/tus-upload.js').then(
        ({ startTusUpload }) =>
          startTusUpload({
            file,
            appid: area.appid,
            csrf: csrfToken(area.doc),
            mayFinish,
            onProgress: (f) => showProgress(row, f),
            tusOptions: opts.tusOptions,
          }).done,
      );
    },
    settled: ({ row }, outcome) => showOutcome(row, outcome),
    waiting: ({ row }) => void (row.state.textContent = t().uploadSent),
    batchEnded: (stored, tried) => {
      opts.onBusyChange?.(false);
      if (stored === 0) return;
      endBatch(area.list, area.summary, stored, tried);
      opts.onAllDone?.();
    },
  });
}

/** A file over the page's limit is refused before a byte is sent. */
function tooLarge(area: Area, file: File): UploadOutcome | undefined {
  if (!Number.isFinite(area.maxMb) || area.maxMb <= 0 || file.size <= area.maxMb * 1024 * 1024)
    return undefined;
  return { ok: false, message: t().overPageLimit(file.name, area.maxMb) };
}

/** Phase 3: files chosen, submitted or dropped go into the queue in the order given. */
function listen(
  area: Area,
  input: HTMLInputElement,
  queue: UploadQueue<Entry>,
  opts: UploadAreaOptions,
): void {
  const enqueue = (files: FileList | File[] | null | undefined) => {
    const wasIdle = queue.idle;
    if (wasIdle) area.summary.textContent = '';
    for (const file of Array.from(files ?? [])) {
      const entry = { file, row: addRow(area.list, file) };
      const refusal = tooLarge(area, file);
      if (refusal) queue.refuseNow(entry, refusal);
      else queue.add(entry);
    }
    if (wasIdle && !queue.idle) opts.onBusyChange?.(true);
  };
  input.addEventListener('change', () => {
    enqueue(input.files);
    input.value = '';
  });
  area.form.addEventListener('submit', (e) => {
    e.preventDefault();
    enqueue(input.files);
    input.value = '';
  });
  const dropTarget = area.section ?? area.form;
  const over = (on: boolean) => area.zone.classList.toggle('audio-merge-dropzone--over', on);
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
}

/** A file dropped just beside the zone must not make the browser open it and leave the page. */
function guardWindow(doc: Document): void {
  const win = doc.defaultView;
  const carriesFiles = (e: DragEvent) => Array.from(e.dataTransfer?.types ?? []).includes('Files');
  win?.addEventListener('dragover', (e) => {
    if (carriesFiles(e)) e.preventDefault();
  });
  win?.addEventListener('drop', (e) => {
    if (carriesFiles(e)) e.preventDefault();
  });
}

export function enhanceUploadForm(form: HTMLFormElement, opts: UploadAreaOptions = {}): void {
  const input = form.querySelector<HTMLInputElement>('input[type="file"]');
  if (!input) return;
  const area = buildArea(form, input);
  listen(area, input, buildQueue(area, opts), opts);
  guardWindow(area.doc);
}
