// @vitest-environment jsdom
import '@testing-library/jest-dom/vitest';
import { screen, waitFor } from '@testing-library/dom';
import { userEvent } from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../api/http.js';
import { en } from '../i18n/en.js';
import { applyLocale, loadLocale } from '../i18n/locale.js';
import { enhanceResults } from './results.js';

// The markup the host page gives each merged result (src/server/http/host-page.ts).
const result = (
  id: string,
  sources: string[],
  iso: string,
) => `<article class="audio-merge-result" data-result-id="${id}">
  <audio controls preload="metadata" src="/results/SID/${id}.mp3"></audio>
  <p class="audio-merge-result-meta">
    <a class="audio-merge-download" href="/results/SID/${id}.mp3?download=1" download>Download</a>
    <span class="audio-merge-duration">0:12</span><span class="audio-merge-size" data-bytes="194560">0.2 MB</span>
    <time datetime="${iso}">${iso.slice(0, 16).replace('T', ' ')} UTC</time>
  </p>
  <ol class="audio-merge-sources">${sources.map((s) => `<li>${s}</li>`).join('')}</ol>
</article>`;

const page = () => {
  document.body.innerHTML = `<section class="audio-merge-results"><h2>Merged files</h2>${result('r2', ['b.mp3', 'a.wav'], '2026-11-22T01:22:00.000Z')}${result('r1', ['only.wav'], '2026-07-01T16:05:00.000Z')}</section>`;
};

let tz: string | undefined;
beforeEach(() => {
  tz = process.env.TZ;
  process.env.TZ = 'America/New_York';
});
afterEach(() => {
  process.env.TZ = tz;
  if (tz === undefined) delete process.env.TZ;
  document.body.innerHTML = '';
  vi.restoreAllMocks();
  applyLocale('en', en);
});

describe('merged results on the host page', () => {
  it("shows each result's time in the browser's own time zone, summer time included", () => {
    page();
    enhanceResults(document, { deleteResult: vi.fn(), locale: 'en-GB' });
    const times = Array.from(document.querySelectorAll('time'), (t) => t.textContent);
    expect(times).toEqual(['21 Nov 2026, 20:22', '1 Jul 2026, 12:05']);
    expect(
      screen.getByRole('link', { name: 'Download merged MP3 of b.mp3 and 1 more, 21 Nov 2026, 20:22' }),
    ).toBeInTheDocument();
  });

  it("says each result's size in the widget's language, from the bytes the page gives", async () => {
    page();
    applyLocale('de', await loadLocale('de'));
    enhanceResults(document, { deleteResult: vi.fn() });
    expect(Array.from(document.querySelectorAll('.audio-merge-size'), (s) => s.textContent)).toEqual([
      '190 kB',
      '190 kB',
    ]);
    page();
    applyLocale('ar', await loadLocale('ar'));
    enhanceResults(document, { deleteResult: vi.fn() });
    expect(document.querySelector('.audio-merge-size')?.textContent).toBe('190 كيلوبايت');
  });

  it('a delete button removes the result on the server and from the page', async () => {
    page();
    const deleteResult = vi.fn(async (_id: string) => {});
    enhanceResults(document, { deleteResult, locale: 'en-GB' });
    const user = userEvent.setup();
    await user.click(
      screen.getByRole('button', { name: 'Delete merged MP3 of b.mp3 and 1 more, 21 Nov 2026, 20:22' }),
    );
    expect(deleteResult).toHaveBeenCalledWith('r2');
    await waitFor(() => expect(document.querySelectorAll('.audio-merge-result')).toHaveLength(1));
    // Focus goes to the next result's delete button rather than being lost.
    expect(screen.getByRole('button', { name: /^Delete merged MP3 of only\.wav/ })).toHaveFocus();
    await user.click(screen.getByRole('button', { name: /^Delete merged MP3 of only\.wav/ }));
    await waitFor(() => expect(document.querySelector('.audio-merge-result')).toBeNull());
    expect(screen.getByText('No merged files yet.')).toBeInTheDocument();
  });

  it('a refused delete keeps the result and says why', async () => {
    page();
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const deleteResult = vi.fn(async () => {
      throw new ApiError(
        '/app/merge/deleteResult',
        403,
        'That file does not belong to this session',
        'foreignFile',
      );
    });
    enhanceResults(document, { deleteResult, locale: 'en-GB' });
    await userEvent.setup().click(screen.getAllByRole('button', { name: /^Delete / })[1]);
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Could not delete this file: That file does not belong to this session',
    );
    expect(document.querySelectorAll('.audio-merge-result')).toHaveLength(2);
    expect(screen.getAllByRole('button', { name: /^Delete / })[1]).toBeEnabled();
  });

  it('a result without an id gets no delete button; running twice adds nothing', () => {
    page();
    document.querySelector('[data-result-id="r1"]')!.removeAttribute('data-result-id');
    enhanceResults(document, { deleteResult: vi.fn() });
    enhanceResults(document, { deleteResult: vi.fn() });
    expect(document.querySelectorAll('.audio-merge-result-delete')).toHaveLength(1);
  });
});

