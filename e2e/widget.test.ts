// End to end: the real server and Chromium. Upload three tones through the page, order them by
// mouse and by keyboard, make the MP3, watch progress, and check what was joined by ear (PCM).
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodePcm, dominantFrequency, ffprobeJson, makeTone } from '../test/support/audio-fixtures.js';
import { afterQueuedTimers, onePageRun, SCREENSHOTS } from './harness.js';

const TONE_SECONDS = 4;
const TONES = [
  { name: 'low tone.wav', frequency: 300 },
  { name: 'middle tone.flac', frequency: 700 },
  { name: 'high tone.ogg', frequency: 1500 },
];

const statuses: string[] = [];
const pageErrors: string[] = [];
/** Browser work takes its time on a busy machine; wait for outcomes, never for a clock. */
const poll = <T>(fn: () => T | Promise<T>) => expect.poll(fn, { timeout: 60_000, interval: 100 });

const work = onePageRun('audio-merge-e2e-', async (dir) => {
  for (const t of TONES)
    await makeTone(path.join(dir, t.name), { seconds: TONE_SECONDS, frequency: t.frequency });
});
let page: Page;

beforeAll(async () => {
  page = work().page;
  page.on('pageerror', (e) => pageErrors.push(String(e)));
  page.on('console', (m) => m.type() === 'error' && pageErrors.push(m.text()));
  // Every status text the progress view shows, kept here so the page reload does not lose it.
  await page.exposeBinding('recordStatus', (_src, text: string) => void statuses.push(text));
  await page.addInitScript(() => {
    new MutationObserver(() => {
      const s = document.querySelector('.audio-merge-status')?.textContent;
      const w = window as unknown as { recordStatus: (t: string) => void; lastStatus?: string };
      if (s && s !== w.lastStatus) {
        w.lastStatus = s;
        w.recordStatus(s);
      }
    }).observe(document, { subtree: true, childList: true, characterData: true });
  });
});

afterAll(() => {
  if (pageErrors.length) console.log('browser errors:\n' + pageErrors.join('\n'));
});

const rowNames = (p: Page) => p.locator('.audio-merge-row .audio-merge-filename').allTextContents();
const rowPositions = (p: Page) => p.locator('.audio-merge-row .audio-merge-position').allTextContents();

