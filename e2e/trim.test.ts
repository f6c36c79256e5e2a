// End to end: trimming a row in Chromium against the real server. The handles by keyboard and
// mouse, the span saved and there after a reload, the row's player playing only the kept span,
// and the merge holding exactly that span, measured on the decoded result.
import { copyFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeFloat } from '../test/support/pcm-measure.js';
import { loudRuns, makeToneWindow } from '../test/support/tone-edges.js';
import { seriousViolations } from './axe.js';
import { pageItems, SCREENSHOTS, serverRun } from './harness.js';

const RATE = 44100;
/** A name longer than a row has room for, as chapter files are often named. */
const LONG_NAME = 'Chapter 1 - The harbour.wav';
const MS = 0.001;
const pageErrors: string[] = [];
const poll = <T>(fn: () => T | Promise<T>) => expect.poll(fn, { timeout: 60_000, interval: 100 });

const work = serverRun('audio-merge-e2e-trim-', async (dir) => {
  // 6 s: silence, a tone from 2 s to 4 s, silence.
  await makeToneWindow(path.join(dir, 'window.wav'), {
    seconds: 6,
    from: 2,
    to: 4,
    frequency: 440,
    codec: ['-c:a', 'pcm_s16le'],
  });
  await makeToneWindow(path.join(dir, 'second.wav'), {
    seconds: 6,
    from: 1,
    to: 5,
    frequency: 660,
    codec: ['-c:a', 'pcm_s16le'],
  });
  await copyFile(path.join(dir, 'window.wav'), path.join(dir, LONG_NAME));
});
let page: Page;

beforeAll(async () => {
  page = await work().browser.newPage({ viewport: { width: 900, height: 1000 }, deviceScaleFactor: 2 });
  page.on('pageerror', (e) => pageErrors.push(String(e)));
});

afterAll(() => {
  if (pageErrors.length) console.log('browser errors:\n' + pageErrors.join('\n'));
});

const startHandle = (p: Page) => p.locator('.audio-merge-row .audio-merge-trim-start');
const endHandle = (p: Page) => p.locator('.audio-merge-row .audio-merge-trim-end');
const valueOf = async (l: ReturnType<typeof startHandle>) => Number(await l.getAttribute('aria-valuenow'));

/** A page of its own (a session of its own), with the given files uploaded and their handles shown. */
async function freshPage(files: string[], options: Parameters<Browser['newContext']>[0] = {}) {
  const context = await work().browser.newContext({
    viewport: { width: 900, height: 1000 },
    deviceScaleFactor: 2,
    ...options,
  });
  const p = await context.newPage();
  p.on('pageerror', (e) => pageErrors.push(String(e)));
  await p.goto(work().server.url);
  await p.setInputFiles(
    '#audio-merge-file-input',
    files.map((f) => path.join(work().dir, f)),
  );
  await expect
    .poll(() => p.locator('.audio-merge-row .audio-merge-trim-end').count(), { timeout: 60_000 })
    .toBe(files.length);
  return { context, p };
}

const rowNames = (p: Page) => p.locator('.audio-merge-row .audio-merge-filename').allTextContents();
const centre = (b: { x: number; y: number; width: number; height: number }) => ({
  x: b.x + b.width / 2,
  y: b.y + b.height / 2,
});

