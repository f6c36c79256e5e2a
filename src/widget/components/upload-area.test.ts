// @vitest-environment jsdom
import '@testing-library/jest-dom/vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/dom';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { FakeTusServer } from '../../../test/support/fake-tus-server.js';
import { enhanceUploadForm, type UploadAreaOptions } from './upload-area.js';

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

const audioFile = (name: string, bytes = 1000) =>
  new File([new Uint8Array(bytes).fill(7)], name, { type: 'audio/mpeg', lastModified: 1 });

function choose(files: File[]) {
  const input = document.getElementById('audio-merge-file-input') as HTMLInputElement;
  Object.defineProperty(input, 'files', { configurable: true, value: files });
  fireEvent.change(input);
}

let server: FakeTusServer;
function enhance(opts: UploadAreaOptions = {}) {
  enhanceUploadForm(page(), { tusOptions: { httpStack: server }, ...opts });
}
const rows = () => Array.from(document.querySelectorAll<HTMLElement>('.audio-merge-upload-item'));
const row = (name: string) => rows().find((r) => r.textContent!.includes(name))!;

beforeEach(() => {
  server = new FakeTusServer();
  localStorage.clear();
});

describe('the upload area', () => {
  it('creates each upload with tus, with its file name, appid and CSRF header, each with its own bar', async () => {
    enhance({ concurrency: 3 });
    server.hold('one.mp3');
    server.hold('two.mp3');
    choose([audioFile('one.mp3', 4000), audioFile('two.mp3', 4000)]);
    await waitFor(() => expect(server.requests.filter((r) => r.method === 'PATCH')).toHaveLength(2));
    const posts = server.requests.filter((r) => r.method === 'POST');
    expect(posts.map((p) => p.url)).toEqual(['/app/merge/tus/', '/app/merge/tus/']);
    expect(posts.every((p) => p.headers['x-csrf-token'] === 'tok-9')).toBe(true);
    expect([...server.uploads.values()].map((u) => u.metadata)).toEqual([
      { filename: 'one.mp3', filetype: 'audio/mpeg', appid: 'app-7' },
      { filename: 'two.mp3', filetype: 'audio/mpeg', appid: 'app-7' },
    ]);
    server.release('one.mp3');
    // One is stored; the other file's bar has not moved.
    await waitFor(() => expect(within(row('one.mp3')).getByText('Uploaded')).toBeInTheDocument());
    expect(row('one.mp3').querySelector<HTMLElement>('.audio-merge-upload-bar-fill')!.style.width).toBe(
      '100%',
    );
    expect(row('two.mp3').querySelector<HTMLElement>('.audio-merge-upload-bar-fill')!.style.width).toBe('0%');
    server.release('two.mp3');
    await waitFor(() => expect(server.finished).toEqual(['one.mp3', 'two.mp3']));
  });

  it('sends a few files at once, but they become items in the order chosen', async () => {
    const onAllDone = vi.fn();
    enhance({ concurrency: 3, onAllDone });
    server.hold('first.mp3');
    choose([
      audioFile('first.mp3', 5000),
      audioFile('second.mp3', 300),
      audioFile('third.mp3', 300),
      audioFile('fourth.mp3', 300),
    ]);
    // Three go up at once; the fourth waits for a free place.
    await waitFor(() => expect(server.uploads.size).toBe(3));
    // The small ones have sent all but their last byte, and wait for the first to finish.
    await waitFor(() => expect(server.bytesSent('third.mp3')).toBe(299));
    expect(server.finished).toEqual([]);
    await waitFor(() =>
      expect(within(row('third.mp3')).getByText('Sent; waits for the files before it')).toBeInTheDocument(),
    );
    server.release('first.mp3');
    await waitFor(() => expect(onAllDone).toHaveBeenCalledTimes(1));
    expect(server.finished).toEqual(['first.mp3', 'second.mp3', 'third.mp3', 'fourth.mp3']);
    expect(screen.getByRole('status')).toHaveTextContent(
      '4 files uploaded. They are at the end of the list to order.',
    );
    expect(rows()).toEqual([]);
  });

  it('a dropped connection is retried and resumes at the server offset, sending no byte twice', async () => {
    enhance();
    server.script('PATCH', 'drop-half');
    choose([audioFile('flaky.mp3', 10_000)]);
    await waitFor(() => expect(server.finished).toEqual(['flaky.mp3']), { timeout: 5000 });
    const methods = server.requests.map((r) => r.method);
    // The retry carries the rest, last byte included (its file is first in line).
    expect(methods).toEqual(['POST', 'PATCH', 'HEAD', 'PATCH']);
    expect(server.bytesSent('flaky.mp3')).toBe(10_000);
    await waitFor(() => expect(screen.getByRole('status')).toHaveTextContent('1 file uploaded.'));
  });

  it('a 429 waits for the Retry-After and goes on; it is never shown as a failure', async () => {
    enhance();
    server.script('POST', {
      status: 429,
      headers: { 'Retry-After': '1' },
      body: '{"error":"Too many requests; wait a moment"}',
    });
    vi.useFakeTimers();
    try {
      choose([audioFile('busy.mp3')]);
      await vi.advanceTimersByTimeAsync(900);
      expect(server.requests.map((r) => r.method)).toEqual(['POST']); // still waiting as told
      expect(screen.queryByRole('alert')).toBeNull();
      await vi.advanceTimersByTimeAsync(200);
      await vi.runAllTimersAsync();
      expect(server.finished).toEqual(['busy.mp3']);
      expect(screen.queryByRole('alert')).toBeNull();
    } finally {
      vi.useRealTimers();
    }
  });

  it('a reloaded page resumes an unfinished upload of the same file where the server has it', async () => {
    const firstPage = server.stack();
    enhanceUploadForm(page(), { tusOptions: { httpStack: firstPage } });
    server.hold('long.mp3');
    const file = audioFile('long.mp3', 8000);
    choose([file]);
    await waitFor(() => expect(server.requests.map((r) => r.method)).toEqual(['POST', 'PATCH']));
    // The page goes away while the bytes go up: half of them arrived.
    server.kill(firstPage);
    server.release('long.mp3');
    await waitFor(() => expect(server.bytesSent('long.mp3')).toBe(3999));
    server.requests = [];

    enhanceUploadForm(page(), { tusOptions: { httpStack: server.stack() } });
    choose([file]);
    await waitFor(() => expect(server.finished).toEqual(['long.mp3']));
    expect(server.requests.map((r) => r.method)).toEqual(['HEAD', 'PATCH']);
    expect(server.requests[1].bytes).toBe(8000 - 3999);
    expect(server.uploads.size).toBe(1);
  });

  it("shows the server's refusal next to that file and re-mounts once all are done", async () => {
    const onAllDone = vi.fn();
    enhance({ concurrency: 2, onAllDone });
    server.onFinish = (u) =>
      u.metadata.filename === 'notes.txt'
        ? { status: 422, body: JSON.stringify({ error: 'notes.txt was not stored: not audio' }) }
        : { status: 200, body: JSON.stringify({ items: [{ id: u.id }], errors: [] }) };
    choose([audioFile('good.mp3'), audioFile('notes.txt'), audioFile('late.wav')]);
    await waitFor(() => expect(onAllDone).toHaveBeenCalledTimes(1));
    const bad = row('notes.txt');
    expect(within(bad).getByRole('alert')).toHaveTextContent('notes.txt was not stored: not audio');
    expect(bad).toHaveClass('audio-merge-upload-item--failed');
    // The stored files are rows of the widget now; their upload lines give way to one summary.
    expect(rows().map((r) => r.textContent)).toEqual([expect.stringContaining('notes.txt')]);
    expect(screen.getByRole('status')).toHaveTextContent('2 of 3 files uploaded.');
  });

  it('says when a batch starts sending and when its last upload has ended, refused or not', async () => {
    const busy = vi.fn();
    enhance({ concurrency: 3, onBusyChange: busy });
    server.hold('one.mp3');
    server.onFinish = (u) =>
      u.metadata.filename === 'two.mp3'
        ? { status: 422, body: JSON.stringify({ error: 'two.mp3 is not audio' }) }
        : { status: 200, body: JSON.stringify({ items: [{ id: u.id }], errors: [] }) };
    choose([audioFile('one.mp3'), audioFile('two.mp3')]);
    expect(busy.mock.calls).toEqual([[true]]);
    await waitFor(() =>
      expect(server.requests.filter((r) => r.method === 'PATCH').length).toBeGreaterThan(0),
    );
    expect(busy.mock.calls).toEqual([[true]]);
    server.release('one.mp3');
    await waitFor(() => expect(busy.mock.calls).toEqual([[true], [false]]));
  });

  it('refuses a file over the size limit without sending it, and does not re-mount for nothing', async () => {
    vi.useFakeTimers();
    try {
      const onAllDone = vi.fn();
      enhanceUploadForm(page(1), { tusOptions: { httpStack: server }, onAllDone });
      choose([audioFile('huge.wav', 2 * 1024 * 1024)]);
      expect(screen.getByRole('alert')).toHaveTextContent('huge.wav is larger than the 1 MB limit.');
      await vi.runAllTimersAsync();
      expect(server.requests).toEqual([]);
      expect(onAllDone).not.toHaveBeenCalled();
    } finally {
      vi.useRealTimers();
    }
  });

  it('takes dropped files and keeps the plain form from submitting', async () => {
    enhance();
    const zone = document.querySelector('.audio-merge-dropzone')!;
    expect(zone.contains(document.getElementById('audio-merge-file-input'))).toBe(true);
    const drop = new Event('drop', { bubbles: true, cancelable: true });
    Object.defineProperty(drop, 'dataTransfer', { value: { files: [audioFile('dropped.flac')] } });
    zone.dispatchEvent(drop);
    expect(drop.defaultPrevented).toBe(true);
    await waitFor(() => expect(server.finished).toEqual(['dropped.flac']));

    const submit = new Event('submit', { bubbles: true, cancelable: true });
    document.getElementById('audio-merge-upload-form')!.dispatchEvent(submit);
    expect(submit.defaultPrevented).toBe(true);
  });

  it('a file dropped beside the zone is neither opened by the browser nor uploaded', async () => {
    enhance();
    const outside = document.createElement('div');
    document.body.append(outside);
    const drop = new Event('drop', { bubbles: true, cancelable: true });
    Object.defineProperty(drop, 'dataTransfer', {
      value: { types: ['Files'], files: [audioFile('stray.mp3')] },
    });
    vi.useFakeTimers();
    try {
      outside.dispatchEvent(drop);
      expect(drop.defaultPrevented).toBe(true);
      await vi.runAllTimersAsync();
      expect(server.requests).toEqual([]);
    } finally {
      vi.useRealTimers();
    }
  });
});
