// End to end, what a newcomer met first on the page: three long names that differ only at their
// end told apart on a desktop and a phone in every language (the rows' names and their chapter
// placeholders); the Arabic result card's names, times and "-16 LUFS" in their right order; the
// dark theme without a serious accessibility finding.
import path from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { LOCALES, type LocaleCode } from '../src/shared/locales.js';
import ar from '../src/widget/i18n/ar.js';
import { makeTone } from '../test/support/audio-fixtures.js';
import { seriousViolations } from './axe.js';
import { onePageRun, SCREENSHOTS } from './harness.js';

const LONG = [1, 2, 3].map((n) => `The Lighthouse Keeper (Unabridged) - Part 0${n}.mp3`);
const poll = <T>(fn: () => T | Promise<T>) => expect.poll(fn, { timeout: 120_000, interval: 100 });

const TAGGED = ['sea-1.mp3', 'sea-2.flac'];
const run = onePageRun('audio-merge-e2e-first-', async (dir) => {
  for (const [i, name] of LONG.entries())
    await makeTone(path.join(dir, name), { seconds: 2, frequency: 300 + 200 * i });
  const tags = ['album=Sea Stories', 'artist=Anna Author', 'composer=Ned Narrator'];
  for (const name of TAGGED)
    await makeTone(path.join(dir, name), { seconds: 1, extraArgs: tags.flatMap((t) => ['-metadata', t]) });
});

async function open(page: Page, code: LocaleCode): Promise<void> {
  await page.setExtraHTTPHeaders({ 'Accept-Language': `${code},en;q=0.5` });
  await page.goto(run().server.url);
  await page.waitForSelector('.audio-merge-row >> nth=2');
}

/** What each row's name shows: its text up to where it is cut, and whether its end shows whole. */
function shownNames(page: Page) {
  return page.evaluate(() =>
    Array.from(document.querySelectorAll('.audio-merge-row'), (row) => {
      const rowBox = row.getBoundingClientRect();
      const start = row.querySelector<HTMLElement>('.audio-merge-name-start')!;
      const end = row.querySelector<HTMLElement>('.audio-merge-name-end');
      const endBox = end?.getBoundingClientRect();
      const field = row.querySelector<HTMLInputElement>('.audio-merge-chapter-title')!;
      // The text of the start that fits its box (what is left of it shows, cut by an ellipsis).
      const range = document.createRange();
      range.selectNodeContents(start);
      return {
        rowWidth: rowBox.width,
        startCut: start.scrollWidth > start.clientWidth + 1,
        end: end?.textContent ?? '',
        endWhole: endBox
          ? endBox.left >= rowBox.left - 0.5 &&
            endBox.right <= rowBox.right + 0.5 &&
            end!.scrollWidth <= end!.clientWidth + 1
          : false,
        placeholder: field.placeholder,
        // The placeholder fits its field (a canvas measure in the field's own font).
        placeholderFits: (() => {
          const c = document.createElement('canvas').getContext('2d')!;
          c.font = getComputedStyle(field).font;
          return c.measureText(field.placeholder).width <= field.clientWidth;
        })(),
      };
    }),
  );
}

describe('long names that differ only at their end', () => {
  it('are told apart on a desktop and a phone, in every language, names and chapter placeholders alike', async () => {
    const { page, dir } = run();
    await page.goto(run().server.url);
    await page.setInputFiles(
      '#audio-merge-file-input',
      LONG.map((f) => path.join(dir, f)),
    );
    await poll(() => page.locator('.audio-merge-row').count()).toBe(3);
    for (const code of LOCALES) {
      for (const [width, height] of [
        [1280, 900],
        [390, 844],
      ]) {
        await page.setViewportSize({ width, height });
        await open(page, code);
        const rows = await shownNames(page);
        if (width === 1280) {
          // A desktop has the room: wider rows, the whole name shown.
          for (const r of rows) expect(r.rowWidth).toBeGreaterThan(400);
          for (const r of rows) expect(r.startCut).toBe(false);
        }
        expect(rows.map((r) => r.end)).toEqual(LONG.map((n) => n.slice(-14)));
        for (const r of rows) expect(r.endWhole).toBe(true);
        // The placeholders (the default chapter titles) fit and still differ, by their ends.
        const placeholders = rows.map((r) => r.placeholder);
        expect(new Set(placeholders).size).toBe(3);
        for (const [i, p] of placeholders.entries()) expect(p.endsWith(`Part 0${i + 1}`)).toBe(true);
        for (const r of rows) expect(r.placeholderFits).toBe(true);
        if (code === 'ar' || code === 'en')
          await page.screenshot({ path: path.join(SCREENSHOTS, `long-names-${code}-${width}.png`) });
      }
    }
    await page.setViewportSize({ width: 900, height: 1400 });
  });
});

