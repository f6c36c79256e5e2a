// @vitest-environment jsdom
// The sound options panel through the widget's HTTP layer: collapsed at first, opened by its
// button, and what mergemp3 then carries (only what was set), refusals in the widget and from the server.
import '@testing-library/jest-dom/vitest';
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { OutputFormat } from '../../shared/output-formats.js';
import type { AudioItem } from '../../shared/types.js';
import { fakeFetch, FakeSocket, item, json } from '../../../test/support/widget-fakes.js';
import { onWidgetPage } from '../../../test/support/widget-page.js';
import { AudioMergeTool } from './AudioMergeTool.js';

vi.mock('socket.io-client', () => ({ io: vi.fn(() => new FakeSocket()) }));

const stereo = [item('a', 'alpha.wav', { channels: 2 }), item('b', 'bravo.mp3', { channels: 2 })];
const mono = [item('a', 'alpha.wav', { channels: 1 }), item('b', 'bravo.mp3', { channels: 1 })];

let items: AudioItem[];
let mergeAnswer: () => Response | Promise<Response>;
let f: ReturnType<typeof fakeFetch>;

onWidgetPage();

beforeEach(() => {
  vi.stubGlobal('location', {
    ...window.location,
    protocol: 'http:',
    hostname: 'example.test',
    reload: vi.fn(),
  });
  vi.spyOn(window, 'scrollTo').mockImplementation(() => {});
  items = stereo;
  mergeAnswer = () => new Promise<Response>(() => {});
  f = fakeFetch({ '/app/merge/getDataJson': () => json(items), '/app/merge/mergemp3': () => mergeAnswer() });
  vi.stubGlobal('fetch', f.fn);
});

async function renderTool(props: { formats?: OutputFormat[]; sound?: boolean } = { sound: true }) {
  render(<AudioMergeTool appid="app-7" sid="sid-1" port="6123" makeLabel="Make MP3" title="T" {...props} />);
  await screen.findByText('alpha.wav');
}

const toggle = () => screen.getByRole('button', { name: /^Sound options/ });
const panel = () => screen.queryByRole('group', { name: 'Sound options' });
const mergeCall = () => f.calls.find((c) => c.url === '/app/merge/mergemp3');
const sentOptions = () => (mergeCall()!.body as { options?: unknown }).options;

async function open() {
  fireEvent.click(toggle());
  await waitFor(() => expect(panel()).not.toBeNull());
}

async function pressMake(name = 'Make MP3') {
  await act(async () => fireEvent.click(screen.getByRole('button', { name })));
}

async function make(name = 'Make MP3') {
  await pressMake(name);
  await waitFor(() => expect(mergeCall()).toBeDefined());
}

const seconds = () => screen.getByLabelText('Seconds') as HTMLInputElement;

