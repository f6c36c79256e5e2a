// @vitest-environment jsdom
import '@testing-library/jest-dom/vitest';
import { fireEvent, screen, within } from '@testing-library/dom';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { enhanceUploadForm } from './upload-area.js';

/** An XMLHttpRequest double: records the request; the test answers it. */
class FakeXhr {
  static all: FakeXhr[] = [];
  method = '';
  url = '';
  headers: Record<string, string> = {};
  body: FormData | null = null;
  status = 0;
  responseText = '';
  upload: { onprogress: ((e: ProgressEvent) => void) | null } = { onprogress: null };
  onload: (() => void) | null = null;
  onerror: (() => void) | null = null;
  onabort: (() => void) | null = null;
  constructor() {
    FakeXhr.all.push(this);
  }
  open(method: string, url: string) {
    this.method = method;
    this.url = url;
  }
  setRequestHeader(k: string, v: string) {
    this.headers[k] = v;
  }
  send(body: FormData) {
    this.body = body;
  }
  get file() {
    return this.body?.get('files') as File;
  }
  progress(loaded: number, total: number) {
    this.upload.onprogress?.({ lengthComputable: true, loaded, total } as ProgressEvent);
  }
  answer(status: number, body: unknown) {
    this.status = status;
    this.responseText = JSON.stringify(body);
    this.onload?.();
  }
}

function page(maxMb = 500) {
  document.head.innerHTML = '<meta name="csrf-token" content="tok-9">';
  document.body.innerHTML = `
    <section id="audio-merge-upload" class="audio-merge-upload" data-appid="app-7" data-max-file-mb="${maxMb}">
      <form id="audio-merge-upload-form" method="post" action="/app/merge/upload" enctype="multipart/form-data">
        <input type="hidden" name="appid" value="app-7"><input type="hidden" name="_csrf" value="tok-9">
        <input id="audio-merge-file-input" type="file" name="files" multiple accept="audio/*">
        <button type="submit">Upload</button>
      </form>
      <ul id="audio-merge-upload-list" class="audio-merge-upload-list"></ul>
    </section>`;
  return document.getElementById('audio-merge-upload-form') as HTMLFormElement;
}

const audioFile = (name: string, bytes = 1000) => new File([new Uint8Array(bytes)], name, { type: 'audio/mpeg' });
const flush = () => new Promise((r) => setTimeout(r, 0));

function choose(files: File[]) {
  const input = document.getElementById('audio-merge-file-input') as HTMLInputElement;
  Object.defineProperty(input, 'files', { configurable: true, value: files });
  fireEvent.change(input);
}

beforeEach(() => {
  FakeXhr.all = [];
});

