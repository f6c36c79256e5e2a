// End to end: the merged book's card on the host page, in Chromium. An M4B made with a title,
// author, narrator and a cover is listed under its title with that cover loaded and shown whole, who wrote and
// reads it, and its chapters under a heading, in English and in Arabic (right to left), with no
// serious accessibility problem. And the list view's layout: the rows (320 to 560 px) in a column that
// fits them, the choices beside it on a desktop or a small laptop, below it (the rows centred) where
// the two do not fit side by side and on a phone, in both directions.
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { LocaleCode } from '../src/shared/locales.js';
import { en, type Locale } from '../src/widget/i18n/en.js';
import ar from '../src/widget/i18n/ar.js';
import { HOST_PAGE_WORDS } from '../src/server/http/host-page-words.js';
import { makeTone, tools } from '../test/support/audio-fixtures.js';
import { makeImage } from '../test/support/pictures.js';
import { seriousViolations } from './axe.js';
import { onePageRun, SCREENSHOTS } from './harness.js';

const FILES = ['Part one.mp3', 'Part two.mp3'];
const BOOKS: Array<{ code: LocaleCode; table: Locale; title: string; author: string; narrator: string }> = [
  { code: 'en', table: en, title: 'The Long Walk', author: 'A. Writer', narrator: 'N. Reader' },
  { code: 'ar', table: ar, title: 'ألف ليلة وليلة', author: 'مؤلف مجهول', narrator: 'قارئ' },
];
const poll = <T>(fn: () => T | Promise<T>) => expect.poll(fn, { timeout: 120_000, interval: 100 });

const run = onePageRun('audio-merge-e2e-card-', async (dir) => {
  for (const [i, name] of FILES.entries())
    await makeTone(path.join(dir, name), { seconds: 2, frequency: 400 + 300 * i });
  // Not square, with a band of its own colour at each side: a card that crops it loses them.
  const filters = `${band(0, 'red')},${band(108, 'yellow')}`;
  await makeImage(path.join(dir, 'cover.png'), { colour: 'teal', size: '120x90', filters });
});

const exec = promisify(execFile);
const band = (x: number, colour: string) => `drawbox=x=${x}:y=0:w=12:h=90:color=${colour}:t=fill`;

/** How many pixels of a PNG are near this colour (decoded by ffmpeg to RGB). */
async function pixelsNear(png: Buffer, [r, g, b]: [number, number, number]): Promise<number> {
  const child = exec(
    tools.ffmpeg,
    ['-v', 'error', '-i', 'pipe:0', '-f', 'rawvideo', '-pix_fmt', 'rgb24', 'pipe:1'],
    {
      encoding: 'buffer',
      maxBuffer: 16 << 20,
    },
  );
  child.child.stdin!.end(png);
  const { stdout } = await child;
  let n = 0;
  for (let i = 0; i + 2 < stdout.length; i += 3)
    if (Math.abs(stdout[i] - r) < 40 && Math.abs(stdout[i + 1] - g) < 40 && Math.abs(stdout[i + 2] - b) < 40)
      n++;
  return n;
}

async function open(page: Page, code: LocaleCode): Promise<void> {
  await page.setExtraHTTPHeaders({ 'Accept-Language': `${code},en;q=0.5` });
  await page.goto(run().server.url);
}

/** The boxes the layout is judged by: the rows, their column, the choices' column, the panel. */
function layout(page: Page) {
  return page.evaluate(() => {
    const box = (el: Element) => {
      const r = el.getBoundingClientRect();
      return { left: r.left, right: r.right, top: r.top, bottom: r.bottom, width: r.width };
    };
    const root = document.querySelector('.audio-merge-root')!;
    const style = getComputedStyle(root);
    const inner = box(root);
    return {
      rows: Array.from(document.querySelectorAll('.audio-merge-row'), (r) => box(r)),
      list: box(document.querySelector('.audio-merge-list-column')!),
      side: box(document.querySelector('.audio-merge-side-column')!),
      content: {
        left: inner.left + parseFloat(style.paddingLeft),
        right: inner.right - parseFloat(style.paddingRight),
      },
      direction: style.direction,
      pageWidth: document.documentElement.scrollWidth,
      /** How far the choices' contents reach past their column. */
      sideOverflow: (() => {
        const side = document.querySelector('.audio-merge-side-column')!;
        return side.scrollWidth - side.clientWidth;
      })(),
    };
  });
}

