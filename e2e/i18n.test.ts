// End to end: the widget in each of its six languages against the real server in Chromium: the
// host page following Accept-Language, every view (list, sound options, progress, a failure, the
// results) in the person's language, Arabic right to left with the keyboard reorder still up
// and down, axe-core finding no serious or critical problem in any view, a host's accent, the
// dark scheme and reduced motion. Takes a picture of the page in each language
// (e2e/screenshots/locale-*.png) and of the Arabic progress view (progress-ar.png).
import path from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { LOCALES, type LocaleCode } from '../src/shared/locales.js';
import { en, type Locale } from '../src/widget/i18n/en.js';
import de from '../src/widget/i18n/de.js';
import fr from '../src/widget/i18n/fr.js';
import es from '../src/widget/i18n/es.js';
import ru from '../src/widget/i18n/ru.js';
import ar from '../src/widget/i18n/ar.js';
import { HOST_PAGE_WORDS } from '../src/server/http/host-page-words.js';
import { makeTone } from '../test/support/audio-fixtures.js';
import { seriousViolations } from './axe.js';
import { afterQueuedTimers, onePageRun, SCREENSHOTS } from './harness.js';

const TABLES: Record<LocaleCode, Locale> = { en, de, fr, es, ru, ar };
const FILES = ['one.wav', 'two.wav', 'three.wav'];

const run = onePageRun('audio-merge-i18n-', async (dir) => {
  for (const [i, name] of FILES.entries())
    await makeTone(path.join(dir, name), { seconds: 1, frequency: 300 + 200 * i });
});
const poll = <T>(fn: () => T | Promise<T>) => expect.poll(fn, { timeout: 60_000, interval: 100 });
/** The make button as the page shows it in `code`: the host's label naming the preselected MP3. */
const makeButton = (code: LocaleCode) =>
  HOST_PAGE_WORDS[code].makeLabel.replace('{format}', TABLES[code].formatNames.mp3);
const rowNames = (p: Page) => p.locator('.audio-merge-row .audio-merge-filename').allTextContents();

/** The page as a browser asking for `language` first gets it. */
async function open(page: Page, language: string): Promise<void> {
  await page.setExtraHTTPHeaders({ 'Accept-Language': `${language},en;q=0.5` });
  await page.goto(run().server.url);
  await page.waitForSelector('.audio-merge-row >> nth=2');
}

/**
 * The widget's controls smaller than 24 by 24 CSS pixels (WCAG 2.2's target size): an input
 * counts with its label, which takes the click too (the file input is hidden behind the drop
 * zone, its label); the players' own buttons are the browser's.
 */
async function smallTargets(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const selector =
      'button, input:not([type="hidden"]), select, textarea, a[href], [role="slider"], [role="switch"], [tabindex="0"]';
    const roots = document.querySelectorAll('.audio-merge-root, .audio-merge-upload, .audio-merge-results');
    const small: string[] = [];
    for (const root of roots)
      for (const el of root.querySelectorAll<HTMLElement>(selector)) {
        const box = el.getBoundingClientRect();
        if (box.width === 0 && box.height === 0) continue; // not shown
        let [left, top, right, bottom] = [box.left, box.top, box.right, box.bottom];
        const label = el instanceof HTMLInputElement ? el.labels?.[0] : undefined;
        if (label) {
          const l = label.getBoundingClientRect();
          [left, top, right, bottom] = [
            Math.min(left, l.left),
            Math.min(top, l.top),
            Math.max(right, l.right),
            Math.max(bottom, l.bottom),
          ];
        }
        if (right - left < 24 || bottom - top < 24)
          small.push(
            `${el.tagName.toLowerCase()}.${el.className} "${el.getAttribute('aria-label') ?? el.textContent?.trim() ?? ''}": ${Math.round(right - left)}x${Math.round(bottom - top)}`,
          );
      }
    return small;
  });
}

/** The progress view, held there: the merge call is kept waiting until `release` is called. */
async function holdMerge(page: Page, answer?: { status: number; body: unknown }) {
  let release!: () => void;
  const held = new Promise<void>((r) => (release = r));
  let aborted: Promise<void> = Promise.resolve();
  await page.route('**/app/merge/mergemp3', (route) => {
    if (answer) return route.fulfill({ status: answer.status, json: answer.body });
    aborted = held.then(() => route.abort());
    return aborted;
  });
  // The call is aborted before the route goes: a route removed while its request waits lets the
  // request through to the server, which would merge.
  return async () => {
    release();
    await aborted;
    await page.unroute('**/app/merge/mergemp3');
  };
}

