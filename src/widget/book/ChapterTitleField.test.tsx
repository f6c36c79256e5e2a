// @vitest-environment jsdom
// Each row's chapter title field as a person uses it: the default title as placeholder, typing
// saved, a refusal said on the row, and keys and pointers in the field never moving the row.
import '@testing-library/jest-dom/vitest';
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { AudioMergeTool } from '../components/AudioMergeTool.js';
import { fakeFetch, FakeSocket, item, json } from '../../../test/support/widget-fakes.js';
import { onWidgetPage } from '../../../test/support/widget-page.js';

vi.mock('socket.io-client', () => ({ io: vi.fn(() => new FakeSocket()) }));

const rows = [
  item('a', 'alpha.mp3', { chapterTitle: 'Prologue', defaultChapterTitle: 'Opening credits' }),
  item('b', 'bravo.mp3', { chapterTitle: null, defaultChapterTitle: 'bravo' }),
];
let listed: typeof rows;
let f: ReturnType<typeof fakeFetch>;
let saveAnswer: () => Response;

onWidgetPage();

beforeEach(() => {
  listed = rows;
  saveAnswer = () => json({ ok: true });
  f = fakeFetch({
    '/app/merge/getDataJson': () => json(listed),
    '/app/merge/status': () => json({ state: 'none' }),
    '/app/merge/saveItem': () => saveAnswer(),
  });
  vi.stubGlobal('fetch', f.fn);
});

async function renderTool() {
  render(<AudioMergeTool appid="app-7" sid="sid-1" port="6123" makeLabel="Make MP3" title="T" />);
  await screen.findByText(listed[0].filename);
}
const saves = () => f.calls.filter((c) => c.url === '/app/merge/saveItem').map((c) => c.body);
const names = () =>
  Array.from(document.querySelectorAll('.audio-merge-row .audio-merge-filename'), (e) => e.textContent);
const field = (name: string) => screen.getByRole('textbox', { name: `Chapter title of ${name}` });

