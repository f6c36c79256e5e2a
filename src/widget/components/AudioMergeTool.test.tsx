// @vitest-environment jsdom
// The widget through its HTTP and socket layers: make, the progress view, and every way a merge ends.
import '@testing-library/jest-dom/vitest';
import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { io } from 'socket.io-client';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { AudioMergeTool } from './AudioMergeTool.js';
import { fakeFetch, fakeIo, item, json, sockets, stackRows } from '../../../test/support/widget-fakes.js';
import { onWidgetPage } from '../../../test/support/widget-page.js';

vi.mock('socket.io-client', () => ({ io: vi.fn(() => fakeIo()) }));

const three = [
  item('a', 'alpha.wav', { duration: 65, format: 'wav' }),
  item('b', 'bravo.mp3'),
  item('c', 'charlie.ogg'),
];
const CHANNEL = 'status-channel-app-7-sid-1';
const EXPIRED = 'This page has expired; reload to start again';

let reload: ReturnType<typeof vi.fn>;
let mergeAnswer: () => Response | Promise<Response>;
let statusAnswer: () => Response;
let f: ReturnType<typeof fakeFetch>;

onWidgetPage();

beforeEach(() => {
  sockets.length = 0;
  reload = vi.fn();
  vi.stubGlobal('location', { ...window.location, protocol: 'http:', hostname: 'example.test', reload });
  vi.spyOn(window, 'scrollTo').mockImplementation(() => {});
  mergeAnswer = () => new Promise<Response>(() => {});
  statusAnswer = () => json({ state: 'none' });
  f = fakeFetch({
    '/app/merge/getDataJson': () => json(three),
    '/app/merge/mergemp3': () => mergeAnswer(),
    '/app/merge/status': () => statusAnswer(),
    '/app/merge/saveOrder': () => json({ ok: true }),
    '/app/merge/cancel': () => json({ ok: true }),
  });
  vi.stubGlobal('fetch', f.fn);
});

async function renderTool() {
  render(
    <AudioMergeTool
      appid="app-7"
      sid="sid-1"
      port="6123"
      makeLabel="Make MP3"
      title="Drag the files into the order you want"
    />,
  );
  await screen.findByText('alpha.wav');
}

const statusText = () => document.querySelector('.audio-merge-status')!.textContent;
const mergeCall = () => f.calls.find((c) => c.url === '/app/merge/mergemp3');
const event = (payload: Record<string, unknown>) =>
  act(() => sockets[0].serverEmit('NewStatus', CHANNEL, payload));

async function pressMake() {
  await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Make MP3' })));
  await waitFor(() => expect(mergeCall()).toBeDefined());
}