describe('the upload area', () => {
  it('sends one request per file with the appid and CSRF header, each with its own progress', async () => {
    const form = page();
    enhanceUploadForm(form, { createXhr: () => new FakeXhr() as unknown as XMLHttpRequest, concurrency: 3 });
    choose([audioFile('one.mp3'), audioFile('two.mp3')]);
    expect(FakeXhr.all).toHaveLength(2);
    for (const x of FakeXhr.all) {
      expect(x.method).toBe('POST');
      expect(x.url).toBe('/app/merge/upload');
      expect(x.headers['X-CSRF-TOKEN']).toBe('tok-9');
      expect(x.body!.get('appid')).toBe('app-7');
    }
    expect(FakeXhr.all.map((x) => x.file.name)).toEqual(['one.mp3', 'two.mp3']);
    FakeXhr.all[0].progress(250, 1000);
    FakeXhr.all[1].progress(900, 1000);
    const rows = document.querySelectorAll<HTMLElement>('.audio-merge-upload-item');
    expect(within(rows[0]).getByText('25%')).toBeInTheDocument();
    expect(rows[0].querySelector<HTMLElement>('.audio-merge-upload-bar-fill')!.style.width).toBe('25%');
    expect(within(rows[1]).getByText('90%')).toBeInTheDocument();
  });

  it("shows the server's refusal next to that file and re-mounts once all are done", async () => {
    const form = page();
    const onAllDone = vi.fn();
    enhanceUploadForm(form, { createXhr: () => new FakeXhr() as unknown as XMLHttpRequest, concurrency: 2, onAllDone });
    choose([audioFile('good.mp3'), audioFile('notes.txt'), audioFile('late.wav')]);
    expect(FakeXhr.all).toHaveLength(2); // the third waits for a free slot
    FakeXhr.all[1].answer(422, { error: 'notes.txt is not an audio file ffmpeg can read' });
    await flush();
    expect(FakeXhr.all).toHaveLength(3);
    FakeXhr.all[0].answer(200, { items: [{ id: '1', filename: 'good.mp3' }], errors: [] });
    await flush();
    expect(onAllDone).not.toHaveBeenCalled();
    FakeXhr.all[2].answer(200, { items: [{ id: '2', filename: 'late.wav' }], errors: [] });
    await flush();
    expect(onAllDone).toHaveBeenCalledTimes(1);

    const rows = Array.from(document.querySelectorAll<HTMLElement>('.audio-merge-upload-item'));
    const bad = rows.find((r) => r.textContent!.includes('notes.txt'))!;
    expect(within(bad).getByRole('alert')).toHaveTextContent('notes.txt is not an audio file ffmpeg can read');
    expect(bad).toHaveClass('audio-merge-upload-item--failed');
    // The stored files are rows of the widget now; their upload lines give way to one summary.
    expect(rows.map((r) => r.textContent)).toEqual([expect.stringContaining('notes.txt')]);
    expect(screen.getByRole('status')).toHaveTextContent('2 of 3 files uploaded.');
  });

  it('says when a batch starts sending and when its last upload has ended, refused or not', async () => {
    const form = page();
    const busy = vi.fn();
    enhanceUploadForm(form, { createXhr: () => new FakeXhr() as unknown as XMLHttpRequest, onBusyChange: busy });
    choose([audioFile('one.mp3'), audioFile('two.mp3')]);
    expect(busy.mock.calls).toEqual([[true]]);
    FakeXhr.all[0].answer(200, { items: [{ id: '1', filename: 'one.mp3' }], errors: [] });
    await flush();
    expect(busy.mock.calls).toEqual([[true]]);
    FakeXhr.all[1].answer(422, { error: 'two.mp3 is not audio' });
    await flush();
    expect(busy.mock.calls).toEqual([[true], [false]]);
  });

  it('forty files: while they go up each has its line; when the batch ends one line says so, not forty', async () => {
    const form = page();
    enhanceUploadForm(form, { createXhr: () => new FakeXhr() as unknown as XMLHttpRequest });
    choose(Array.from({ length: 40 }, (_, i) => audioFile(`clip${i + 1}.wav`)));
    expect(document.querySelectorAll('.audio-merge-upload-item')).toHaveLength(40);
    for (let i = 0; i < 40; i++) {
      FakeXhr.all[i].answer(200, { items: [{ id: String(i), filename: `clip${i + 1}.wav` }] });
      await flush();
    }
    expect(document.querySelectorAll('.audio-merge-upload-item')).toHaveLength(0);
    expect(screen.getByRole('status')).toBeVisible();
    expect(screen.getByRole('status')).toHaveTextContent('40 files uploaded. They are at the end of the list to order.');
  });

  it('a screen reader hears how many files were stored when the uploads end', async () => {
    const form = page();
    enhanceUploadForm(form, { createXhr: () => new FakeXhr() as unknown as XMLHttpRequest });
    const spoken = screen.getByRole('status');
    choose([audioFile('one.mp3'), audioFile('notes.txt'), audioFile('two.wav')]);
    FakeXhr.all[0].progress(500, 1000);
    expect(spoken).toHaveTextContent(/^$/); // progress itself is not spoken, only its end
    FakeXhr.all[0].answer(200, { items: [{ id: '1', filename: 'one.mp3' }] });
    await flush();
    FakeXhr.all[1].answer(422, { error: 'notes.txt is not audio' });
    await flush();
    expect(spoken).toHaveTextContent(/^$/);
    FakeXhr.all[2].answer(200, { items: [{ id: '2', filename: 'two.wav' }] });
    await flush();
    expect(spoken).toHaveTextContent('2 of 3 files uploaded. They are at the end of the list to order.');
    choose([audioFile('three.mp3')]);
    FakeXhr.all[3].answer(200, { items: [{ id: '3', filename: 'three.mp3' }] });
    await flush();
    expect(spoken).toHaveTextContent('1 file uploaded. It is at the end of the list to order.');
  });

  it('refuses a file over the size limit without sending it, and does not re-mount for nothing', async () => {
    const form = page(1);
    const onAllDone = vi.fn();
    enhanceUploadForm(form, { createXhr: () => new FakeXhr() as unknown as XMLHttpRequest, onAllDone });
    choose([audioFile('huge.wav', 2 * 1024 * 1024)]);
    expect(FakeXhr.all).toHaveLength(0);
    expect(screen.getByRole('alert')).toHaveTextContent('huge.wav is larger than the 1 MB limit.');
    await flush();
    expect(onAllDone).not.toHaveBeenCalled();
  });

  it('takes dropped files and keeps the plain form from submitting', () => {
    const form = page();
    enhanceUploadForm(form, { createXhr: () => new FakeXhr() as unknown as XMLHttpRequest });
    const zone = document.querySelector('.audio-merge-dropzone')!;
    expect(zone.contains(document.getElementById('audio-merge-file-input'))).toBe(true);
    const drop = new Event('drop', { bubbles: true, cancelable: true });
    Object.defineProperty(drop, 'dataTransfer', { value: { files: [audioFile('dropped.flac')] } });
    zone.dispatchEvent(drop);
    expect(drop.defaultPrevented).toBe(true);
    expect(FakeXhr.all.map((x) => x.file.name)).toEqual(['dropped.flac']);

    const submit = new Event('submit', { bubbles: true, cancelable: true });
    form.dispatchEvent(submit);
    expect(submit.defaultPrevented).toBe(true);
  });

  it('a file dropped beside the zone is neither opened by the browser nor uploaded', () => {
    const form = page();
    enhanceUploadForm(form, { createXhr: () => new FakeXhr() as unknown as XMLHttpRequest });
    const outside = document.createElement('div');
    document.body.append(outside);
    const drop = new Event('drop', { bubbles: true, cancelable: true });
    Object.defineProperty(drop, 'dataTransfer', { value: { types: ['Files'], files: [audioFile('stray.mp3')] } });
    outside.dispatchEvent(drop);
    expect(drop.defaultPrevented).toBe(true);
    expect(FakeXhr.all).toHaveLength(0);
  });
});
