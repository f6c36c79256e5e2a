// @vitest-environment jsdom
// The list view as a person uses it: rows, dragging by the row, the keyboard, removing and undoing.
import '@testing-library/jest-dom/vitest';
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { AudioMergeTool } from './AudioMergeTool.js';
import { fakeFetch, FakeSocket, item, json, stackRows } from '../../../test/support/widget-fakes.js';
import { onWidgetPage } from '../../../test/support/widget-page.js';

vi.mock('socket.io-client', () => ({ io: vi.fn(() => new FakeSocket()) }));

const four = [
  item('a', 'alpha.wav', { duration: 65, format: 'wav' }),
  item('b', 'bravo.mp3'),
  item('c', 'charlie.ogg'),
  item('d', 'delta.flac'),
];
let f: ReturnType<typeof fakeFetch>;
let deleteAnswer: () => Response;

onWidgetPage();

beforeEach(() => {
  deleteAnswer = () => json({ ok: true });
  f = fakeFetch({
    '/app/merge/getDataJson': () => json(four),
    '/app/merge/status': () => json({ state: 'none' }),
    '/app/merge/saveOrder': () => json({ ok: true }),
    '/app/merge/deleteItem': () => deleteAnswer(),
  });
  vi.stubGlobal('fetch', f.fn);
});

async function renderTool(undoMs = 5000) {
  render(
    <AudioMergeTool
      appid="app-7"
      sid="sid-1"
      port="6123"
      makeLabel="Make MP3"
      title="Drag the files into the order you want"
      storeDeps={{ undoMs }}
    />,
  );
  await screen.findByText('alpha.wav');
}

const names = () =>
  Array.from(document.querySelectorAll('.audio-merge-row .audio-merge-filename'), (e) => e.textContent);
const positions = () =>
  Array.from(document.querySelectorAll('.audio-merge-row .audio-merge-position'), (e) => e.textContent);
const calls = (url: string) => f.calls.filter((c) => c.url === url);
const tick = () => act(() => new Promise((r) => setTimeout(r, 0)));

async function keys(target: HTMLElement, sequence: string[]) {
  for (const key of sequence) {
    fireEvent.keyDown(document.activeElement ?? target, { code: key, key: key === 'Space' ? ' ' : key });
    await tick();
  }
}

/** A mouse drag as dnd-kit's pointer sensor sees it: down, moves of `steps` px, up. */
async function drag(from: Element, dy: number, at = { x: 100, y: 0 }) {
  const start = { clientX: at.x, clientY: at.y, isPrimary: true, button: 0, pointerId: 1 };
  fireEvent.pointerDown(from, start);
  for (let moved = 0; Math.abs(moved) < Math.abs(dy);) {
    moved += Math.sign(dy) * Math.min(10, Math.abs(dy) - Math.abs(moved));
    fireEvent.pointerMove(document, { ...start, clientY: at.y + moved });
    await tick();
  }
  fireEvent.pointerUp(document, { ...start, clientY: at.y + dy });
  await tick();
}