describe('make', () => {
  it('switches to the progress view, scrolls up, subscribes and posts the items in the current order with a requestId', async () => {
    stackRows();
    await renderTool();
    // A reorder first, through the same path a drop takes.
    const row = screen.getByRole('listitem', { name: /charlie\.ogg/ });
    row.focus();
    const tick = () => act(() => new Promise((r) => setTimeout(r, 0)));
    for (const key of ['Space', 'ArrowUp', 'ArrowUp', 'Space']) {
      fireEvent.keyDown(row, { code: key, key: key === 'Space' ? ' ' : key });
      await tick();
    }
    await waitFor(() =>
      expect(Array.from(document.querySelectorAll('.audio-merge-filename'), (e) => e.textContent)).toEqual([
        'charlie.ogg',
        'alpha.wav',
        'bravo.mp3',
      ]),
    );

    await pressMake();
    expect(window.scrollTo).toHaveBeenCalledWith(0, 0);
    expect(document.querySelector('.audio-merge-progress')).not.toBeNull();
    expect(document.querySelector('.audio-merge-spinner')).not.toBeNull();
    expect(document.querySelector('.audio-merge-row')).toBeNull();
    expect(screen.getByRole('progressbar')).toHaveAttribute('aria-valuenow', '0');
    expect(statusText()).toBe('0%');
    // Focus lands on a named group, so a screen reader says where it is now that the button is gone.
    expect(screen.getByRole('group', { name: 'Merging your files' })).toHaveFocus();
    expect(screen.getByRole('button', { name: 'Cancel merge' })).toBeEnabled();

    expect(io).toHaveBeenCalledWith('http://example.test:6123', {
      path: '/socket.io',
      transports: ['polling', 'websocket'],
      reconnectionDelay: 100,
      reconnectionDelayMax: 10000,
      withCredentials: true,
    });
    expect(sockets[0].emitted).toContainEqual(['subscribe', { channel: CHANNEL, auth: { headers: {} } }]);

    const merge = mergeCall()!;
    expect(merge.init.method).toBe('POST');
    expect(merge.init.credentials).toBe('same-origin');
    expect((merge.init.headers as Record<string, string>)['X-CSRF-TOKEN']).toBe('tok-123');
    const body = merge.body as { items: Array<{ id: string }>; requestId: string };
    expect(body.items.map((i) => i.id)).toEqual(['c', 'a', 'b']);
    expect(body.requestId).toMatch(/^[0-9a-f-]{32,36}$/);
  });

  it("follows only its own merge: another tab's events never move the bar, and it never moves backwards", async () => {
    await renderTool();
    await pressMake();
    const requestId = (mergeCall()!.body as { requestId: string }).requestId;
    const bar = screen.getByRole('progressbar');
    const fill = bar.querySelector<HTMLElement>('.audio-merge-bar-fill')!;

    event({ data: '35', requestId, state: 'running', percent: 35 });
    expect(statusText()).toBe('35%');
    expect(bar).toHaveAttribute('aria-valuenow', '35');
    expect(fill.style.width).toBe('35%');

    event({ data: '90', requestId: 'the-other-tab', state: 'running', percent: 90 });
    event({ data: '5', requestId: 'the-other-tab', state: 'running', percent: 5 });
    event({
      data: 'Could not merge: x.wav is not audio',
      requestId: 'the-other-tab',
      state: 'failed',
      percent: null,
    });
    expect(statusText()).toBe('35%');
    expect(bar).toHaveAttribute('aria-valuenow', '35');

    event({ data: 'Encoding bravo.mp3', requestId, state: 'running', percent: null });
    expect(statusText()).toBe('Encoding bravo.mp3');
    expect(bar).toHaveAttribute('aria-valuenow', '35');

    // Another channel's event is not ours.
    act(() => sockets[0].serverEmit('NewStatus', 'status-channel-app-7-other', { data: '99' }));
    expect(statusText()).toBe('Encoding bravo.mp3');

    event({ data: '20', requestId, state: 'running', percent: 20 });
    expect(fill.style.width).toBe('35%');
    event({ data: '80', requestId, state: 'running', percent: 80 });
    expect(statusText()).toBe('80%');
    expect(fill.style.width).toBe('80%');
  });

  it("says the stage, the file being worked on and the time left, in the page's language", async () => {
    await renderTool();
    await pressMake();
    const requestId = (mergeCall()!.body as { requestId: string }).requestId;
    const stage = () => document.querySelector('.audio-merge-stage')?.textContent ?? null;
    event({
      data: 'Waiting to start',
      requestId,
      state: 'queued',
      percent: null,
      code: 'queued',
      stage: 'waiting',
    });
    expect(stage()).toBeNull();
    event({
      data: '0',
      requestId,
      state: 'running',
      percent: 0,
      stage: 'reading',
      file: 2,
      files: 500,
      secondsLeft: null,
    });
    expect(stage()).toBe('Reading the files · file 2 of 500');
    event({
      data: '41',
      requestId,
      state: 'running',
      percent: 41,
      stage: 'encoding',
      file: 37,
      files: 500,
      secondsLeft: 172,
    });
    expect(statusText()).toBe('41%');
    expect(stage()).toBe('Encoding · file 37 of 500 · about 3 minutes left');
    event({
      data: '60',
      requestId,
      state: 'running',
      percent: 60,
      stage: 'encoding',
      file: 310,
      files: 500,
      secondsLeft: 3900,
    });
    expect(stage()).toBe('Encoding · file 310 of 500 · about 1 hour, 5 minutes left');
    event({
      data: '99',
      requestId,
      state: 'running',
      percent: 99,
      stage: 'storing',
      file: 500,
      files: 500,
      secondsLeft: null,
    });
    expect(stage()).toBe('Storing the result');
    // A failure's file is a name, never taken for a position.
    event({
      data: 'Could not merge: x.wav is not audio',
      requestId,
      state: 'failed',
      percent: null,
      file: 'x.wav',
    });
    expect(stage()).toBeNull();
  });

  it('the answer "success" shows 100% for a moment, then reloads the page', async () => {
    mergeAnswer = () => json('success');
    await renderTool();
    await pressMake();
    await waitFor(() => expect(statusText()).toBe('100%'));
    expect(screen.getByRole('progressbar')).toHaveAttribute('aria-valuenow', '100');
    expect(reload).not.toHaveBeenCalled();
    await waitFor(() => expect(reload).toHaveBeenCalledTimes(1), { timeout: 3000 });
  });

  it('any other answer logs Error and keeps the progress view', async () => {
    mergeAnswer = () => json('queued');
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    await renderTool();
    await pressMake();
    await waitFor(() => expect(errors).toHaveBeenCalledWith('Error', 'queued'));
    expect(reload).not.toHaveBeenCalled();
    expect(document.querySelector('.audio-merge-progress')).not.toBeNull();
    expect(document.querySelector('.audio-merge-row')).toBeNull();
  });

  it('a refused merge logs Error, shows its message and a Reload button, and stays in the progress view', async () => {
    mergeAnswer = () => json({ error: 'Could not merge: notes.txt is not audio (no audio stream)' }, 422);
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    await renderTool();
    await pressMake();
    await waitFor(() =>
      expect(errors).toHaveBeenCalledWith(
        'Error',
        expect.objectContaining({ message: expect.stringMatching(/422/) }),
      ),
    );
    expect(statusText()).toBe('Could not merge: notes.txt is not audio (no audio stream)');
    expect(document.querySelector('.audio-merge-progress')).not.toBeNull();
    expect(document.querySelector('.audio-merge-row')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Cancel merge' })).toBeNull();
    const again = screen.getByRole('button', { name: 'Reload' });
    await waitFor(() => expect(again).toHaveFocus());
    expect(reload).not.toHaveBeenCalled();
    fireEvent.click(again);
    expect(reload).toHaveBeenCalledTimes(1);
  });

  it('a merge lost to a restart ends with the message the server sends when the socket is back', async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    mergeAnswer = () => Promise.reject(new TypeError('Failed to fetch'));
    await renderTool();
    await pressMake();
    const requestId = (mergeCall()!.body as { requestId: string }).requestId;
    await waitFor(() => expect(statusText()).toMatch(/Lost the connection/));
    act(() => sockets[0].serverEmit('disconnect', 'transport close'));
    act(() => sockets[0].serverEmit('connect'));
    event({
      data: 'The server restarted while this merge was running; please press make again',
      requestId,
      state: 'failed',
      percent: 20,
    });
    expect(statusText()).toBe('The server restarted while this merge was running; please press make again');
    expect(screen.getByRole('button', { name: 'Reload' })).toBeInTheDocument();
    expect(errors).toHaveBeenCalledWith('Error', expect.any(TypeError));
  });

  it('an expired session says "This page has expired; reload to start again"', async () => {
    mergeAnswer = () => json({ error: 'No session: load the page first', code: 'noSession' }, 403);
    vi.spyOn(console, 'error').mockImplementation(() => {});
    await renderTool();
    await pressMake();
    await waitFor(() => expect(statusText()).toBe(EXPIRED));
    expect(screen.getByRole('button', { name: 'Reload' })).toBeInTheDocument();
  });

  it("cancel posts this merge's requestId, then shows the list again in place, saying so", async () => {
    await renderTool();
    await pressMake();
    const requestId = (mergeCall()!.body as { requestId: string }).requestId;
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Cancel merge' })));
    const said = await screen.findByText('The merge was cancelled.');
    expect(reload).not.toHaveBeenCalled();
    const cancel = f.calls.find((c) => c.url === '/app/merge/cancel')!;
    expect(cancel.body).toEqual({ requestId });
    expect((cancel.init.headers as Record<string, string>)['X-CSRF-TOKEN']).toBe('tok-123');

    // Said politely, above the rows, until the person's next action.
    expect(said.closest('[role="status"]')).not.toBeNull();
    expect(said.compareDocumentPosition(screen.getAllByRole('listitem')[0])).toBe(
      Node.DOCUMENT_POSITION_FOLLOWING,
    );
    fireEvent.click(screen.getByRole('button', { name: 'Remove bravo.mp3' }));
    expect(screen.queryByText('The merge was cancelled.')).toBeNull();
  });
});