describe('trimming a row in a real browser', () => {
  it('sets the span by mouse and keyboard, keeps it over a reload, plays it, and merges exactly it', async () => {
    await page.goto(work().server.url);
    await page.setInputFiles('#audio-merge-file-input', [path.join(work().dir, 'window.wav')]);
    await page.waitForSelector('.audio-merge-row .audio-merge-trim-start', { timeout: 60_000 });
    const row = (await page.locator('.audio-merge-row').boundingBox())!;
    // 120 px high; as wide as its column gives (320 px, more on a desktop for long names).
    expect(row.height).toBe(120);
    expect(row.width).toBeGreaterThanOrEqual(320);
    expect(row.width).toBeLessThanOrEqual(560);
    expect(await endHandle(page).getAttribute('aria-valuenow')).toBe('6');

    // The waveform is drawn from the peaks, at the screen's pixel density: tall bars where the tone
    // sounds (2..4 s), none in the silence.
    const barHeight = (seconds: number) =>
      page.locator('.audio-merge-waveform canvas').evaluate((c: HTMLCanvasElement, at: number) => {
        const g = c.getContext('2d')!;
        const x = Math.round((at / 6) * c.width);
        const column = g.getImageData(x, 0, 1, c.height).data;
        let painted = 0;
        for (let y = 0; y < c.height; y++) if (column[y * 4 + 3] > 200) painted++;
        return { painted, height: c.height, cssHeight: c.clientHeight };
      }, seconds);
    await poll(async () => (await barHeight(3)).painted).toBeGreaterThan(0);
    const loud = await barHeight(3);
    // The tone peaks near 0.35 (half scale, spread from mono to stereo at -3 dB).
    expect(loud.painted).toBeGreaterThanOrEqual(loud.height * 0.25);
    expect(loud.height).toBe(Math.round(loud.cssHeight * (await page.evaluate(() => devicePixelRatio))));
    expect((await barHeight(0.5)).painted).toBeLessThanOrEqual(Math.ceil(loud.height / 20));

    // Mouse: the start handle dragged to the middle of the waveform lands near 3 s; the row stays put.
    const wave = (await page.locator('.audio-merge-waveform').boundingBox())!;
    const grip = (await startHandle(page).boundingBox())!;
    await page.mouse.move(grip.x + grip.width / 2, grip.y + grip.height / 2);
    await page.mouse.down();
    await page.mouse.move(wave.x + wave.width / 2, grip.y + grip.height / 2 + 30, { steps: 10 });
    // Mid-drag: the handle moves, the row is not lifted.
    expect(await page.locator('.audio-merge-row--lifted').count()).toBe(0);
    await page.mouse.up();
    const dragged = await valueOf(startHandle(page));
    expect(Math.abs(dragged - 3)).toBeLessThan((6 / wave.width) * 2 + 0.1);

    // Keyboard: Home, then 1 s and five tenths; the end 2 s and five tenths back from the end.
    await startHandle(page).focus();
    await page.keyboard.press('Home');
    await page.keyboard.press('PageUp');
    for (let i = 0; i < 5; i++) await page.keyboard.press('ArrowRight');
    await endHandle(page).focus();
    await page.keyboard.press('PageDown');
    await page.keyboard.press('PageDown');
    for (let i = 0; i < 5; i++) await page.keyboard.press('ArrowLeft');
    expect(await valueOf(startHandle(page))).toBe(1.5);
    expect(await valueOf(endHandle(page))).toBe(3.5);
    expect(await endHandle(page).getAttribute('aria-valuetext')).toBe('3.5 seconds');
    await poll(() => page.locator('.audio-merge-kept-length').textContent()).toBe('0:02.0');
    // The whole sentence for a screen reader, and as the tooltip.
    expect(await page.locator('.audio-merge-kept .audio-merge-visually-hidden').textContent()).toBe(
      '0:02.0 kept of 0:06.0',
    );
    expect(await page.locator('.audio-merge-kept').getAttribute('title')).toBe('0:02.0 kept of 0:06.0');

    // Saved once the handle rests, and there after a reload.
    await poll(async () => (await pageItems(page)).map((i) => [i.start, i.end])).toEqual([[1.5, 3.5]]);
    await page.reload();
    await page.waitForSelector('.audio-merge-row .audio-merge-trim-start');
    expect(await valueOf(startHandle(page))).toBe(1.5);
    expect(await valueOf(endHandle(page))).toBe(3.5);
    await page.locator('.audio-merge-row').screenshot({ path: path.join(SCREENSHOTS, 'trimmed-row.png') });

    // The row's player plays the kept span: it starts at 1.5 s and stops at 3.5 s.
    const played = await page.locator('.audio-merge-row audio').evaluate(
      (audio: HTMLAudioElement) =>
        new Promise<{ first: number; last: number; after: number }>((resolve, reject) => {
          let first = -1;
          let last = -1;
          audio.muted = true;
          const seen = () => {
            if (audio.paused) return;
            if (first < 0) first = audio.currentTime;
            last = Math.max(last, audio.currentTime);
          };
          audio.addEventListener('timeupdate', seen);
          audio.addEventListener('pause', () => resolve({ first, last, after: audio.currentTime }), {
            once: true,
          });
          audio.play().catch(reject);
        }),
    );
    expect(played.first).toBeGreaterThanOrEqual(1.5 - 0.05);
    expect(played.first).toBeLessThan(2);
    expect(played.last).toBeLessThan(3.5 + 0.1);
    expect(played.after).toBeCloseTo(1.5, 2);

    // The merge keeps exactly that span: the tone from 0.5 s (its start, 2 s, less 1.5) to the cut at 2 s.
    const items = (await pageItems(page)).map((i) => ({ id: i.id }));
    const answer = await page.evaluate(async (listed) => {
      const csrf = document.querySelector<HTMLMetaElement>('meta[name="csrf-token"]')!.content;
      const res = await fetch('/app/merge/mergemp3', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-csrf-token': csrf },
        body: JSON.stringify({ items: listed, options: { format: 'wav' } }),
      });
      return res.json() as Promise<unknown>;
    }, items);
    expect(answer).toBe('success');
    await page.reload();
    const href = (await page.locator('.audio-merge-download').first().getAttribute('href'))!;
    const download = await page.request.get(new URL(href, work().server.url).toString());
    expect(download.status()).toBe(200);
    const file = path.join(work().dir, 'merged.wav');
    await writeFile(file, await download.body());
    const pcm = await decodeFloat(file, RATE);
    expect(Math.abs(pcm.length / RATE - 2)).toBeLessThan(MS);
    const runs = loudRuns(pcm, RATE);
    expect(runs).toHaveLength(1);
    expect(Math.abs(runs[0].from - 0.5)).toBeLessThan(MS);
    expect(Math.abs(runs[0].to - 2)).toBeLessThan(MS);
    expect(pageErrors).toEqual([]);
  });

  it('on a phone: a handle follows a finger, and the row stays where it is', async () => {
    const phone = await work().browser.newContext({
      viewport: { width: 375, height: 800 },
      isMobile: true,
      hasTouch: true,
      deviceScaleFactor: 2,
    });
    const p = await phone.newPage();
    try {
      await p.goto(work().server.url);
      await p.setInputFiles('#audio-merge-file-input', [path.join(work().dir, 'window.wav')]);
      await p.waitForSelector('.audio-merge-row .audio-merge-trim-end', { timeout: 60_000 });
      const wave = (await p.locator('.audio-merge-waveform').boundingBox())!;
      const grip = (await endHandle(p).boundingBox())!;
      const rowBefore = (await p.locator('.audio-merge-row').boundingBox())!;
      const cdp = await phone.newCDPSession(p);
      let x = grip.x + grip.width / 2;
      const y = grip.y + grip.height / 2;
      await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [{ x, y }] });
      const target = wave.x + (wave.width * 2) / 3;
      while (x > target) {
        x = Math.max(target, x - 6);
        await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: [{ x, y }] });
      }
      expect(await p.locator('.audio-merge-row--lifted').count()).toBe(0);
      await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
      const at = await valueOf(endHandle(p));
      expect(Math.abs(at - 4)).toBeLessThan((6 / wave.width) * 2 + 0.1);
      expect(await p.locator('.audio-merge-row').boundingBox()).toEqual(rowBefore);
      await p
        .locator('.audio-merge-row')
        .screenshot({ path: path.join(SCREENSHOTS, 'trimmed-row-phone.png') });
    } finally {
      await phone.close();
    }
  });

  it('a handle dragged by mouse or finger across the other row moves only the handle, never a row; Reset keeps the whole file again', async () => {
    const { context, p } = await freshPage(['window.wav', 'second.wav'], { hasTouch: true });
    try {
      expect(await rowNames(p)).toEqual(['window.wav', 'second.wav']);
      const rows = p.locator('.audio-merge-row');
      // Mouse: the first row's end handle pulled down over the second row and left, past a row's height.
      const wave = (await rows.nth(0).locator('.audio-merge-waveform').boundingBox())!;
      const from = centre((await endHandle(p).nth(0).boundingBox())!);
      await p.mouse.move(from.x, from.y);
      await p.mouse.down();
      await p.mouse.move(wave.x + (wave.width * 2) / 3, from.y + 250, { steps: 15 });
      expect(await p.locator('.audio-merge-row--lifted').count()).toBe(0);
      await p.mouse.up();
      expect(Math.abs((await valueOf(endHandle(p).nth(0))) - 4)).toBeLessThan((6 / wave.width) * 2 + 0.1);

      // Touch: the second row's start handle pushed up over the first row and right.
      const cdp = await context.newCDPSession(p);
      const touch = centre((await startHandle(p).nth(1).boundingBox())!);
      const wave2 = (await rows.nth(1).locator('.audio-merge-waveform').boundingBox())!;
      await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [touch] });
      for (let k = 1; k <= 20; k++) {
        const point = { x: touch.x + ((wave2.x + wave2.width / 2 - touch.x) * k) / 20, y: touch.y - k * 12 };
        await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: [point] });
      }
      expect(await p.locator('.audio-merge-row--lifted').count()).toBe(0);
      await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
      expect(Math.abs((await valueOf(startHandle(p).nth(1))) - 3)).toBeLessThan((6 / wave2.width) * 2 + 0.1);

      // The order is the one uploaded, on screen and on the server; each trimmed row says so.
      await p.waitForTimeout(300);
      expect(await rowNames(p)).toEqual(['window.wav', 'second.wav']);
      await poll(async () => (await pageItems(p)).map((i) => [i.start === null, i.end === null])).toEqual([
        [true, false],
        [false, true],
      ]);
      expect((await pageItems(p)).map((i) => i.id)).toEqual(
        await rows.evaluateAll((r) => r.map((e) => (e as HTMLElement).dataset.id)),
      );
      const kept = await rows.nth(0).locator('.audio-merge-kept-length').textContent();
      expect(kept).toMatch(/^0:0[34]\.\d$/);

      // Reset: the whole file again, on screen and saved as null at both ends.
      await rows.nth(0).getByRole('button', { name: 'Keep all of window.wav' }).click();
      expect(await rows.nth(0).locator('.audio-merge-kept:visible').count()).toBe(0);
      expect(await valueOf(startHandle(p).nth(0))).toBe(0);
      expect(await valueOf(endHandle(p).nth(0))).toBe(6);
      await poll(async () => (await pageItems(p)).map((i) => [i.start, i.end])[0]).toEqual([null, null]);

      // The waveform is as sharp as the screen: its canvas holds two pixels for each CSS pixel.
      const canvas = await p
        .locator('.audio-merge-waveform canvas')
        .first()
        .evaluate((c: HTMLCanvasElement) => [c.width, c.height, c.clientWidth, c.clientHeight]);
      expect([canvas[0], canvas[1]]).toEqual([Math.round(canvas[2] * 2), Math.round(canvas[3] * 2)]);
    } finally {
      await context.close();
    }
  });

  for (const lang of ['en', 'ar']) {
    it(`${lang}: a trimmed row still shows its file name, with its kept length and a reset within reach`, async () => {
      const { context, p } = await freshPage([LONG_NAME], { extraHTTPHeaders: { 'Accept-Language': lang } });
      try {
        const row = p.locator('.audio-merge-row');
        const waveBefore = await row.locator('.audio-merge-waveform').boundingBox();
        await startHandle(p).focus();
        await p.keyboard.press('PageUp');
        await endHandle(p).focus();
        await p.keyboard.press('PageDown');
        await row.locator('.audio-merge-kept:visible').waitFor();
        // The waveform stays where it was, so a handle being dragged stays under the pointer.
        expect(await row.locator('.audio-merge-waveform').boundingBox()).toEqual(waveBefore);
        const box = async (selector: string) => (await row.locator(selector).boundingBox())!;
        const sized = (await row.boundingBox())!;
        expect(sized.height).toBe(120);
        expect(sized.width).toBeGreaterThanOrEqual(320);
        expect(sized.width).toBeLessThanOrEqual(560);
        // Most of the name is in sight: at least the first 20 of its characters are not hidden.
        const name = await row.locator('.audio-merge-filename').evaluate((el) => {
          // The name's text runs over its start and end parts: the range ends 20 characters in.
          const texts: Text[] = [];
          const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
          for (let n = walker.nextNode(); n; n = walker.nextNode()) texts.push(n as Text);
          const range = document.createRange();
          range.setStart(texts[0], 0);
          let left = 20;
          for (const t of texts) {
            if (left <= t.length) {
              range.setEnd(t, left);
              break;
            }
            left -= t.length;
          }
          return { shown: el.getBoundingClientRect().width, first20: range.getBoundingClientRect().width };
        });
        expect(name.shown).toBeGreaterThanOrEqual(180);
        expect(name.shown).toBeGreaterThanOrEqual(name.first20);
        // The kept length and the reset are in the row, the reset a 24 px target.
        const reset = await box('.audio-merge-trim-reset');
        const kept = await box('.audio-merge-kept');
        const rowBox = (await row.boundingBox())!;
        for (const b of [reset, kept]) {
          expect(b.x).toBeGreaterThanOrEqual(rowBox.x);
          expect(b.x + b.width).toBeLessThanOrEqual(rowBox.x + rowBox.width);
          expect(b.y + b.height).toBeLessThanOrEqual(rowBox.y + rowBox.height);
        }
        expect(reset.width).toBeGreaterThanOrEqual(24);
        expect(reset.height).toBeGreaterThanOrEqual(24);
        expect(await row.locator('.audio-merge-kept-length').textContent()).toBe('0:04.0');
        // No serious accessibility problem in the trimmed row (contrast, names, 24 px targets).
        expect(await seriousViolations(p)).toEqual([]);
        // Its title names what it does, as its accessible name does.
        const button = row.locator('.audio-merge-trim-reset');
        expect(await button.getAttribute('title')).toBe(await button.getAttribute('aria-label'));
        await button.click();
        await poll(() => row.locator('.audio-merge-kept:visible').count()).toBe(0);
        expect(await valueOf(startHandle(p))).toBe(0);
      } finally {
        await context.close();
      }
    });
  }

  it('right to left (ar): the time axis stays left to right, and each arrow moves a handle its way', async () => {
    const { context, p } = await freshPage(['window.wav'], { extraHTTPHeaders: { 'Accept-Language': 'ar' } });
    try {
      expect(await p.locator('html').getAttribute('dir')).toBe('rtl');
      const x = async (l: ReturnType<typeof startHandle>) => centre((await l.boundingBox())!).x;
      // The start of the file is at the left, as in media players everywhere.
      expect(await x(startHandle(p))).toBeLessThan(await x(endHandle(p)));
      await startHandle(p).focus();
      await p.keyboard.press('PageUp');
      const before = await x(startHandle(p));
      await p.keyboard.press('ArrowRight');
      expect(await valueOf(startHandle(p))).toBe(1.1);
      expect(await x(startHandle(p))).toBeGreaterThan(before);
      await p.keyboard.press('ArrowLeft');
      await p.keyboard.press('ArrowLeft');
      expect(await valueOf(startHandle(p))).toBe(0.9);
      expect(await x(startHandle(p))).toBeLessThan(before);
      // Spoken in Arabic.
      expect(await startHandle(p).getAttribute('aria-valuetext')).not.toMatch(/second/);
      // A mouse drag to two thirds of the waveform sets the end at two thirds of the file.
      const wave = (await p.locator('.audio-merge-waveform').boundingBox())!;
      const grip = centre((await endHandle(p).boundingBox())!);
      await p.mouse.move(grip.x, grip.y);
      await p.mouse.down();
      await p.mouse.move(wave.x + (wave.width * 2) / 3, grip.y, { steps: 8 });
      await p.mouse.up();
      expect(Math.abs((await valueOf(endHandle(p))) - 4)).toBeLessThan((6 / wave.width) * 2 + 0.1);
      await p.locator('.audio-merge-row').screenshot({ path: path.join(SCREENSHOTS, 'trimmed-row-ar.png') });
    } finally {
      await context.close();
    }
  });
});