describe("a row's chapter title field", () => {
  it('holds the saved title, with the default title as its placeholder', async () => {
    await renderTool();
    expect(field('alpha.mp3')).toHaveValue('Prologue');
    expect(field('alpha.mp3')).toHaveAttribute('placeholder', 'Opening credits');
    expect(field('bravo.mp3')).toHaveValue('');
    expect(field('bravo.mp3')).toHaveAttribute('placeholder', 'bravo');
    expect(field('bravo.mp3')).toHaveClass('audio-merge-chapter-title');
  });

  it("is no result's chapter link: the page underlines those on hover and seeks a player on a click", async () => {
    await renderTool();
    // `.audio-merge-chapter` is the results' chapter button (host page styles, enableChapterSeek).
    expect(field('alpha.mp3').closest('.audio-merge-chapter')).toBeNull();
    expect(document.querySelector('.audio-merge-row .audio-merge-chapter')).toBeNull();
  });

  it('saves what is typed once the typing rests, and null when emptied', async () => {
    await renderTool();
    const user = userEvent.setup();
    await user.type(field('bravo.mp3'), 'Part Two');
    expect(field('bravo.mp3')).toHaveValue('Part Two');
    await waitFor(() => expect(saves()).toEqual([{ id: 'b', chapterTitle: 'Part Two' }]));
    await user.clear(field('alpha.mp3'));
    await waitFor(() => expect(saves()).toContainEqual({ id: 'a', chapterTitle: null }));
    expect(field('alpha.mp3')).toHaveValue('');
  });

  it('typing Space and arrows in it, or pressing on it, never lifts or moves the row', async () => {
    await renderTool();
    const user = userEvent.setup();
    const input = field('alpha.mp3');
    fireEvent.pointerDown(input, { clientX: 100, clientY: 0, isPrimary: true, button: 0, pointerId: 1 });
    for (let y = 10; y <= 200; y += 10)
      fireEvent.pointerMove(document, { clientX: 100, clientY: y, pointerId: 1 });
    fireEvent.pointerUp(document, { clientX: 100, clientY: 200, pointerId: 1 });
    await user.click(input);
    await user.keyboard(' {ArrowDown}{ArrowDown} {End} ');
    await act(() => new Promise((r) => setTimeout(r, 0)));
    expect(document.querySelector('.audio-merge-row--lifted')).toBeNull();
    expect(document.body.textContent).not.toMatch(/Picked up/);
    expect(names()).toEqual(['alpha.mp3', 'bravo.mp3']);
    expect(input).toHaveFocus();
  });

  it("keeps what is pasted to the server's rule: 500 characters counted as code points, no bidirectional controls", async () => {
    await renderTool();
    fireEvent.change(field('bravo.mp3'), { target: { value: `\u202e${'\u{1F3B5}'.repeat(501)}\u2066` } });
    const kept = '\u{1F3B5}'.repeat(500);
    expect(field('bravo.mp3')).toHaveValue(kept);
    await waitFor(() => expect(saves()).toEqual([{ id: 'b', chapterTitle: kept }]));
  });

  it('says on the row, in words, why the server refused a title', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    saveAnswer = () =>
      json(
        {
          error:
            'A chapter title is one line of at most 500 characters, without control or bidirectional control characters',
          code: 'badChapterTitle',
        },
        400,
      );
    await renderTool();
    fireEvent.change(field('bravo.mp3'), { target: { value: 'Bell\u0007' } });
    const row = screen.getByRole('listitem', { name: /bravo\.mp3/ });
    const alert = await within(row).findByRole('alert');
    expect(alert).toHaveTextContent(
      'This chapter title was not saved: A chapter title is one line of at most 500 characters, without control or bidirectional control characters.',
    );
    expect(field('bravo.mp3')).toHaveAttribute('aria-invalid', 'true');
    expect(field('bravo.mp3')).toHaveAccessibleDescription(alert.textContent!);
    saveAnswer = () => json({ ok: true });
    fireEvent.change(field('bravo.mp3'), { target: { value: 'Bells' } });
    await waitFor(() => expect(within(row).queryByRole('alert')).toBeNull());
    expect(field('bravo.mp3')).not.toHaveAttribute('aria-invalid');
  });
});

describe('a row whose file carries chapters of its own', () => {
  const row = (name: string) => screen.getByRole('listitem', { name: new RegExp(name.replace('.', '\\.')) });

  it('says it keeps them, with their count, in place of a title field that would appear nowhere', async () => {
    listed = [
      item('p', 'part.m4b', { chapterTitle: null, defaultChapterTitle: 'Part Book', chapters: 2 }),
      item('q', 'single.mp3', { chapterTitle: 'Typed before', defaultChapterTitle: 'single', chapters: 1 }),
      item('z', 'plain.mp3', { chapterTitle: null, defaultChapterTitle: 'plain', chapters: 0 }),
      // Stored before the server counted chapters: as before, the field.
      item('o', 'older.mp3', { chapterTitle: null, defaultChapterTitle: 'older' }),
    ];
    await renderTool();
    expect(within(row('part.m4b')).getByText('Keeps its 2 chapters')).toHaveAttribute(
      'title',
      'This file carries chapters of its own: the merge keeps them, with their titles, from where the file starts.',
    );
    expect(within(row('single.mp3')).getByText('Keeps its own chapter')).toBeVisible();
    for (const name of ['part.m4b', 'single.mp3']) {
      expect(within(row(name)).queryByRole('textbox')).toBeNull();
      expect(screen.queryByRole('textbox', { name: `Chapter title of ${name}` })).toBeNull();
    }
    expect(document.querySelector('[placeholder="Part Book"]')).toBeNull();
    expect(document.body.textContent).not.toMatch(/Typed before/);
    expect(field('plain.mp3')).toHaveAttribute('placeholder', 'plain');
    expect(field('older.mp3')).toHaveAttribute('placeholder', 'older');
    expect(document.querySelectorAll('.audio-merge-own-chapters')).toHaveLength(2);
  });
});