describe('a merge found on load', () => {
  it('shows the running merge instead of the list, and reloads when it succeeds', async () => {
    statusAnswer = () => json({ requestId: 'from-before', state: 'running', percent: 42, text: '42' });
    render(<AudioMergeTool appid="app-7" sid="sid-1" port="6123" makeLabel="Make MP3" title="T" />);
    await waitFor(() => expect(document.querySelector('.audio-merge-progress')).not.toBeNull());
    expect(f.calls.find((c) => c.url === '/app/merge/status')!.init.method).toBe('GET');
    expect(statusText()).toBe('42%');
    expect(document.querySelector('.audio-merge-row')).toBeNull();
    await waitFor(() =>
      expect(sockets[0]?.emitted).toContainEqual(['subscribe', { channel: CHANNEL, auth: { headers: {} } }]),
    );
    event({ data: '70', requestId: 'from-before', state: 'running', percent: 70 });
    expect(statusText()).toBe('70%');
    event({ data: '100', requestId: 'from-before', state: 'succeeded', percent: 100 });
    expect(statusText()).toBe('100%');
    await waitFor(() => expect(reload).toHaveBeenCalledTimes(1), { timeout: 3000 });
    expect(mergeCall()).toBeUndefined();
  });

  it('a merge that already ended leaves the list', async () => {
    statusAnswer = () => json({ requestId: 'x', state: 'failed', percent: 30, text: 'It failed' });
    await renderTool();
    await waitFor(() => expect(f.calls.some((c) => c.url === '/app/merge/status')).toBe(true));
    expect(document.querySelector('.audio-merge-progress')).toBeNull();
    expect(screen.getByRole('button', { name: 'Make MP3' })).toBeEnabled();
  });
});