describe('the widget in six languages', () => {
  it('uploads three files and makes one result, in English', async () => {
    const { page, dir } = run();
    await page.goto(run().server.url);
    await page.setInputFiles(
      '#audio-merge-file-input',
      FILES.map((f) => path.join(dir, f)),
    );
    await page.waitForSelector('.audio-merge-row >> nth=2', { timeout: 120_000 });
    await page.getByRole('button', { name: 'Make MP3' }).click();
    await page.waitForSelector('.audio-merge-result', { timeout: 120_000 });
    expect(await seriousViolations(page)).toEqual([]);
  });

  for (const code of LOCALES) {
    it(`${code}: the host page follows Accept-Language, and every view speaks ${code}`, async () => {
      const { page } = run();
      const t = TABLES[code];
      const dir = code === 'ar' ? 'rtl' : 'ltr';
      await open(page, code);

      // The host page and the widget in the language asked for, and its direction.
      expect(await page.locator('html').getAttribute('lang')).toBe(code);
      expect(await page.locator('html').getAttribute('dir')).toBe(dir);
      expect(await page.locator('#audio-merge-tool').getAttribute('data-locale')).toBe(code);
      const root = page.locator('.audio-merge-root');
      expect([await root.getAttribute('lang'), await root.getAttribute('dir')]).toEqual([code, dir]);
      expect(
        await page.evaluate(() => getComputedStyle(document.querySelector('.audio-merge-root')!).direction),
      ).toBe(dir);

      // The list.
      expect(await page.locator('.audio-merge-hint').textContent()).toBe(t.hint);
      expect(await page.locator('.audio-merge-position').allTextContents()).toEqual(
        [1, 2, 3].map(t.position),
      );
      expect(await page.getByRole('button', { name: t.remove('one.wav') }).count()).toBe(1);
      expect(await page.locator('.audio-merge-dropzone strong').textContent()).toBe(t.chooseFiles);
      expect(await seriousViolations(page)).toEqual([]);

      // The sound options.
      await page.getByRole('button', { name: t.soundToggle }).click();
      await page.getByRole('switch', { name: t.loudness }).check();
      await page.getByRole('radio', { name: t.betweenGap }).check();
      expect(await page.locator('.audio-merge-sound-count').textContent()).toBe(t.soundSet(2));
      expect(await seriousViolations(page)).toEqual([]);
      expect(await smallTargets(page)).toEqual([]);

      // The book's details, with the cover area: labelled in the language, every control a target.
      const details = page.getByRole('button', { name: t.detailsToggle });
      await details.click();
      expect(await page.getByLabel(t.detailLabels.narrator, { exact: true }).count()).toBe(1);
      expect(await page.locator('.audio-merge-cover-hint').textContent()).toBe(t.coverDrop);
      expect(await seriousViolations(page)).toEqual([]);
      expect(await smallTargets(page)).toEqual([]);
      await details.click();

      // The results the page lists, named in the language.
      const result = page.locator('.audio-merge-result').first();
      expect(await result.locator('.audio-merge-result-delete').textContent()).toBe(t.deleteResult);
      expect(await result.locator('.audio-merge-download').textContent()).toBe(
        HOST_PAGE_WORDS[code].download,
      );
      // The page down to its newest result: the upload area, the list with its sound options
      // open, a result.
      const bottom = await result.evaluate((el) => el.getBoundingClientRect().bottom + window.scrollY);
      await page.screenshot({
        path: path.join(SCREENSHOTS, `locale-${code}.png`),
        fullPage: true,
        clip: { x: 0, y: 0, width: page.viewportSize()!.width, height: Math.ceil(bottom + 12) },
        animations: 'disabled',
      });

      // The progress view, held while the merge is asked for.
      const release = await holdMerge(page);
      await page.getByRole('button', { name: makeButton(code) }).click();
      await page.waitForSelector('.audio-merge-progress');
      expect(await page.getByRole('group', { name: t.progressGroup }).count()).toBe(1);
      expect(await page.getByRole('button', { name: t.cancel }).count()).toBe(1);
      expect(await page.locator('.audio-merge-status').textContent()).toBe(t.percent(0));
      expect(await seriousViolations(page)).toEqual([]);
      expect(await smallTargets(page)).toEqual([]);
      if (code === 'ar')
        await page
          .locator('#audio-merge-tool')
          .screenshot({ path: path.join(SCREENSHOTS, 'progress-ar.png'), animations: 'disabled' });
      await release();
    });
  }

  it("a failure the server sends with its code is said in the person's language", async () => {
    const { page } = run();
    await open(page, 'de');
    await holdMerge(page, {
      status: 503,
      body: {
        error: 'The server restarted while this merge was running; please press make again',
        code: 'interrupted',
      },
    });
    await page.getByRole('button', { name: makeButton('de') }).click();
    await poll(() => page.locator('.audio-merge-status').textContent()).toBe(de.serverMessages.interrupted);
    expect(await page.getByRole('button', { name: de.reload }).count()).toBe(1);
    expect(await seriousViolations(page)).toEqual([]);
    await page.unroute('**/app/merge/mergemp3');
  });

  it('Arabic: the keyboard reorder goes down with ArrowDown, said in Arabic', async () => {
    const { page } = run();
    await open(page, 'ar');
    const before = await rowNames(page);
    const first = page.locator('.audio-merge-row').first();
    await first.focus();
    await page.keyboard.press('Space');
    await poll(() => page.locator('.audio-merge-row--lifted').count()).toBe(1);
    await afterQueuedTimers(page);
    await page.keyboard.press('ArrowDown');
    await afterQueuedTimers(page);
    await page.keyboard.press('Space');
    await poll(() => rowNames(page)).toEqual([before[1], before[0], before[2]]);
    // dnd-kit's live region says where it went, in Arabic.
    await poll(() => page.locator('[role="status"][aria-live]').allTextContents()).toContainEqual(
      expect.stringContaining(ar.droppedAt(before[0], 2, 3)),
    );
    // The order is the server's now: it is there after a reload.
    await open(page, 'ar');
    expect(await rowNames(page)).toEqual([before[1], before[0], before[2]]);
  });

  it("a host's --audio-merge-accent colours the make button; the dark scheme follows the reader unless forced", async () => {
    const { page } = run();
    await open(page, 'en');
    const style = (selector: string, property: string) =>
      page.evaluate(([s, p]) => getComputedStyle(document.querySelector(s)!).getPropertyValue(p), [
        selector,
        property,
      ] as const);
    // Polled: the button fades in from disabled while the list loads.
    await poll(() => style('.audio-merge-make', 'background-color')).toBe('rgb(79, 70, 229)');
    await page.evaluate(() =>
      document
        .getElementById('audio-merge-tool')!
        .style.setProperty('--audio-merge-accent', 'rgb(190, 18, 60)'),
    );
    await poll(() => style('.audio-merge-make', 'background-color')).toBe('rgb(190, 18, 60)');

    expect(await style('.audio-merge-root', 'background-color')).toBe('rgb(255, 255, 255)');
    // Without transitions, so axe reads the colours the scheme ends at, not a fade between them.
    await page.emulateMedia({ colorScheme: 'dark', reducedMotion: 'reduce' });
    expect(await style('.audio-merge-root', 'background-color')).toBe('rgb(17, 24, 39)');
    expect(await style('.audio-merge-root', 'color-scheme')).toBe('dark');
    expect(await seriousViolations(page)).toEqual([]);
    await page
      .locator('#audio-merge-tool')
      .screenshot({ path: path.join(SCREENSHOTS, 'theme-dark.png'), animations: 'disabled' });
    await page.evaluate(() =>
      document.getElementById('audio-merge-tool')!.setAttribute('data-theme', 'light'),
    );
    expect(await style('.audio-merge-root', 'background-color')).toBe('rgb(255, 255, 255)');
    await page.emulateMedia({ colorScheme: 'light' });
    await page.evaluate(() =>
      document.getElementById('audio-merge-tool')!.setAttribute('data-theme', 'dark'),
    );
    expect(await style('.audio-merge-root', 'background-color')).toBe('rgb(17, 24, 39)');
  });

  it('reduced motion: the spinner stands still and rows move without a transition, in a drag too', async () => {
    const { page } = run();
    await page.emulateMedia({ reducedMotion: 'reduce', colorScheme: 'light' });
    await open(page, 'en');
    expect(
      await page.evaluate(
        () => getComputedStyle(document.querySelector('.audio-merge-row')!).transitionDuration,
      ),
    ).toMatch(/^0s(, 0s)*$/);
    // A keyboard drag: the drag library animates the rows it moves with an inline transition,
    // which reduced motion overrides, so they move at once.
    await page.locator('.audio-merge-row').first().focus();
    await page.keyboard.press('Space');
    await poll(() => page.locator('.audio-merge-row--lifted').count()).toBe(1);
    await afterQueuedTimers(page);
    await page.keyboard.press('ArrowDown');
    await afterQueuedTimers(page);
    const rows = await page.evaluate(() =>
      [...document.querySelectorAll<HTMLElement>('.audio-merge-row')].map((r) => ({
        inline: r.style.transition,
        computed: getComputedStyle(r).transitionDuration,
      })),
    );
    expect(rows.some((r) => r.inline.includes('transform'))).toBe(true);
    expect(rows.map((r) => r.computed).filter((d) => !/^0s(, 0s)*$/.test(d))).toEqual([]);
    await page.keyboard.press('Escape');
    await poll(() => page.locator('.audio-merge-row--lifted').count()).toBe(0);

    const release = await holdMerge(page);
    await page.getByRole('button', { name: 'Make MP3' }).click();
    await page.waitForSelector('.audio-merge-spinner');
    expect(
      await page.evaluate(
        () => getComputedStyle(document.querySelector('.audio-merge-spinner')!).animationName,
      ),
    ).toBe('none');
    await release();
    await page.emulateMedia({ reducedMotion: 'no-preference' });
    await open(page, 'en');
  });
});