/** Whether the characters of `text` inside `selector` run left to right on screen (first left of last). */
function runsLeftToRight(page: Page, selector: string, text: string) {
  return page.evaluate(
    ({ selector, text }) => {
      const el = Array.from(document.querySelectorAll(selector)).find((e) => e.textContent?.includes(text));
      if (!el) return `no ${selector} holding ${text}`;
      const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const at = node.textContent!.indexOf(text);
        if (at < 0) continue;
        const rect = (i: number) => {
          const r = document.createRange();
          r.setStart(node!, i);
          r.setEnd(node!, i + 1);
          return r.getBoundingClientRect();
        };
        return rect(at).left < rect(at + text.length - 1).left;
      }
      return `${text} is split across elements`;
    },
    { selector, text },
  );
}

describe('the Arabic page', () => {
  it("shows the result card's names and times, and the loudness target, in their right order", async () => {
    const { page } = run();
    await open(page, 'ar');
    await page.locator('.audio-merge-sound-toggle').click();
    // The loudness choice as the select shows it, right to left: "-16 LUFS" reads left to right.
    const target = await page.locator('.audio-merge-loudness-target option').first().textContent();
    expect(target).toBe(ar.targetStereo);
    await page.evaluate((t) => {
      const probe = document.createElement('p');
      probe.className = 'probe-target';
      probe.dir = 'rtl';
      probe.textContent = t;
      document.body.append(probe);
    }, target);
    expect(await runsLeftToRight(page, '.probe-target', '-16 LUFS')).toBe(true);

    await page.locator('button.audio-merge-make').click();
    await poll(() => page.locator('.audio-merge-results .audio-merge-result').count()).toBe(1);
    const card = page.locator('.audio-merge-results .audio-merge-result').first();
    await card.waitFor();
    expect(await page.evaluate(() => document.documentElement.dir)).toBe('rtl');
    for (const name of LONG) {
      expect(await runsLeftToRight(page, '.audio-merge-sources li', name)).toBe(true);
      expect(await runsLeftToRight(page, '.audio-merge-chapter', name.replace(/\.mp3$/, ''))).toBe(true);
    }
    // Each chapter's time keeps its digits' order and stands before (right of) its title.
    const order = await page.evaluate(() =>
      Array.from(document.querySelectorAll('.audio-merge-result .audio-merge-chapter'), (b) => {
        const time = b.querySelector('.audio-merge-chapter-time')!.getBoundingClientRect();
        const title = b.querySelector('.audio-merge-chapter-time ~ bdi')!.getBoundingClientRect();
        return time.left > title.right;
      }),
    );
    expect(order).toEqual([true, true, true]);
    expect(await runsLeftToRight(page, '.audio-merge-chapter-time', '0:02')).toBe(true);
    await card.screenshot({ path: path.join(SCREENSHOTS, 'result-card-ar-isolated.png') });
  });
});

describe('the dark theme', () => {
  it('has no serious accessibility finding, the list, the open choices and the results, in every language', async () => {
    const { page } = run();
    await page.emulateMedia({ colorScheme: 'dark' });
    for (const code of LOCALES) {
      await open(page, code);
      for (const toggle of await page.locator('.audio-merge-details-toggle, .audio-merge-sound-toggle').all())
        await toggle.click();
      await page.waitForSelector('.audio-merge-detail-title input');
      expect(await seriousViolations(page), code).toEqual([]);
    }
    await page.emulateMedia({ colorScheme: 'light' });
  });
});

describe('Book details', () => {
  it("shows what the merge takes from the files' tags as the fields' placeholders", async () => {
    const { server, browser, dir } = run();
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    try {
      await page.goto(server.url);
      await page.setInputFiles(
        '#audio-merge-file-input',
        TAGGED.map((f) => path.join(dir, f)),
      );
      await poll(() => page.locator('.audio-merge-row').count()).toBe(2);
      await page.locator('.audio-merge-details-toggle').click();
      const placeholder = (name: string) =>
        page.locator(`.audio-merge-detail-${name} input`).getAttribute('placeholder');
      await poll(() => placeholder('artist')).toBe('Anna Author');
      expect(await placeholder('album')).toBe('Sea Stories');
      expect(await placeholder('narrator')).toBe('Ned Narrator');
      // The album both share is the book's title.
      expect(await placeholder('title')).toBe('Sea Stories');
      expect(await placeholder('genre')).toBe('');
      // Placeholders, not values: nothing is set until the person types.
      expect(await page.locator('.audio-merge-detail-artist input').inputValue()).toBe('');
      await page
        .locator('.audio-merge-details-panel')
        .screenshot({ path: path.join(SCREENSHOTS, 'details-from-tags.png') });
    } finally {
      await page.close();
    }
  });
});