describe('the output choice', () => {
  it('with one format offered shows no choice and posts no options, as before', async () => {
    await renderTool();
    expect(screen.queryByLabelText('Format')).toBeNull();
    await pressMake();
    const call = f.calls.find((c) => c.url === '/app/merge/mergemp3')!;
    expect(Object.keys(call.body as object)).toEqual(['items', 'requestId']);
  });

  it('with several formats offered, posts the chosen format and the chapters switch beside the items', async () => {
    render(
      <AudioMergeTool
        appid="app-7"
        sid="sid-1"
        port="6123"
        makeLabel="Make MP3"
        title="T"
        formats={['mp3', 'm4b', 'flac']}
      />,
    );
    await screen.findByText('alpha.wav');
    const select = screen.getByLabelText('Format') as HTMLSelectElement;
    expect(Array.from(select.options, (o) => o.value)).toEqual(['mp3', 'm4b', 'flac']);
    fireEvent.change(select, { target: { value: 'm4b' } });
    fireEvent.click(screen.getByLabelText('Chapters'));
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Make MP3' })));
    await waitFor(() => expect(mergeCall()).toBeDefined());
    const call = f.calls.find((c) => c.url === '/app/merge/mergemp3')!;
    expect((call.body as { options: unknown }).options).toEqual({ format: 'm4b', chapters: false });
  });
});
