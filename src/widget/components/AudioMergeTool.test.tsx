// @vitest-environment jsdom
import '@testing-library/jest-dom/vitest';
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { io } from 'socket.io-client';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AudioMergeTool } from './AudioMergeTool.js';
import { fakeFetch, FakeSocket, item, json } from '../../../test/support/widget-fakes.js';

const sockets: FakeSocket[] = [];
vi.mock('socket.io-client', () => ({
  io: vi.fn(() => {
    const s = new FakeSocket();
    sockets.push(s);
    return s;
  }),
}));

const three = [item('a', 'alpha.wav', { duration: 65, format: 'wav' }), item('b', 'bravo.mp3'), item('c', 'charlie.ogg')];
const CHANNEL = 'status-channel-app-7-sid-1';

let reload: ReturnType<typeof vi.fn>;
let mergeAnswer: () => Response | Promise<Response>;
let f: ReturnType<typeof fakeFetch>;

beforeEach(() => {
  sockets.length = 0;
  document.head.innerHTML = '<meta name="csrf-token" content="tok-123">';
  reload = vi.fn();
  vi.stubGlobal('location', { ...window.location, protocol: 'http:', hostname: 'example.test', reload });
  vi.spyOn(window, 'scrollTo').mockImplementation(() => {});
  mergeAnswer = () => new Promise<Response>(() => {});
  f = fakeFetch({
    '/app/merge/getDataJson': () => json(three),
    '/app/merge/mergemp3': () => mergeAnswer(),
  });
  vi.stubGlobal('fetch', f.fn);
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

async function renderTool() {
  render(<AudioMergeTool appid="app-7" sid="sid-1" port="6123" makeLabel="Make MP3" title="Drag the files into the order you want" />);
  await screen.findByText('alpha.wav');
}

const visibleOrder = () =>
  Array.from(document.querySelectorAll('.audio-merge-row')).map(
    (r) => `${r.querySelector('.audio-merge-position')!.textContent} ${r.querySelector('.audio-merge-filename')!.textContent}`,
  );

async function pressMake() {
  await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Make MP3' })));
  await waitFor(() => expect(f.calls.some((c) => c.url === '/app/merge/mergemp3')).toBe(true));
}

describe('the list view', () => {
  it('shows one row per item with player, position and file name', async () => {
    await renderTool();
    expect(visibleOrder()).toEqual(['1 alpha.wav', '2 bravo.mp3', '3 charlie.ogg']);
    const player = screen.getByLabelText('Play alpha.wav') as HTMLAudioElement;
    expect(player.tagName).toBe('AUDIO');
    expect(player.getAttribute('preload')).toBe('metadata');
    expect(player.getAttribute('src')).toBe('/upload/sid-1/stored-a.wav');
    expect(player.controls).toBe(true);
    const first = document.querySelector('.audio-merge-row')!;
    expect(within(first as HTMLElement).getByText('1:05 · WAV')).toBeInTheDocument();
  });

  it('reorders with the keyboard: Space lifts, ArrowDown moves, Space drops', async () => {
    // jsdom has no layout; give each row the box it would have, stacked 130 px apart.
    vi.spyOn(Element.prototype, 'getBoundingClientRect').mockImplementation(function (this: Element) {
      const rows = Array.from(document.querySelectorAll('.audio-merge-row'));
      const i = rows.indexOf(this);
      const top = i < 0 ? 0 : i * 130;
      const height = i < 0 ? 400 : 120;
      return { x: 0, y: top, top, left: 0, width: 320, height, right: 320, bottom: top + height, toJSON: () => ({}) } as DOMRect;
    });
    await renderTool();
    const row = screen.getByRole('listitem', { name: /alpha\.wav/ });
    row.focus();
    const tick = () => act(() => new Promise((r) => setTimeout(r, 0)));
    fireEvent.keyDown(row, { code: 'Space', key: ' ' });
    await tick();
    fireEvent.keyDown(document.activeElement ?? row, { code: 'ArrowDown', key: 'ArrowDown' });
    await tick();
    fireEvent.keyDown(document.activeElement ?? row, { code: 'Space', key: ' ' });
    await tick();
    await waitFor(() => expect(visibleOrder()).toEqual(['1 bravo.mp3', '2 alpha.wav', '3 charlie.ogg']));
    // The live region spoke the move by file name.
    expect(document.body.textContent).toMatch(/alpha\.wav was dropped at position 2 of 3/);
  });

  it('Space inside a player does not lift the row', async () => {
    await renderTool();
    const player = screen.getByLabelText('Play bravo.mp3');
    fireEvent.keyDown(player, { code: 'Space', key: ' ' });
    await act(() => new Promise((r) => setTimeout(r, 0)));
    expect(document.querySelector('.audio-merge-row--lifted')).toBeNull();
    expect(document.body.textContent).not.toMatch(/Picked up/);
  });
});

describe('make', () => {
  it('switches to the progress view, scrolls up, subscribes and posts the items in the current order', async () => {
    await renderTool();
    // A reorder first, through the same path a drop takes.
    vi.spyOn(Element.prototype, 'getBoundingClientRect').mockImplementation(function (this: Element) {
      const i = Array.from(document.querySelectorAll('.audio-merge-row')).indexOf(this);
      const top = i < 0 ? 0 : i * 130;
      return { x: 0, y: top, top, left: 0, width: 320, height: i < 0 ? 400 : 120, right: 320, bottom: top + 120, toJSON: () => ({}) } as DOMRect;
    });
    const row = screen.getByRole('listitem', { name: /charlie\.ogg/ });
    row.focus();
    const tick = () => act(() => new Promise((r) => setTimeout(r, 0)));
    fireEvent.keyDown(row, { code: 'Space', key: ' ' });
    await tick();
    fireEvent.keyDown(row, { code: 'ArrowUp', key: 'ArrowUp' });
    await tick();
    fireEvent.keyDown(row, { code: 'ArrowUp', key: 'ArrowUp' });
    await tick();
    fireEvent.keyDown(row, { code: 'Space', key: ' ' });
    await tick();
    await waitFor(() => expect(visibleOrder()).toEqual(['1 charlie.ogg', '2 alpha.wav', '3 bravo.mp3']));

    await pressMake();
    expect(window.scrollTo).toHaveBeenCalledWith(0, 0);
    expect(document.querySelector('.audio-merge-progress')).not.toBeNull();
    expect(document.querySelector('.audio-merge-spinner')).not.toBeNull();
    expect(document.querySelector('.audio-merge-row')).toBeNull();
    expect(screen.getByRole('progressbar')).toHaveAttribute('aria-valuenow', '0');
    expect(document.querySelector('.audio-merge-status')!.textContent).toBe('0%');
    // Focus lands on a named group, so a screen reader says where it is now that the button is gone.
    expect(screen.getByRole('group', { name: 'Merging your files' })).toHaveFocus();

    expect(io).toHaveBeenCalledWith('http://example.test:6123', {
      path: '/socket.io',
      transports: ['polling', 'websocket'],
      reconnectionDelay: 100,
      reconnectionDelayMax: 10000,
      withCredentials: true,
    });
    expect(sockets[0].emitted).toContainEqual(['subscribe', { channel: CHANNEL, auth: { headers: {} } }]);

    const merge = f.calls.find((c) => c.url === '/app/merge/mergemp3')!;
    expect(merge.init.method).toBe('POST');
    expect(merge.init.credentials).toBe('same-origin');
    expect((merge.init.headers as Record<string, string>)['X-CSRF-TOKEN']).toBe('tok-123');
    expect((merge.body as { items: Array<{ id: string }> }).items.map((i) => i.id)).toEqual(['c', 'a', 'b']);
  });

  it('status events replace the text; whole numbers move the bar, messages leave it', async () => {
    await renderTool();
    await pressMake();
    const bar = screen.getByRole('progressbar');
    const fill = bar.querySelector<HTMLElement>('.audio-merge-bar-fill')!;
    const status = () => document.querySelector('.audio-merge-status')!.textContent;

    act(() => sockets[0].serverEmit('NewStatus', CHANNEL, { data: '35' }));
    expect(status()).toBe('35%');
    expect(bar).toHaveAttribute('aria-valuenow', '35');
    expect(fill.style.width).toBe('35%');

    act(() => sockets[0].serverEmit('NewStatus', CHANNEL, { data: 'Encoding bravo.mp3' }));
    expect(status()).toBe('Encoding bravo.mp3');
    expect(bar).toHaveAttribute('aria-valuenow', '35');

    // Another channel's event is not ours.
    act(() => sockets[0].serverEmit('NewStatus', 'status-channel-app-7-other', { data: '99' }));
    expect(status()).toBe('Encoding bravo.mp3');

    act(() => sockets[0].serverEmit('NewStatus', CHANNEL, { data: '80' }));
    expect(status()).toBe('80%');
    expect(fill.style.width).toBe('80%');
  });

  it('the answer "success" reloads the page', async () => {
    mergeAnswer = () => json('success');
    await renderTool();
    await pressMake();
    await waitFor(() => expect(reload).toHaveBeenCalledTimes(1));
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

  it('a failed request logs Error and keeps the progress view', async () => {
    mergeAnswer = () => json({ error: 'item x is not yours' }, 403);
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    await renderTool();
    await pressMake();
    await waitFor(() => expect(errors).toHaveBeenCalledWith('Error', expect.objectContaining({ message: expect.stringMatching(/403/) })));
    expect(reload).not.toHaveBeenCalled();
    expect(document.querySelector('.audio-merge-progress')).not.toBeNull();
  });

  it('with one format offered shows no choice and posts no options, as before', async () => {
    await renderTool();
    expect(screen.queryByLabelText('Format')).toBeNull();
    await pressMake();
    const call = f.calls.find((c) => c.url === '/app/merge/mergemp3')!;
    expect(Object.keys(call.body as object)).toEqual(['items']);
  });

  it('with several formats offered, posts the chosen format and the chapters switch beside the items', async () => {
    render(<AudioMergeTool appid="app-7" sid="sid-1" port="6123" makeLabel="Make MP3" title="T" formats={['mp3', 'm4b', 'flac']} />);
    await screen.findByText('alpha.wav');
    const select = screen.getByLabelText('Format') as HTMLSelectElement;
    expect(Array.from(select.options, (o) => o.value)).toEqual(['mp3', 'm4b', 'flac']);
    fireEvent.change(select, { target: { value: 'm4b' } });
    fireEvent.click(screen.getByLabelText('Chapters'));
    await pressMake();
    const call = f.calls.find((c) => c.url === '/app/merge/mergemp3')!;
    expect((call.body as { options: unknown }).options).toEqual({ format: 'm4b', chapters: false });
  });

  it('an empty list says so and cannot be made', async () => {
    f = fakeFetch({ '/app/merge/getDataJson': () => json([]) });
    vi.stubGlobal('fetch', f.fn);
    render(<AudioMergeTool appid="app-7" sid="sid-1" port="6123" makeLabel="Make MP3" title="T" />);
    await waitFor(() => expect(f.calls).toHaveLength(1));
    expect(await screen.findByText(/Nothing to merge yet/)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Make MP3' })).toBeDisabled();
  });
});