describe('the list view', () => {
  it('shows one row per item with player, position, file name and a remove button, and a one-line hint', async () => {
    await renderTool();
    expect(names()).toEqual(['alpha.wav', 'bravo.mp3', 'charlie.ogg', 'delta.flac']);
    expect(positions()).toEqual(['1', '2', '3', '4']);
    const player = screen.getByLabelText('Play alpha.wav') as HTMLAudioElement;
    expect(player.tagName).toBe('AUDIO');
    expect(player.getAttribute('preload')).toBe('metadata');
    expect(player.getAttribute('src')).toBe('/upload/sid-1/stored-a.wav');
    const first = screen.getByRole('listitem', { name: /alpha\.wav/ });
    expect(within(first).getByText('1:05 · WAV')).toBeInTheDocument();
    // The remove control sits inside the row and is a real button a keyboard reaches.
    expect(within(first).getByRole('button', { name: 'Remove alpha.wav' })).toHaveAttribute('type', 'button');
    const hint = document.querySelector<HTMLElement>('.audio-merge-hint')!;
    expect(hint).toBeVisible();
    expect(hint.textContent).toBe(
      'Drag a row to move it, or press Space on it, then ↑ ↓ Home End, and Space to drop.',
    );
    expect(first.getAttribute('aria-describedby')).toContain(hint.id);
  });

  it('an audiobook (.m4b, probed as m4a) reads M4B on its row; an .m4a stays M4A', async () => {
    f = fakeFetch({
      '/app/merge/getDataJson': () =>
        json([
          item('a', 'Book One.M4B', { duration: 101.74, format: 'm4a' }),
          item('b', 'song.m4a', { duration: 5, format: 'm4a' }),
        ]),
    });
    vi.stubGlobal('fetch', f.fn);
    render(<AudioMergeTool appid="app-7" sid="sid-1" port="6123" makeLabel="Make MP3" title="T" />);
    const book = await screen.findByRole('listitem', { name: /Book One\.M4B/ });
    expect(within(book).getByText('1:41 · M4B')).toBeInTheDocument();
    const song = screen.getByRole('listitem', { name: /song\.m4a/ });
    expect(within(song).getByText('0:05 · M4A')).toBeInTheDocument();
  });

  it('while loading it says so, and a failed load says it failed instead of "Nothing to merge yet"', async () => {
    let answer!: (r: Response) => void;
    f = fakeFetch({
      '/app/merge/getDataJson': () => new Promise((r) => (answer = r)),
      '/app/merge/status': () => json({ state: 'none' }),
    });
    vi.stubGlobal('fetch', f.fn);
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    render(<AudioMergeTool appid="app-7" sid="sid-1" port="6123" makeLabel="Make MP3" title="T" />);
    expect(screen.getByText('Loading your files…')).toBeInTheDocument();
    await act(async () => answer(json({ error: 'Something went wrong on the server' }, 500)));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Your files could not be loaded: Something went wrong on the server',
    );
    expect(screen.queryByText(/Nothing to merge yet/)).toBeNull();
    expect(errors).toHaveBeenCalledWith('Error', expect.any(Error));
    expect(screen.getByRole('button', { name: 'Make MP3' })).toBeDisabled();
  });

  it('an empty list says so and cannot be made', async () => {
    f = fakeFetch({
      '/app/merge/getDataJson': () => json([]),
      '/app/merge/status': () => json({ state: 'none' }),
    });
    vi.stubGlobal('fetch', f.fn);
    render(<AudioMergeTool appid="app-7" sid="sid-1" port="6123" makeLabel="Make MP3" title="T" />);
    expect(await screen.findByText(/Nothing to merge yet/)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Make MP3' })).toBeDisabled();
  });

  it('an expired session says so, with a reload button', async () => {
    f = fakeFetch({
      '/app/merge/getDataJson': () =>
        json({ error: 'No session: load the page first', code: 'noSession' }, 403),
    });
    vi.stubGlobal('fetch', f.fn);
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const reload = vi.fn();
    vi.stubGlobal('location', { ...window.location, reload });
    render(<AudioMergeTool appid="app-7" sid="sid-1" port="6123" makeLabel="Make MP3" title="T" />);
    expect(await screen.findByText('This page has expired; reload to start again')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Reload' }));
    expect(reload).toHaveBeenCalledTimes(1);
  });
});

describe('dragging', () => {
  it('a drag by the file name moves the row, and the order is saved', async () => {
    stackRows();
    await renderTool();
    const name = screen.getByText('alpha.wav');
    // From the middle of the first row (y 60) to below the middle of the third (y 330).
    await drag(name, 270, { x: 100, y: 60 });
    await waitFor(() => expect(names()).toEqual(['bravo.mp3', 'charlie.ogg', 'alpha.wav', 'delta.flac']));
    await waitFor(() => expect(calls('/app/merge/saveOrder')).toHaveLength(1));
    expect(calls('/app/merge/saveOrder')[0].body).toEqual({ appid: 'app-7', ids: ['b', 'c', 'a', 'd'] });
  });

  it('a press that travels less than 5 px is not a drag', async () => {
    stackRows();
    await renderTool();
    await drag(screen.getByText('alpha.wav'), 4, { x: 100, y: 60 });
    expect(document.querySelector('.audio-merge-row--lifted')).toBeNull();
    expect(names()).toEqual(['alpha.wav', 'bravo.mp3', 'charlie.ogg', 'delta.flac']);
  });

  it("the player's own controls and the remove button never start a drag", async () => {
    stackRows();
    await renderTool();
    await drag(screen.getByLabelText('Play alpha.wav'), 270, { x: 100, y: 100 });
    await drag(screen.getByRole('button', { name: 'Remove bravo.mp3' }), 200, { x: 300, y: 140 });
    expect(names()).toEqual(['alpha.wav', 'bravo.mp3', 'charlie.ogg', 'delta.flac']);
    expect(calls('/app/merge/saveOrder')).toHaveLength(0);
  });

  it('reorders with the keyboard: Space lifts, ArrowDown moves, Space drops; spoken by name', async () => {
    stackRows();
    await renderTool();
    const row = screen.getByRole('listitem', { name: /alpha\.wav/ });
    row.focus();
    await keys(row, ['Space', 'ArrowDown', 'Space']);
    await waitFor(() => expect(names()).toEqual(['bravo.mp3', 'alpha.wav', 'charlie.ogg', 'delta.flac']));
    expect(positions()).toEqual(['1', '2', '3', '4']);
    expect(document.body.textContent).toMatch(/alpha\.wav was dropped at position 2 of 4/);
    await waitFor(() =>
      expect(calls('/app/merge/saveOrder').at(-1)?.body).toEqual({
        appid: 'app-7',
        ids: ['b', 'a', 'c', 'd'],
      }),
    );
  });

  it('End moves a lifted row to the bottom, Home to the top', async () => {
    stackRows();
    await renderTool();
    const row = screen.getByRole('listitem', { name: /bravo\.mp3/ });
    row.focus();
    await keys(row, ['Space', 'End', 'Space']);
    await waitFor(() => expect(names()).toEqual(['alpha.wav', 'charlie.ogg', 'delta.flac', 'bravo.mp3']));
    const last = screen.getByRole('listitem', { name: /charlie\.ogg/ });
    last.focus();
    await keys(last, ['Space', 'Home', 'Space']);
    await waitFor(() => expect(names()).toEqual(['charlie.ogg', 'alpha.wav', 'delta.flac', 'bravo.mp3']));
  });

  it('Space inside a player does not lift the row', async () => {
    await renderTool();
    fireEvent.keyDown(screen.getByLabelText('Play bravo.mp3'), { code: 'Space', key: ' ' });
    await tick();
    expect(document.querySelector('.audio-merge-row--lifted')).toBeNull();
    expect(document.body.textContent).not.toMatch(/Picked up/);
  });
});

describe('removing a row', () => {
  it('by keyboard: the row goes at once, focus moves to the next row, the delete is sent after the undo window', async () => {
    const user = userEvent.setup();
    await renderTool(300);
    const button = screen.getByRole('button', { name: 'Remove bravo.mp3' });
    button.focus();
    await user.keyboard('{Enter}');
    expect(names()).toEqual(['alpha.wav', 'charlie.ogg', 'delta.flac']);
    expect(positions()).toEqual(['1', '2', '3']);
    expect(document.querySelector('.audio-merge-removals')).toHaveTextContent('Removed bravo.mp3.');
    await waitFor(() => expect(screen.getByRole('listitem', { name: /charlie\.ogg/ })).toHaveFocus());
    expect(calls('/app/merge/deleteItem')).toHaveLength(0);
    await waitFor(() => expect(calls('/app/merge/deleteItem')).toHaveLength(1));
    const del = calls('/app/merge/deleteItem')[0];
    expect(del.body).toEqual({ id: 'b' });
    expect(del.init.method).toBe('POST');
    expect((del.init.headers as Record<string, string>)['X-CSRF-TOKEN']).toBe('tok-123');
    await waitFor(() => expect(screen.queryByText('Removed bravo.mp3.')).toBeNull());
  });

  it('by mouse, then Undo: the row is back where it was and nothing is deleted', async () => {
    await renderTool(200);
    vi.useFakeTimers();
    try {
      fireEvent.click(screen.getByRole('button', { name: 'Remove alpha.wav' }));
      expect(names()).toEqual(['bravo.mp3', 'charlie.ogg', 'delta.flac']);
      fireEvent.click(screen.getByRole('button', { name: 'Undo removing alpha.wav' }));
      expect(names()).toEqual(['alpha.wav', 'bravo.mp3', 'charlie.ogg', 'delta.flac']);
      // Well past the undo window: the removal it would have committed never comes.
      await act(() => vi.advanceTimersByTimeAsync(10 * 200));
      expect(calls('/app/merge/deleteItem')).toHaveLength(0);
    } finally {
      vi.useRealTimers();
    }
  });

  it("a double click on one × removes that row only, though the next row's × slid under it", async () => {
    await renderTool();
    const now = vi.spyOn(performance, 'now');
    now.mockReturnValue(1000);
    fireEvent.click(screen.getByRole('button', { name: 'Remove bravo.mp3' }), { detail: 1 });
    now.mockReturnValue(1200);
    fireEvent.click(screen.getByRole('button', { name: 'Remove charlie.ogg' }), { detail: 2 });
    expect(names()).toEqual(['alpha.wav', 'charlie.ogg', 'delta.flac']);
    // A click of its own, later, removes it; so does a key at any time.
    now.mockReturnValue(2000);
    fireEvent.click(screen.getByRole('button', { name: 'Remove charlie.ogg' }), { detail: 1 });
    fireEvent.click(screen.getByRole('button', { name: 'Remove delta.flac' }), { detail: 0 });
    expect(names()).toEqual(['alpha.wav']);
  });

  it('the undo line stays while focus is on it, and runs its window again once focus leaves', async () => {
    await renderTool(200);
    vi.useFakeTimers();
    try {
      fireEvent.click(screen.getByRole('button', { name: 'Remove alpha.wav' }));
      await act(() => vi.advanceTimersByTimeAsync(0)); // focus goes to the next row, then to Undo
      const undo = screen.getByRole('button', { name: 'Undo removing alpha.wav' });
      act(() => undo.focus());
      await act(() => vi.advanceTimersByTimeAsync(10 * 200));
      expect(calls('/app/merge/deleteItem')).toHaveLength(0);
      expect(document.querySelector('.audio-merge-removals')).toHaveTextContent('Removed alpha.wav.');
      act(() => undo.blur());
      await act(() => vi.advanceTimersByTimeAsync(200));
      expect(calls('/app/merge/deleteItem')).toHaveLength(1);
    } finally {
      vi.useRealTimers();
    }
  });

  it('a delete the server refuses brings the row back and says why', async () => {
    deleteAnswer = () => json({ error: 'Something went wrong on the server' }, 500);
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const user = userEvent.setup();
    await renderTool(50);
    await user.click(screen.getByRole('button', { name: 'Remove delta.flac' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'delta.flac could not be removed: Something went wrong on the server',
    );
    expect(names()).toEqual(['alpha.wav', 'bravo.mp3', 'charlie.ogg', 'delta.flac']);
  });
});