describe("a merged book's card", () => {
  it('the list view fits its rows at every width: choices beside them on a desktop or a small laptop, below them (rows centred) where narrower, in both directions', async () => {
    const { page, dir } = run();
    await open(page, 'en');
    await page.setInputFiles(
      '#audio-merge-file-input',
      FILES.map((f) => path.join(dir, f)),
    );
    await poll(() => page.locator('.audio-merge-row').count()).toBe(2);
    for (const code of ['en', 'ar'] as const) {
      await open(page, code);
      await page.waitForSelector('.audio-merge-row >> nth=1');
      // A desktop and a small laptop or tablet: the rows and the choices side by side, together
      // filling the panel from edge to edge, so no blank strip beside the rows.
      for (const width of [1280, 700]) {
        await page.setViewportSize({ width, height: 800 });
        const wide = await layout(page);
        expect(wide.direction).toBe(code === 'ar' ? 'rtl' : 'ltr');
        // Rows as wide as their column (wider than a phone's where there is room, for long names):
        // the column is theirs, no wider than a row, so no half-empty panel beside them.
        for (const row of wide.rows) {
          expect(row.width).toBeGreaterThanOrEqual(320);
          expect(row.width).toBeLessThanOrEqual(560);
          expect(Math.abs(row.width - wide.list.width)).toBeLessThan(1);
        }
        // The choices sit beside the rows, on the side the reading starts from, up to the panel's edge.
        expect(wide.side.top).toBeLessThan(wide.rows[0].bottom);
        if (code === 'ar') {
          expect(wide.side.right).toBeLessThan(wide.list.left);
          expect(Math.abs(wide.side.left - wide.content.left)).toBeLessThan(1);
          expect(Math.abs(wide.list.right - wide.content.right)).toBeLessThan(1);
        } else {
          expect(wide.side.left).toBeGreaterThan(wide.list.right);
          expect(Math.abs(wide.side.right - wide.content.right)).toBeLessThan(1);
          expect(Math.abs(wide.list.left - wide.content.left)).toBeLessThan(1);
        }
        // Between the two columns, only the gap.
        const between = code === 'ar' ? wide.list.left - wide.side.right : wide.side.left - wide.list.right;
        expect(between).toBeLessThanOrEqual(32);
      }
      // Beside the rows, the open book details and sound options fit the choices' column too.
      await page.setViewportSize({ width: 700, height: 800 });
      const toggles = page.locator('.audio-merge-details-toggle, .audio-merge-sound-toggle');
      for (const toggle of await toggles.all()) await toggle.click();
      await page.waitForSelector('.audio-merge-cover');
      const opened = await layout(page);
      expect(opened.pageWidth).toBeLessThanOrEqual(700);
      expect(opened.sideOverflow).toBeLessThanOrEqual(0);
      for (const toggle of await toggles.all()) await toggle.click();
      // Too narrow for both side by side: the choices below, across the panel, and the rows centred
      // above them, so the space beside the rows is shared evenly, not one wide strip.
      await page.setViewportSize({ width: 600, height: 800 });
      const middle = await layout(page);
      for (const row of middle.rows) {
        expect(row.width).toBeGreaterThanOrEqual(320);
        expect(row.width).toBeLessThanOrEqual(560);
        expect(Math.abs(row.left - middle.content.left - (middle.content.right - row.right))).toBeLessThan(1);
      }
      expect(middle.side.top).toBeGreaterThanOrEqual(middle.rows.at(-1)!.bottom);
      expect(Math.abs(middle.side.left - middle.content.left)).toBeLessThan(1);
      expect(Math.abs(middle.side.right - middle.content.right)).toBeLessThan(1);
      await page.setViewportSize({ width: 390, height: 844 });
      const narrow = await layout(page);
      expect(narrow.pageWidth).toBeLessThanOrEqual(390);
      for (const row of narrow.rows) expect(row.right - row.left).toBeLessThanOrEqual(390);
      expect(narrow.side.top).toBeGreaterThanOrEqual(narrow.list.bottom);
      expect(narrow.side.left).toBeGreaterThanOrEqual(narrow.content.left - 0.5);
      expect(narrow.side.right).toBeLessThanOrEqual(narrow.content.right + 0.5);
    }
    await page.setViewportSize({ width: 900, height: 1400 });
  });

  for (const book of BOOKS) {
    it(`${book.code}: shows the book's title, its cover, author and narrator, and its chapters under a heading`, async () => {
      const { page, dir } = run();
      await open(page, book.code);
      await page.waitForSelector('.audio-merge-row >> nth=1');
      await page.locator('select.audio-merge-format').selectOption('m4b');
      const toggle = page.locator('.audio-merge-details-toggle');
      if ((await toggle.getAttribute('aria-expanded')) !== 'true') await toggle.click();
      await page.locator('.audio-merge-detail-title input').fill(book.title);
      await page.locator('.audio-merge-detail-artist input').fill(book.author);
      await page.locator('.audio-merge-detail-narrator input').fill(book.narrator);
      await page.locator('.audio-merge-cover input[type="file"]').setInputFiles(path.join(dir, 'cover.png'));
      await page.waitForSelector('.audio-merge-cover-preview');
      // The preview shows the whole cover too.
      const preview = await page.locator('.audio-merge-cover-preview').screenshot();
      expect(await pixelsNear(preview, [255, 0, 0])).toBeGreaterThan(100);
      expect(await pixelsNear(preview, [255, 255, 0])).toBeGreaterThan(100);
      const before = await page.locator('.audio-merge-results .audio-merge-result').count();
      await page.locator('button.audio-merge-make').click();
      // Success reloads the page, which then lists the new result first.
      await poll(() => page.locator('.audio-merge-results .audio-merge-result').count()).toBe(before + 1);
      const card = page.locator('.audio-merge-results .audio-merge-result').first();
      await poll(() => card.locator('h3').textContent()).toBe(book.title);
      expect(await card.getAttribute('data-result-id')).toBeTruthy();

      const cover = card.locator('img.audio-merge-result-cover');
      await poll(() => cover.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(120);
      expect(await cover.getAttribute('alt')).toBe(book.table.resultCover(book.title));
      // The whole cover is shown, its two sides included, not cropped to the square.
      const shown = await cover.screenshot();
      expect(await pixelsNear(shown, [255, 0, 0])).toBeGreaterThan(100);
      expect(await pixelsNear(shown, [255, 255, 0])).toBeGreaterThan(100);
      expect(await card.locator('dt').allTextContents()).toEqual([
        book.table.detailLabels.artist,
        book.table.detailLabels.narrator,
      ]);
      expect(await card.locator('dd').allTextContents()).toEqual([book.author, book.narrator]);

      // The chapters, one per file, in a list right under their heading.
      const heading = card.locator('h4.audio-merge-chapters-heading');
      expect(await heading.textContent()).toBe(book.table.chapters);
      expect(book.table.chapters).toBe(HOST_PAGE_WORDS[book.code].chapters);
      const chapters = await heading.evaluate((h) => {
        const list = h.nextElementSibling;
        return list?.matches('ol.audio-merge-chapters')
          ? Array.from(list.querySelectorAll('.audio-merge-chapter'), (c) =>
              c.textContent?.replace(/^\S+\s/, ''),
            )
          : null;
      });
      expect(chapters).toEqual(['Part one', 'Part two']);

      // Right to left in Arabic: the cover at the start of the line, on the right of the title.
      const sides = await card.evaluate((el) => {
        const img = el.querySelector('img')!.getBoundingClientRect();
        const title = el.querySelector('h3')!.getBoundingClientRect();
        return {
          direction: getComputedStyle(el).direction,
          imgLeft: img.left,
          imgRight: img.right,
          titleLeft: title.left,
          titleRight: title.right,
        };
      });
      if (book.code === 'ar') {
        expect(sides.direction).toBe('rtl');
        expect(sides.imgLeft).toBeGreaterThanOrEqual(sides.titleRight);
      } else {
        expect(sides.imgRight).toBeLessThanOrEqual(sides.titleLeft);
      }
      expect(await seriousViolations(page)).toEqual([]);
      await card.screenshot({ path: path.join(SCREENSHOTS, `result-card-${book.code}.png`) });
    });
  }
});
