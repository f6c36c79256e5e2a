// End to end: choose M4B in the widget, make it, and find an .m4b result whose chapters the
// results list shows and whose player seeks to a chapter on a click.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeTone } from '../test/support/audio-fixtures.js';
import { onePageRun } from './harness.js';

const FILES = [
  { name: 'Opening.wav', seconds: 3, frequency: 400 },
  { name: 'Second part.mp3', seconds: 4, frequency: 800 },
];

const poll = <T>(fn: () => T | Promise<T>) => expect.poll(fn, { timeout: 120_000, interval: 100 });

const run = onePageRun('audio-merge-e2e-formats-', async (dir) => {
  for (const f of FILES)
    await makeTone(path.join(dir, f.name), { seconds: f.seconds, frequency: f.frequency });
});

describe('choosing a format in the widget', () => {
  it('makes an M4B whose chapters the results list shows, and a click on one seeks its player', async () => {
    const { server, page, dir } = run();
    await page.goto(server.url);
    await page.setInputFiles(
      '#audio-merge-file-input',
      FILES.map((f) => path.join(dir, f.name)),
    );
    await poll(() => page.locator('.audio-merge-row').count()).toBe(2);

    await page.getByLabel('Format').selectOption('m4b');
    expect(await page.getByLabel('Chapters').isChecked()).toBe(true);
    await page.getByRole('button', { name: 'Make M4B' }).click();
    await page.waitForSelector('.audio-merge-result', { timeout: 120_000 });

    const result = page.locator('.audio-merge-result').first();
    expect(await result.getAttribute('data-format')).toBe('m4b');
    expect(await result.locator('.audio-merge-format').textContent()).toBe('M4B');
    expect(await result.locator('audio').getAttribute('src')).toMatch(/\.m4b$/);
    const chapters = result.locator('.audio-merge-chapter');
    const start = Number(await chapters.nth(1).getAttribute('data-start'));
    expect(start).toBeGreaterThan(2.9);
    expect(start).toBeLessThan(3.1);
    // Truncated to the second, as the player shows the moment the chapter starts.
    expect(await chapters.allTextContents()).toEqual(['0:00 Opening', `0:0${Math.floor(start)} Second part`]);

    await chapters.nth(1).click();
    await poll(() =>
      result.locator('audio').evaluate((el: HTMLAudioElement) => el.currentTime),
    ).toBeGreaterThanOrEqual(start - 0.05);
    const played = await result.locator('audio').evaluate((el: HTMLAudioElement) => el.currentTime);
    expect(played).toBeLessThan(start + 2);

    const href = (await result.locator('.audio-merge-download').getAttribute('href'))!;
    const download = await page.request.get(new URL(href, server.url).toString());
    expect(download.headers()['content-type']).toBe('audio/mp4');
    expect(download.headers()['content-disposition']).toMatch(
      /filename="Opening \d{4}-\d\d-\d\d \d{4}\.m4b"/,
    );
  });
});