describe('the widget in a real browser against the real server', () => {
  it('uploads through the page, orders by mouse and keyboard, and joins in the order shown', async () => {
    await page.goto(work().server.url);
    await poll(() => page.locator('.audio-merge-empty').count()).toBe(1);

    // Upload: three files chosen at once, each with its own progress line, then the rows appear.
    await page.setInputFiles(
      '#audio-merge-file-input',
      TONES.map((t) => path.join(work().dir, t.name)),
    );
    await page.waitForSelector('.audio-merge-row >> nth=2', { timeout: 60_000 });
    // The three upload lines give way to one summary once the files are rows.
    await poll(() => page.locator('.audio-merge-upload-summary').textContent()).toBe(
      '3 files uploaded. They are at the end of the list to order.',
    );
    expect(await page.locator('.audio-merge-upload-item').count()).toBe(0);
    expect(await rowNames(page)).toEqual(TONES.map((t) => t.name));
    const firstRow = (await page.locator('.audio-merge-row').first().boundingBox())!;
    // 120 px high, 320 px wide or wider (to 560) where the page has room for long names.
    expect(firstRow.height).toBe(120);
    expect(firstRow.width).toBeGreaterThanOrEqual(320);
    expect(firstRow.width).toBeLessThanOrEqual(560);
    await page.locator('.audio-merge-root').screenshot({ path: path.join(SCREENSHOTS, 'list.png') });
    await page.screenshot({ path: path.join(SCREENSHOTS, 'page-after-upload.png'), fullPage: true });

    // Mouse: drag the last row's handle above the first row.
    const handle = page.locator('.audio-merge-row').nth(2).locator('.audio-merge-handle');
    const from = (await handle.boundingBox())!;
    const to = firstRow!;
    await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
    await page.mouse.down();
    await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2 - 10, { steps: 4 });
    await page.mouse.move(from.x + from.width / 2, to.y + 10, { steps: 20 });
    await page.screenshot({ path: path.join(SCREENSHOTS, 'dragging.png') });
    await page
      .locator('#audio-merge-tool')
      .screenshot({ path: path.join(SCREENSHOTS, 'widget-dragging.png') });
    await page.mouse.up();
    await poll(() => rowNames(page)).toEqual(['high tone.ogg', 'low tone.wav', 'middle tone.flac']);

    // Keyboard: focus the row now second, Space to lift, ArrowDown, Space to drop.
    await page.locator('.audio-merge-row', { hasText: 'low tone.wav' }).focus();
    await page.keyboard.press('Space');
    await poll(() => page.locator('[aria-live]').allTextContents()).toContainEqual(
      expect.stringContaining('Picked up low tone.wav'),
    );
    await afterQueuedTimers(page);
    await page
      .locator('#audio-merge-tool')
      .screenshot({ path: path.join(SCREENSHOTS, 'keyboard-lifted.png') });
    await page.keyboard.press('ArrowDown');
    await poll(() => page.locator('[aria-live]').allTextContents()).toContainEqual(
      expect.stringContaining('low tone.wav was moved to position 3 of 3'),
    );
    await page.keyboard.press('Space');
    await poll(() => rowNames(page)).toEqual(['high tone.ogg', 'middle tone.flac', 'low tone.wav']);
    expect(await rowPositions(page)).toEqual(['1', '2', '3']);
    // Focus stays on the moved row, so the next Space can move it again.
    await poll(() =>
      page.evaluate(() => document.activeElement?.querySelector('.audio-merge-filename')?.textContent),
    ).toBe('low tone.wav');
    const shown = await rowNames(page);

    // Make: hold the merge answer until the progress view has been seen, so the reload waits.
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    await page.route('**/app/merge/mergemp3', async (route) => {
      const response = await route.fetch({ timeout: 120_000 });
      await held;
      await route.fulfill({ response });
    });
    await page.evaluate(() => ((window as unknown as { beforeReload: boolean }).beforeReload = true));
    await page.getByRole('button', { name: 'Make MP3' }).click();
    await page.waitForSelector('.audio-merge-progress .audio-merge-spinner');
    expect(await page.locator('.audio-merge-row').count()).toBe(0);
    await expect.poll(() => statuses.some((s) => /^[1-9]\d*%$/.test(s)), { timeout: 120_000 }).toBe(true);
    await expect
      .poll(() => page.locator('.audio-merge-status').textContent(), { timeout: 120_000 })
      .toBe('100%');
    expect(await page.getByRole('progressbar').getAttribute('aria-valuenow')).toBe('100');
    await page.locator('.audio-merge-root').screenshot({ path: path.join(SCREENSHOTS, 'progress.png') });
    console.log(`status texts seen: ${statuses.join(' | ')}`);
    const percents = statuses.filter((s) => /^\d+%$/.test(s)).map((s) => Number.parseInt(s, 10));
    expect(percents[0]).toBe(0);
    expect(percents.at(-1)).toBe(100);
    expect([...percents].sort((a, b) => a - b)).toEqual(percents);

    // The answer "success" reloads the page, which now lists the result.
    release();
    await page.waitForSelector('.audio-merge-result', { timeout: 120_000 });
    expect(
      await page.evaluate(() => (window as unknown as { beforeReload?: boolean }).beforeReload),
    ).toBeUndefined();
    const sources = await page
      .locator('.audio-merge-result')
      .first()
      .locator('.audio-merge-sources li')
      .allTextContents();
    expect(sources).toEqual(shown);
    // Every player on the page has a name, and the download link says which result it fetches.
    await poll(() => page.locator('audio:not([aria-label])').count()).toBe(0);
    expect(
      await page.getByRole('link', { name: `Download merged MP3 of ${shown[0]} and 2 more` }).count(),
    ).toBe(1);
    await page.locator('.audio-merge-results').screenshot({ path: path.join(SCREENSHOTS, 'result.png') });
    await page.screenshot({ path: path.join(SCREENSHOTS, 'page-after-merge.png'), fullPage: true });

    // The download holds the tones in the order shown.
    const href = (await page.locator('.audio-merge-download').first().getAttribute('href'))!;
    const download = await page.request.get(new URL(href, work().server.url).toString());
    expect(download.status()).toBe(200);
    const file = path.join(work().dir, 'downloaded.mp3');
    await writeFile(file, await download.body());
    const probe = await ffprobeJson(file);
    expect(probe.streams[0].codec_name).toBe('mp3');
    expect(Number(probe.format.duration)).toBeCloseTo(TONES.length * TONE_SECONDS, 0);
    const pcm = await decodePcm(file);
    const heard = shown.map((_, i) =>
      dominantFrequency(pcm, i * TONE_SECONDS + 0.5, (i + 1) * TONE_SECONDS - 0.5),
    );
    const expected = shown.map((name) => TONES.find((t) => t.name === name)!.frequency);
    heard.forEach((hz, i) => expect(Math.abs(hz - expected[i])).toBeLessThan(expected[i] * 0.05));

    // And it plays in the browser's own audio element.
    const duration = await page
      .locator('.audio-merge-result audio')
      .first()
      .evaluate(
        (el: HTMLAudioElement) =>
          new Promise<number>((resolve, reject) => {
            if (el.readyState >= 1) return resolve(el.duration);
            el.addEventListener('loadedmetadata', () => resolve(el.duration), { once: true });
            el.addEventListener('error', () => reject(new Error(`audio error ${el.error?.code}`)), {
              once: true,
            });
            el.load();
          }),
      );
    expect(duration).toBeGreaterThan(TONES.length * TONE_SECONDS - 0.5);
    expect(duration).toBeLessThan(TONES.length * TONE_SECONDS + 0.5);
  });

  it('on a phone: fits the screen, keeps host styles out, and reorders by touch', async () => {
    const phone = await work().browser.newContext({
      viewport: { width: 375, height: 1000 },
      isMobile: true,
      hasTouch: true,
      deviceScaleFactor: 1,
    });
    const p = await phone.newPage();
    try {
      await p.goto(work().server.url);
      // A host page with careless global CSS: none of it may reach the widget.
      await p.addStyleTag({
        content:
          'button { background: rgb(255, 0, 0); } button, p, li { font: 40px serif; margin: 30px; } li { padding: 25px; height: auto; } ol { display: grid; }',
      });
      await p.setInputFiles(
        '#audio-merge-file-input',
        TONES.slice(0, 2).map((t) => path.join(work().dir, t.name)),
      );
      await p.waitForSelector('.audio-merge-row >> nth=1', { timeout: 60_000 });
      expect(await rowNames(p)).toEqual([TONES[0].name, TONES[1].name]);

      const look = await p.evaluate(() => {
        const row = document.querySelector('.audio-merge-row')!;
        const title = document.querySelector('.audio-merge-title')!;
        const rect = row.getBoundingClientRect();
        return {
          pageWidth: document.documentElement.scrollWidth,
          rowWidth: rect.width,
          rowHeight: rect.height,
          titleFont: getComputedStyle(title).fontFamily,
          titleSize: getComputedStyle(title).fontSize,
          rowMargin: getComputedStyle(row).marginTop,
          buttonBackground: getComputedStyle(document.querySelector('.audio-merge-make')!).backgroundColor,
          uploadSummaryMargin: getComputedStyle(document.querySelector('.audio-merge-upload-summary')!)
            .marginTop,
          uploadSummaryFont: getComputedStyle(document.querySelector('.audio-merge-upload-summary')!)
            .fontSize,
        };
      });
      expect(look.pageWidth).toBeLessThanOrEqual(375);
      expect(look.rowWidth).toBeLessThanOrEqual(375);
      expect(look.rowHeight).toBe(120);
      expect(look.titleSize).toBe('17px');
      expect(look.titleFont).not.toMatch(/^serif$/);
      expect(look.rowMargin).toBe('0px');
      expect(look.buttonBackground).not.toBe('rgb(255, 0, 0)');
      expect(look.uploadSummaryMargin).toBe('12px');
      expect(look.uploadSummaryFont).toBe('14px');
      await p.screenshot({ path: path.join(SCREENSHOTS, 'phone.png'), fullPage: true });

      // Touch: press the first row's handle and slide it below the second.
      const handle = (await p
        .locator('.audio-merge-row')
        .first()
        .locator('.audio-merge-handle')
        .boundingBox())!;
      const second = (await p.locator('.audio-merge-row').nth(1).boundingBox())!;
      const cdp = await phone.newCDPSession(p);
      const x = handle.x + handle.width / 2;
      let y = handle.y + handle.height / 2;
      await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [{ x, y }] });
      const target = second.y + second.height - 10;
      while (y < target) {
        y = Math.min(target, y + 8);
        await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: [{ x, y }] });
      }
      await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
      await poll(() => rowNames(p)).toEqual([TONES[1].name, TONES[0].name]);
      expect(await rowPositions(p)).toEqual(['1', '2']);
    } finally {
      await phone.close();
    }
  });

  it("a refused upload shows the server's reason next to that file, and only good files become rows", async () => {
    const ctx = await work().browser.newContext({ viewport: { width: 900, height: 1200 } });
    const p = await ctx.newPage();
    try {
      await p.goto(work().server.url);
      const bogus = path.join(work().dir, 'not really.mp3');
      await writeFile(bogus, 'these are words, not sound\n'.repeat(200));
      await p.setInputFiles('#audio-merge-file-input', [path.join(work().dir, TONES[0].name), bogus]);
      const refusal = p.locator('.audio-merge-upload-item--failed [role="alert"]');
      await refusal.waitFor({ timeout: 60_000 });
      expect(await refusal.textContent()).toContain('not really.mp3');
      await p.waitForSelector('.audio-merge-row', { timeout: 60_000 });
      expect(await rowNames(p)).toEqual([TONES[0].name]);
      await p
        .locator('.audio-merge-upload')
        .screenshot({ path: path.join(SCREENSHOTS, 'upload-refused.png') });
    } finally {
      await ctx.close();
    }
  });
});
