// End to end: a part that carries chapters of its own (an M4B with "Inner One" and "Inner Two")
// shows, in place of a chapter title field, that it keeps them; the merged book has them, moved
// to where the part starts, with the title typed for the plain file after them.
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeChaptered, makeTone } from '../test/support/audio-fixtures.js';
import { ffprobeChapters } from '../test/support/chapter-readers.js';
import { onePageRun } from './harness.js';

const poll = <T>(fn: () => T | Promise<T>) => expect.poll(fn, { timeout: 120_000, interval: 100 });

const run = onePageRun('audio-merge-e2e-own-chapters-', async (dir) => {
  await makeChaptered(path.join(dir, 'Part Book.m4b'), [
    ['Inner One', 0],
    ['Inner Two', 2],
  ]);
  await makeTone(path.join(dir, 'Epilogue.mp3'), { seconds: 2, frequency: 660 });
});

describe("a part's own chapters in the widget", () => {
  it('the row says it keeps its 2 chapters, has no title field, and the book carries them', async () => {
    const { server, page, dir } = run();
    await page.goto(server.url);
    await page.setInputFiles('#audio-merge-file-input', [
      path.join(dir, 'Part Book.m4b'),
      path.join(dir, 'Epilogue.mp3'),
    ]);
    await poll(() => page.locator('.audio-merge-row').count()).toBe(2);
    const part = page.locator('.audio-merge-row').nth(0);
    const plain = page.locator('.audio-merge-row').nth(1);

    await poll(() => part.locator('.audio-merge-own-chapters').textContent()).toBe('Keeps its 2 chapters');
    expect(await part.getByRole('textbox').count()).toBe(0);
    expect(await page.locator('[placeholder="Part Book"]').count()).toBe(0);
    const field = plain.getByRole('textbox', { name: 'Chapter title of Epilogue.mp3' });
    await field.fill('The End');

    await page.getByLabel('Format').selectOption('m4b');
    // The typed title is saved after a short pause: wait until the server has it.
    const titles = () =>
      page.evaluate(async () => {
        const csrf = document.querySelector<HTMLMetaElement>('meta[name="csrf-token"]')!.content;
        const appid = document.getElementById('audio-merge-tool')!.dataset.appid;
        const res = await fetch('/app/merge/getDataJson', {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-csrf-token': csrf },
          body: JSON.stringify({ appid }),
        });
        return (JSON.parse(await res.text()) as Array<{ chapterTitle: string | null }>).map(
          (i) => i.chapterTitle,
        );
      });
    await poll(titles).toEqual([null, 'The End']);

    await page.getByRole('button', { name: 'Make M4B' }).click();
    await page.waitForSelector('.audio-merge-result', { timeout: 120_000 });
    const href = (await page
      .locator('.audio-merge-result .audio-merge-download')
      .first()
      .getAttribute('href'))!;
    const saved = path.join(dir, 'downloaded.m4b');
    await writeFile(saved, await (await page.request.get(new URL(href, server.url).toString())).body());
    const chapters = await ffprobeChapters(saved);
    expect(chapters.map((c) => c.title)).toEqual(['Inner One', 'Inner Two', 'The End']);
    // The part's second chapter lies 2 s into it; the epilogue starts where the 4 s part ends.
    expect(Math.abs(chapters[1].start - 2)).toBeLessThan(0.1);
    expect(Math.abs(chapters[2].start - 4)).toBeLessThan(0.1);
  });
});
