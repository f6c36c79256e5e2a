// End to end: a person sets the book's details, cover, chapter titles, format and quality in the
// widget; they are there after a reload and after the merge, and the downloaded file carries them.
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { parseFile } from 'music-metadata';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { ffprobeJson, makeTone } from '../test/support/audio-fixtures.js';
import { ffprobeChapters } from '../test/support/chapter-readers.js';
import { makeImage } from '../test/support/pictures.js';
import { onePageRun, pageItems } from './harness.js';

// The first and the last carry a title tag, the middle one none: its default title is its name.
const FILES = [
  { name: 'Part one.mp3', tag: 'Opening credits' },
  { name: 'Part two.mp3', tag: undefined },
  { name: 'Part three.mp3', tag: 'Homecoming' },
];
const poll = <T>(fn: () => T | Promise<T>) => expect.poll(fn, { timeout: 120_000, interval: 100 });

const run = onePageRun('audio-merge-e2e-book-', async (dir) => {
  for (const [i, f] of FILES.entries())
    await makeTone(path.join(dir, f.name), {
      seconds: 3,
      frequency: 400 + 300 * i,
      extraArgs: f.tag ? ['-metadata', `title=${f.tag}`] : [],
    });
  await makeImage(path.join(dir, 'cover.png'), { colour: 'blue', size: '60x60' });
});

const titleFields = (page: Page) => page.locator('.audio-merge-row .audio-merge-chapter-title');
const rowNames = (page: Page) => page.locator('.audio-merge-row .audio-merge-filename').allTextContents();
const NAMES = FILES.map((f) => f.name);

/** Keys and a mouse drag in a row's title field: the text changes, the rows never move. */
async function typeAndPressInTitle(page: Page): Promise<void> {
  const field = titleFields(page).first();
  await field.click();
  await page.keyboard.type('a b');
  for (const key of ['Space', 'ArrowDown', 'ArrowUp', 'End', 'Home', 'Enter']) await page.keyboard.press(key);
  expect(await page.locator('.audio-merge-row--lifted').count()).toBe(0);
  const box = (await field.boundingBox())!;
  await page.mouse.move(box.x + 10, box.y + box.height / 2);
  await page.mouse.down();
  await page.mouse.move(box.x + 10, box.y + 260, { steps: 12 });
  expect(await page.locator('.audio-merge-row--lifted').count()).toBe(0);
  await page.mouse.up();
  await page.waitForTimeout(300);
  expect(await rowNames(page)).toEqual(NAMES);
  expect(await field.inputValue()).toBe('a b ');
}

describe('the book in the widget', () => {
  it('keeps the details, cover, chapter titles, format and quality through a reload and a merge, and writes them', async () => {
    const { server, page, dir } = run();
    await page.goto(server.url);
    await page.setInputFiles(
      '#audio-merge-file-input',
      FILES.map((f) => path.join(dir, f.name)),
    );
    await poll(() => page.locator('.audio-merge-row').count()).toBe(3);

    // Each row's chapter title field shows the title the merge would give it by default.
    expect(
      await titleFields(page).evaluateAll((l) => l.map((e) => (e as HTMLInputElement).placeholder)),
    ).toEqual(['Opening credits', 'Part two', 'Homecoming']);
    expect(await page.getByRole('textbox', { name: 'Chapter title of Part two.mp3' }).count()).toBe(1);
    await typeAndPressInTitle(page);
    // What the server refuses (control and bidirectional control characters) never reaches it:
    // the field leaves it out as it is typed, so nothing is refused on the row.
    await titleFields(page).nth(1).fill('The\u0007Ri\u202ever');
    await poll(() => titleFields(page).nth(1).inputValue()).toBe('TheRiver');
    const refusal = page.locator('.audio-merge-row').nth(1).getByRole('alert');
    expect(await titleFields(page).nth(1).getAttribute('aria-invalid')).toBeNull();
    await titleFields(page).nth(0).fill('The Road');
    await titleFields(page).nth(1).fill('The River');
    await poll(() => refusal.count()).toBe(0);
    await poll(async () => (await pageItems(page)).map((i) => i.chapterTitle)).toEqual([
      'The Road',
      'The River',
      null,
    ]);

    await page.getByLabel('Format').selectOption('m4b');
    await page.getByLabel('Quality').selectOption('speechSmall');
    expect(await page.getByRole('button', { name: 'Make M4B' }).count()).toBe(1);
    const toggle = page.getByRole('button', { name: 'Book details' });
    await toggle.focus();
    await page.keyboard.press('Enter');
    expect(await toggle.getAttribute('aria-expanded')).toBe('true');
    await page.getByLabel('Title', { exact: true }).fill('The Long Walk');
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
    await poll(() => page.locator('.audio-merge-row').count()).toBe(3);
    expect(await titleFields(page).evaluateAll((l) => l.map((e) => (e as HTMLInputElement).value))).toEqual([
      'The Road',
      'The River',
      '',
    ]);
    await poll(() => page.getByLabel('Format').inputValue()).toBe('m4b');
    expect(await page.getByLabel('Quality').inputValue()).toBe('speechSmall');
    await page.getByRole('button', { name: 'Book details' }).click();
    expect(await page.getByLabel('Title', { exact: true }).inputValue()).toBe('The Long Walk');
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

    // The chapters carry the titles typed, and the default title where none was typed.
    const chapters = await ffprobeChapters(saved);
    expect(chapters.map((c) => c.title)).toEqual(['The Road', 'The River', 'Homecoming']);
    chapters.forEach((c, i) => expect(Math.abs(c.start - 3 * i)).toBeLessThan(0.1));
    const mm = await parseFile(saved, { includeChapters: true });
    expect(mm.format.chapters?.map((c) => c.title)).toEqual(['The Road', 'The River', 'Homecoming']);
    expect(mm.common).toMatchObject({ title: 'The Long Walk', artist: 'A. Writer', composer: ['N. Reader'] });
    expect(mm.common.picture?.[0]?.format).toBe('image/png');
    expect(mm.common.picture?.[0]?.data.length).toBeGreaterThan(0);
  });
});
