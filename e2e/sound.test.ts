// End to end: open the sound options in the widget, ask for matched loudness and a gap, make the
// merge of a quiet and a loud file, and check the result a person downloads: both parts at the
// target loudness, and silence of the asked length between them.
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loudnessOf, toneAtLoudness } from '../test/support/loudness-fixtures.js';
import { decodeFloat, rmsDb } from '../test/support/pcm-measure.js';
import { onePageRun } from './harness.js';

const RATE = 44100;
const SECONDS = 4;
const GAP = 1.5;
const TARGET = -16; // stereo inputs: the panel's default target

const run = onePageRun('audio-merge-e2e-sound-', async (dir) => {
  await toneAtLoudness(path.join(dir, 'Quiet part.wav'), -30, SECONDS, RATE);
  await toneAtLoudness(path.join(dir, 'Loud part.mp3'), -10, SECONDS, RATE);
});

describe('the sound options in the widget', () => {
  it('matches the loudness of a quiet and a loud file and puts the gap asked for between them', async () => {
    const { server, page, dir } = run();
    await page.goto(server.url);
    await page.setInputFiles(
      '#audio-merge-file-input',
      ['Quiet part.wav', 'Loud part.mp3'].map((n) => path.join(dir, n)),
    );
    await expect.poll(() => page.locator('.audio-merge-row').count(), { timeout: 120_000 }).toBe(2);

    const toggle = page.getByRole('button', { name: 'Sound options' });
    expect(await toggle.getAttribute('aria-expanded')).toBe('false');
    await toggle.click();
    expect(await toggle.getAttribute('aria-expanded')).toBe('true');
    await page.getByRole('switch', { name: 'Match loudness' }).check();
    expect(await page.getByLabel('Loudness target').inputValue()).toBe(String(TARGET));
    // With nothing between files the Seconds box cannot be used, and looks it.
    const seconds = page.getByLabel('Seconds');
    const look = () =>
      seconds.evaluate((e) => {
        const s = getComputedStyle(e);
        return { color: s.color, background: s.backgroundColor, cursor: s.cursor };
      });
    await page.getByRole('radio', { name: 'Nothing' }).check();
    expect(await seconds.isDisabled()).toBe(true);
    const disabled = await look();
    expect(disabled.cursor).toBe('not-allowed');
    await page.getByRole('radio', { name: 'Silence' }).check();
    const enabled = await look();
    expect(disabled.background).not.toBe(enabled.background);
    expect(disabled.color).not.toBe(enabled.color);
    await page.getByLabel('Seconds').fill(String(GAP));
    await page.getByRole('button', { name: 'Make MP3' }).click();
    await page.waitForSelector('.audio-merge-result', { timeout: 120_000 });

    const result = page.locator('.audio-merge-result').first();
    expect(await result.getAttribute('data-format')).toBe('mp3');
    // The second part starts after the first and the gap.
    const second = Number(await result.locator('.audio-merge-chapter').nth(1).getAttribute('data-start'));
    expect(Math.abs(second - (SECONDS + GAP))).toBeLessThan(0.05);

    const href = (await result.locator('.audio-merge-download').getAttribute('href'))!;
    const download = await page.request.get(new URL(href, server.url).toString());
    expect(download.status()).toBe(200);
    const file = path.join(dir, 'result.mp3');
    await writeFile(file, await download.body());

    const pcm = await decodeFloat(file, RATE);
    // The parts and the gap, within a few frames (an MP3 part's own encoder padding stays inside).
    expect(Math.abs(pcm.length / RATE - (2 * SECONDS + GAP))).toBeLessThan(0.1);
    // Silence between the parts (a little in from each edge, for the encoder's smearing).
    expect(rmsDb(pcm, (SECONDS + 0.1) * RATE, (SECONDS + GAP - 0.1) * RATE)).toBeLessThan(-60);
    // Both parts within 1 LU of the target, 20 dB apart as they were uploaded.
    const quiet = await loudnessOf(file, 0.2, SECONDS - 0.4);
    const loud = await loudnessOf(file, SECONDS + GAP + 0.2, SECONDS - 0.4);
    expect(Math.abs(quiet.lufs - TARGET)).toBeLessThanOrEqual(1);
    expect(Math.abs(loud.lufs - TARGET)).toBeLessThanOrEqual(1);
    expect(Math.max(quiet.peak, loud.peak)).toBeLessThanOrEqual(-1);
  });
});
