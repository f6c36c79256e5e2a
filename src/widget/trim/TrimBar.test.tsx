// @vitest-environment jsdom
// Trimming a row as a person does it, in the whole widget: the two sliders, the keys, the kept
// length on the waveform's line, the reset, and the span saved with saveItem once the handle rests.
import '@testing-library/jest-dom/vitest';
import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { AudioMergeTool } from '../components/AudioMergeTool.js';
import { fakeFetch, FakeSocket, item, json } from '../../../test/support/widget-fakes.js';
import { onWidgetPage } from '../../../test/support/widget-page.js';
import { SAVE_DELAY_MS } from './trim-actions.js';

vi.mock('socket.io-client', () => ({ io: vi.fn(() => new FakeSocket()) }));

let f: ReturnType<typeof fakeFetch>;
onWidgetPage();

beforeEach(() => {
  f = fakeFetch({
    '/app/merge/getDataJson': () =>
      json([
        item('a', 'alpha.wav', { duration: 10, format: 'wav', start: 2, end: null }),
        item('b', 'bravo.mp3'),
      ]),
    '/app/merge/status': () => json({ state: 'none' }),
    '/app/merge/saveItem': () => json({ ok: true }),
  });
  vi.stubGlobal('fetch', f.fn);
});

async function renderTool() {
  render(<AudioMergeTool appid="app-7" sid="sid-1" port="6123" makeLabel="Make MP3" title="Order them" />);
  await screen.findByText('alpha.wav');
}
const saves = () => f.calls.filter((c) => c.url === '/app/merge/saveItem').map((c) => c.body);
const wait = (ms: number) => act(() => new Promise((r) => setTimeout(r, ms)));

describe('trimming a row', () => {
  it('shows two sliders in seconds on a row with a duration, none on a row without one', async () => {
    await renderTool();
    const [start, end] = screen.getAllByRole('slider');
    expect(screen.getAllByRole('slider')).toHaveLength(2);
    expect(start).toHaveClass('audio-merge-trim-start');
    expect(end).toHaveClass('audio-merge-trim-end');
    expect(start).toHaveAttribute('aria-valuenow', '2');
    expect(start).toHaveAttribute('aria-valuetext', '2 seconds');
    expect(end).toHaveAttribute('aria-valuenow', '10');
    expect(document.querySelectorAll('.audio-merge-waveform')).toHaveLength(1);
    // The kept length on the waveform's line in place of the file's length (the whole sentence
    // for a screen reader), and a way back to the whole file.
    const mark = document.querySelector('.audio-merge-kept')!;
    expect(mark).not.toHaveClass('audio-merge-slot-idle');
    expect(mark.querySelector('.audio-merge-kept-length')).toHaveTextContent(/^0:08\.0$/);
    expect(mark).toHaveAttribute('title', '0:08.0 kept of 0:10.0');
    expect(screen.getByText('0:08.0 kept of 0:10.0')).toHaveClass('audio-merge-visually-hidden');
    expect(document.querySelector('.audio-merge-meta')).toHaveClass('audio-merge-slot-idle');
    expect(document.querySelector('.audio-merge-meta')).toHaveAttribute('aria-hidden', 'true');
    expect(screen.getByRole('button', { name: 'Keep all of alpha.wav' })).toHaveAttribute(
      'title',
      'Keep all of alpha.wav',
    );
  });

  it('moves by the keys and saves the latest span once the handle rests', async () => {
    await renderTool();
    const [start, end] = screen.getAllByRole('slider');
    fireEvent.keyDown(start, { key: 'ArrowRight' });
    fireEvent.keyDown(start, { key: 'PageUp' });
    expect(start).toHaveAttribute('aria-valuenow', '3.1');
    fireEvent.keyDown(end, { key: 'PageDown' });
    fireEvent.keyDown(end, { key: 'ArrowLeft' });
    expect(end).toHaveAttribute('aria-valuenow', '8.9');
    expect(end).toHaveAttribute('aria-valuetext', '8.9 seconds');
    expect(saves()).toEqual([]);
    await wait(SAVE_DELAY_MS + 50);
    expect(saves()).toEqual([{ id: 'a', start: 3.1, end: 8.9 }]);
    fireEvent.keyDown(start, { key: 'Home' });
    fireEvent.keyDown(end, { key: 'End' });
    expect(start).toHaveAttribute('aria-valuenow', '0');
    await wait(SAVE_DELAY_MS + 50);
    expect(saves().at(-1)).toEqual({ id: 'a', start: null, end: null });
    expect(document.querySelector('.audio-merge-kept')).toHaveClass('audio-merge-slot-idle');
    expect(document.querySelector('.audio-merge-kept')).toHaveAttribute('aria-hidden', 'true');
    expect(document.querySelector('.audio-merge-meta')).not.toHaveClass('audio-merge-slot-idle');
    expect(screen.queryByRole('button', { name: 'Keep all of alpha.wav' })).toBeNull();
  });

  it('resets to the whole file at once', async () => {
    await renderTool();
    fireEvent.click(screen.getByRole('button', { name: 'Keep all of alpha.wav' }));
    await waitFor(() => expect(saves()).toEqual([{ id: 'a', start: null, end: null }]));
    expect(screen.getAllByRole('slider')[0]).toHaveAttribute('aria-valuenow', '0');
  });
});