describe('the sound options panel', () => {
  it('is collapsed by default and opens and closes from the keyboard, saying so with aria-expanded', async () => {
    const user = userEvent.setup();
    await renderTool();
    expect(toggle()).toHaveAttribute('aria-expanded', 'false');
    expect(panel()).toBeNull();
    // Reachable by Tab: past the rows, the toggle comes before make.
    for (let i = 0; i < 20 && document.activeElement !== toggle(); i++) await user.tab();
    expect(toggle()).toHaveFocus();
    await user.keyboard('{Enter}');
    expect(toggle()).toHaveAttribute('aria-expanded', 'true');
    expect(panel()).toHaveAttribute('id', toggle().getAttribute('aria-controls'));
    for (const name of ['Match loudness', 'Trim silence', 'Gapless'])
      expect(screen.getByRole('switch', { name })).not.toBeChecked();
    expect(screen.getByRole('radio', { name: 'Nothing' })).toBeChecked();
    // Each option says in plain words what it does.
    expect(screen.getByRole('switch', { name: 'Trim silence' })).toHaveAccessibleDescription(
      'Cuts the dead air at the start and the end of each file.',
    );
    await user.keyboard(' ');
    expect(toggle()).toHaveAttribute('aria-expanded', 'false');
    expect(panel()).toBeNull();
  });

  it('is not offered with one format and no data-sound, and is offered with several formats', async () => {
    await renderTool({});
    expect(screen.queryByRole('button', { name: /^Sound options/ })).toBeNull();
    cleanup();
    await renderTool({ formats: ['mp3', 'm4b'] });
    expect(toggle()).toBeInTheDocument();
  });

  it('with nothing set posts exactly the request of before (no options)', async () => {
    await renderTool();
    await open();
    await make();
    expect(Object.keys(mergeCall()!.body as object)).toEqual(['items', 'requestId']);
  });

  it('posts exactly the options chosen: loudness, a gap with its length, trimming, gapless', async () => {
    await renderTool();
    await open();
    fireEvent.click(screen.getByRole('switch', { name: 'Match loudness' }));
    fireEvent.click(screen.getByRole('radio', { name: 'Silence' }));
    fireEvent.change(seconds(), { target: { value: '1.5' } });
    fireEvent.click(screen.getByRole('switch', { name: 'Trim silence' }));
    fireEvent.click(screen.getByRole('switch', { name: 'Gapless' }));
    await make();
    expect(sentOptions()).toEqual({ loudness: -16, gap: 1.5, trimSilence: true, gapless: true });
  });

  it('a gap and a crossfade are one choice: choosing the crossfade sends only it, beside the format', async () => {
    await renderTool({ formats: ['mp3', 'm4b'] });
    await open();
    fireEvent.click(screen.getByRole('radio', { name: 'Silence' }));
    fireEvent.click(screen.getByRole('radio', { name: 'Crossfade' }));
    expect(screen.getByRole('radio', { name: 'Silence' })).not.toBeChecked();
    fireEvent.change(seconds(), { target: { value: '3' } });
    await make();
    expect(sentOptions()).toEqual({ format: 'mp3', chapters: true, crossfade: 3 });
  });

  it('choices survive closing the panel', async () => {
    await renderTool();
    await open();
    fireEvent.click(screen.getByRole('switch', { name: 'Gapless' }));
    fireEvent.click(toggle());
    // The closed panel says something in it is on, in the name a person hears and sees.
    expect(toggle()).toHaveAccessibleName('Sound options 1 on');
    await make();
    expect(sentOptions()).toEqual({ gapless: true });
  });

  it.each([
    ['Silence', '-2', 'The silence between files must be a number of seconds above 0 and at most 60.'],
    ['Silence', '0', 'The silence between files must be a number of seconds above 0 and at most 60.'],
    ['Crossfade', '500', 'The crossfade must be a number of seconds above 0 and at most 30.'],
    ['Crossfade', '', 'The crossfade must be a number of seconds above 0 and at most 30.'],
  ])(
    'refuses a bad length (%s of "%s") with a message, and asks nothing of the server',
    async (between, typed, message) => {
      await renderTool();
      await open();
      fireEvent.click(screen.getByRole('radio', { name: between }));
      fireEvent.change(seconds(), { target: { value: typed } });
      expect(await screen.findByRole('alert')).toHaveTextContent(message);
      expect(seconds()).toHaveAttribute('aria-invalid', 'true');
      expect(seconds()).toHaveAccessibleDescription(message);
      await pressMake();
      await waitFor(() => expect(seconds()).toHaveFocus());
      expect(mergeCall()).toBeUndefined();
      expect(document.querySelector('.audio-merge-progress')).toBeNull();
    },
  );

  it('the loudness target is -16 LUFS for stereo files and -19 when every file is mono; the person may pick', async () => {
    items = mono;
    await renderTool();
    await open();
    fireEvent.click(screen.getByRole('switch', { name: 'Match loudness' }));
    const target = screen.getByLabelText('Loudness target') as HTMLSelectElement;
    expect(target.value).toBe('-19');
    expect(target.selectedOptions[0]).toHaveTextContent('-19 LUFS (mono speech)');
    await make();
    expect(sentOptions()).toEqual({ loudness: -19 });

    cleanup();
    f.calls.length = 0;
    items = [stereo[0], mono[1]];
    await renderTool();
    await open();
    fireEvent.click(screen.getByRole('switch', { name: 'Match loudness' }));
    expect((screen.getByLabelText('Loudness target') as HTMLSelectElement).value).toBe('-16');
    fireEvent.change(screen.getByLabelText('Loudness target'), { target: { value: '-19' } });
    await make();
    expect(sentOptions()).toEqual({ loudness: -19 });
  });

  it("shows the server's refusal naming the option, not swallowed", async () => {
    mergeAnswer = () => json({ error: 'Option "gap" must be seconds from 0 to 60', code: 'badOption' }, 400);
    vi.spyOn(console, 'error').mockImplementation(() => {});
    await renderTool();
    await open();
    fireEvent.click(screen.getByRole('radio', { name: 'Silence' }));
    await make();
    await waitFor(() =>
      expect(document.querySelector('.audio-merge-status')).toHaveTextContent(
        'Option "gap" must be seconds from 0 to 60',
      ),
    );
    expect(screen.getByRole('button', { name: 'Reload' })).toBeInTheDocument();
  });
});

describe('the make button', () => {
  it('keeps the host label as its text and says beside it which other format it makes', async () => {
    await renderTool({ formats: ['mp3', 'm4b', 'flac'] });
    expect(screen.queryByText('Makes M4B')).toBeNull();
    fireEvent.change(screen.getByLabelText('Format'), { target: { value: 'm4b' } });
    const button = screen.getByRole('button', { name: 'Make MP3' });
    expect(button).toHaveAccessibleDescription('Makes M4B');
    expect(screen.getByText('Makes M4B')).toBeVisible();
    await make('Make MP3');
    expect(sentOptions()).toEqual({ format: 'm4b', chapters: true });
  });
});