// A result with a book's details, as the host page gives it.
const bookCard = (
  title: string,
  untitled = false,
) => `<article class="audio-merge-result" data-result-id="b1" data-format="m4b">
  <div class="audio-merge-result-head"><img class="audio-merge-result-cover" src="/app/merge/resultCover/b1" alt="Cover of ${title}" width="96" height="96">
    <div class="audio-merge-result-heading"><h3 class="audio-merge-result-title${untitled ? ' audio-merge-result-untitled' : ''}" dir="auto">${title}</h3>
      <dl class="audio-merge-result-people"><div class="audio-merge-result-author"><dt>Author</dt><dd>Thomas Mann</dd></div><div class="audio-merge-result-narrator"><dt>Narrator</dt><dd>Gert Westphal</dd></div></dl></div></div>
  <audio controls preload="metadata" src="/results/SID/b1.m4b"></audio>
  <p class="audio-merge-result-meta">
    <a class="audio-merge-download" href="/results/SID/b1.m4b?download=1" download>Download</a>
    <time datetime="2026-11-22T01:22:00.000Z">2026-11-22 01:22 UTC</time>
  </p>
  <ol class="audio-merge-sources"><li>one.mp3</li></ol>
  <h4 class="audio-merge-chapters-heading">Chapters</h4>
  <ol class="audio-merge-chapters" aria-label="Chapters"><li><button type="button" class="audio-merge-chapter" data-start="0">Eins</button></li></ol>
</article>`;

describe("a merged book's card", () => {
  it("is headed by the book's title, with its cover, author, narrator and chapters in the widget's language", async () => {
    document.body.innerHTML = `<section class="audio-merge-results"><h2>Merged files</h2>${bookCard('Der Zauberberg')}</section>`;
    applyLocale('de', await loadLocale('de'));
    enhanceResults(document, { deleteResult: vi.fn(), locale: 'de-DE' });
    const card = document.querySelector<HTMLElement>('.audio-merge-result')!;
    expect(screen.getByRole('heading', { level: 3, name: 'Der Zauberberg' })).toBeInTheDocument();
    expect(screen.getByRole('img', { name: 'Cover von Der Zauberberg' })).toHaveAttribute(
      'src',
      '/app/merge/resultCover/b1',
    );
    expect(Array.from(card.querySelectorAll('dt'), (d) => d.textContent)).toEqual(['Autor', 'Sprecher']);
    const chapters = screen.getByRole('heading', { level: 4, name: 'Kapitel' });
    expect(chapters.nextElementSibling).toBe(screen.getByRole('list', { name: 'Kapitel' }));
    // The player, the link and the delete button are named by the book, not by its first file.
    const player = card.querySelector('audio')!;
    expect(player.getAttribute('aria-label')).toMatch(/M4B.* one\.mp3: Der Zauberberg, /);
    expect(
      screen.getByRole('button', { name: /M4B.* one\.mp3: Der Zauberberg, .* löschen$/ }),
    ).toBeInTheDocument();
  });

  it('names a result whose heading is only its file name by its files alone', () => {
    document.body.innerHTML = `<section class="audio-merge-results">${bookCard('one 2026-11-22 0122.m4b', true)}</section>`;
    enhanceResults(document, { deleteResult: vi.fn(), locale: 'en-GB' });
    expect(document.querySelector('audio')?.getAttribute('aria-label')).toMatch(
      /^Play merged M4B of one\.mp3, /,
    );
  });

  it('takes out a cover that cannot be loaded rather than show it broken', () => {
    document.body.innerHTML = `<section class="audio-merge-results">${bookCard('Book')}</section>`;
    enhanceResults(document, { deleteResult: vi.fn(), locale: 'en-GB' });
    const img = document.querySelector('img.audio-merge-result-cover')!;
    expect(img).toBeInTheDocument();
    img.dispatchEvent(new Event('error'));
    expect(document.querySelector('img.audio-merge-result-cover')).toBeNull();
    expect(screen.getByRole('heading', { level: 3, name: 'Book' })).toBeInTheDocument();
  });
});
