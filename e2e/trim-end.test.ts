// End to end: a trim end handle moved to the end of an MP3 (End key) in Chromium, then Make: the
// merge succeeds and holds the whole file. The page, the server and the engine use one length
// for the MP3 (its decoded one, without the encoder's delay and padding), so the end the page
// saves is an end the merge finds inside the file.
import { execFile } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { makeTone } from '../test/support/audio-fixtures.js';
import { decodeFloat } from '../test/support/pcm-measure.js';
import { pageItems, serverRun } from './harness.js';

const RATE = 44100;
const SECONDS = 8.3;
/** One MP3 frame: the most a whole file merged into MP3 may differ from its own decoded length. */
const MP3_FRAME = 1152 / RATE;
const pageErrors: string[] = [];
const poll = <T>(fn: () => T | Promise<T>) => expect.poll(fn, { timeout: 60_000, interval: 100 });

const work = serverRun('audio-merge-e2e-trim-end-', async (dir) => {
  await makeTone(path.join(dir, 'source.wav'), { seconds: SECONDS, frequency: 440 });
  // VBR with LAME's tag: its frames hold more than it decodes to (the encoder's delay and padding).
  await promisify(execFile)('lame', [
    '--quiet',
    '-V',
    '4',
    path.join(dir, 'source.wav'),
    path.join(dir, 'chapter.mp3'),
  ]);
});
let page: Page;

beforeAll(async () => {
  page = await work().browser.newPage({ viewport: { width: 900, height: 1000 } });
  page.on('pageerror', (e) => pageErrors.push(String(e)));
});

const endHandle = (p: Page) => p.locator('.audio-merge-row .audio-merge-trim-end');

describe("an MP3's end handle moved to the end", () => {
  it('End key, then Make: success, and the result holds the whole file', async () => {
    await page.goto(work().server.url);
    await page.setInputFiles('#audio-merge-file-input', [path.join(work().dir, 'chapter.mp3')]);
    await page.waitForSelector('.audio-merge-row .audio-merge-trim-end', { timeout: 60_000 });
    const [item] = await pageItems(page);
    expect(Math.abs(item.duration - SECONDS)).toBeLessThanOrEqual(1 / RATE);

    // Back a second, saved; then End: the handle at the file's end.
    await endHandle(page).focus();
    await page.keyboard.press('PageDown');
    await poll(async () => (await pageItems(page))[0].end).not.toBeNull();
    await page.keyboard.press('End');
    expect(Number(await endHandle(page).getAttribute('aria-valuenow'))).toBeCloseTo(item.duration, 1);
    // Saved as the end of the file.
    await poll(async () => (await pageItems(page))[0].end ?? item.duration).toBeGreaterThanOrEqual(
      item.duration,
    );

    await page.getByRole('button', { name: 'Make MP3' }).click();
    await page.waitForSelector('.audio-merge-result', { timeout: 120_000 });
    const href = (await page
      .locator('.audio-merge-result .audio-merge-download')
      .first()
      .getAttribute('href'))!;
    const download = await page.request.get(new URL(href, work().server.url).toString());
    expect(download.status()).toBe(200);
    const file = path.join(work().dir, 'merged.mp3');
    await writeFile(file, await download.body());
    const pcm = await decodeFloat(file, RATE);
    expect(Math.abs(pcm.length / RATE - item.duration)).toBeLessThanOrEqual(MP3_FRAME);
    expect(pageErrors).toEqual([]);
  });
});
