// End to end: a person sets the book's details, cover, format and quality in the widget; they are
// there after a reload and after the merge, and the downloaded file carries them.
import { execFile } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { ffprobeJson, makeTone, tools } from '../test/support/audio-fixtures.js';
import { onePageRun } from './harness.js';

const exec = promisify(execFile);
const FILES = ['Part one.mp3', 'Part two.mp3'];
const poll = <T>(fn: () => T | Promise<T>) => expect.poll(fn, { timeout: 120_000, interval: 100 });

const run = onePageRun('audio-merge-e2e-book-', async (dir) => {
  for (const [i, name] of FILES.entries())
    await makeTone(path.join(dir, name), { seconds: 3, frequency: 400 + 300 * i });
  await exec(tools.ffmpeg, [
    '-v',
    'error',
    '-y',
    '-f',
    'lavfi',
    '-i',
    'color=c=blue:s=60x60',
    '-frames:v',
    '1',
    path.join(dir, 'cover.png'),
  ]);
});

describe('the book in the widget', () => {
  it('keeps the details, cover, format and quality through a reload and a merge, and writes them', async () => {
    const { server, page, dir } = run();
    await page.goto(server.url);
    await page.setInputFiles(
      '#audio-merge-file-input',
      FILES.map((f) => path.join(dir, f)),
    );
    await poll(() => page.locator('.audio-merge-row').count()).toBe(2);

    await page.getByLabel('Format').selectOption('m4b');
    await page.getByLabel('Quality').selectOption('speechSmall');
    expect(await page.getByRole('button', { name: 'Make M4B' }).count()).toBe(1);
    const toggle = page.getByRole('button', { name: 'Book details' });
    await toggle.focus();
    await page.keyboard.press('Enter');
    expect(await toggle.getAttribute('aria-expanded')).toBe('true');
    await page.getByLabel('Title').fill('The Long Walk');
    await page.getByLabel('Author').fill('A. Writer');
    await page.getByLabel('Narrator').fill('N. Reader');
    await page.getByLabel('Cover').setInputFiles(path.join(dir, 'cover.png'));
    await page.waitForSelector('.audio-merge-cover-preview');

    // WAV holds no chapters: the switch gives way to a note.
    await page.getByLabel('Format').selectOption('wav');
    expect(await page.getByLabel('Chapters').count()).toBe(0);
    expect(await page.locator('.audio-merge-no-chapters').textContent()).toBe('WAV files carry no chapters.');
    await page.getByLabel('Format').selectOption('m4b');
    // The choices are saved after a short pause: wait until the server has them.
    const appid = await page.locator('#audio-merge-tool').getAttribute('data-appid');
    const kept = async () =>
      (await page.request.get(new URL(`/app/merge/choices?appid=${appid}`, server.url).toString())).json();
    await poll(kept).toMatchObject({ format: 'm4b', bitrate: 64, channels: 1, narrator: 'N. Reader' });

    await page.reload();
    await poll(() => page.locator('.audio-merge-row').count()).toBe(2);
    await poll(() => page.getByLabel('Format').inputValue()).toBe('m4b');
    expect(await page.getByLabel('Quality').inputValue()).toBe('speechSmall');
    await page.getByRole('button', { name: 'Book details' }).click();
    expect(await page.getByLabel('Title').inputValue()).toBe('The Long Walk');
    expect(await page.getByLabel('Narrator').inputValue()).toBe('N. Reader');
    await page.waitForSelector('.audio-merge-cover-preview');

    await page.getByRole('button', { name: 'Make M4B' }).click();
    await page.waitForSelector('.audio-merge-result', { timeout: 120_000 });
    await poll(() => page.getByLabel('Format').inputValue()).toBe('m4b');
    expect(await page.getByLabel('Quality').inputValue()).toBe('speechSmall');

    const href = (await page
      .locator('.audio-merge-result .audio-merge-download')
      .first()
      .getAttribute('href'))!;
    const download = await page.request.get(new URL(href, server.url).toString());
    const saved = path.join(dir, 'downloaded.m4b');
    await writeFile(saved, await download.body());
    const probed = await ffprobeJson(saved);
    expect(probed.format.tags).toMatchObject({
      title: 'The Long Walk',
      artist: 'A. Writer',
      composer: 'N. Reader',
    });
    const audio = probed.streams.find((s) => s.codec_type === 'audio')!;
    expect(audio.channels).toBe(1);
    expect(probed.streams.some((s) => s.codec_type === 'video')).toBe(true);
  });
});
