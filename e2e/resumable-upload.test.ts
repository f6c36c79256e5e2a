// Resumable uploads in Chromium against the real server: a connection dropped part-way is retried
// and resumes at the server's offset, a reloaded page resumes the same file without starting over,
// and 200 files chosen at once are all stored, in the order chosen, none refused for rate.
import { createHash } from 'node:crypto';
import { copyFile, readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Page, Route } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { makeTone } from '../test/support/audio-fixtures.js';
import { pageItems, serverRun } from './harness.js';

const poll = <T>(fn: () => T | Promise<T>) => expect.poll(fn, { timeout: 120_000, interval: 100 });
const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');

const work = serverRun('audio-merge-e2e-tus-', async (dir) => {
  await makeTone(path.join(dir, 'chapter.wav'), { seconds: 40, frequency: 440 }); // ~7 MB
  await makeTone(path.join(dir, 'clip.wav'), {
    seconds: 0.2,
    frequency: 880,
    sampleRate: 8000,
    channels: 1,
  });
});

interface TusCall {
  method: string;
  offset: number | null;
}

/** A fresh browser profile on the host page, recording every tus request it sends. */
async function openPage(): Promise<{ page: Page; calls: TusCall[] }> {
  const page = await (await work().browser.newContext()).newPage();
  const calls: TusCall[] = [];
  page.on('request', (r) => {
    if (!r.url().includes('/app/merge/tus')) return;
    const offset = r.headers()['upload-offset'];
    calls.push({ method: r.method(), offset: offset === undefined ? null : Number(offset) });
  });
  await page.goto(work().server.url);
  await page.waitForSelector('.audio-merge-dropzone');
  return { page, calls };
}

/** The request carrying a file's last byte: a PATCH that starts past zero. */
const isLastPatch = (route: Route) =>
  route.request().method() === 'PATCH' && Number(route.request().headers()['upload-offset'] ?? 0) > 0;

describe('resumable uploads in a real browser', () => {
  it('a connection dropped part-way is retried and resumes at the server offset', async () => {
    const { page, calls } = await openPage();
    let dropped = false;
    await page.route('**/app/merge/tus/**', async (route) => {
      if (!dropped && isLastPatch(route)) {
        dropped = true;
        return route.abort('connectionreset');
      }
      return route.continue();
    });
    const file = path.join(work().dir, 'chapter.wav');
    const size = (await readFile(file)).length;
    await page.setInputFiles('#audio-merge-file-input', file);
    await poll(() => page.locator('.audio-merge-upload-summary').textContent()).toBe(
      '1 file uploaded. It is at the end of the list to order.',
    );

    expect(dropped).toBe(true);
    expect(calls).toEqual([
      { method: 'POST', offset: null },
      { method: 'PATCH', offset: 0 },
      { method: 'PATCH', offset: size - 1 }, // dropped
      { method: 'HEAD', offset: null },
      { method: 'PATCH', offset: size - 1 }, // resumed where the server stood
    ]);
    const [item] = await pageItems(page);
    const stored = await page.request.get(
      `${work().server.url}/upload/${item.sid}/${item.newfilename}.${item.format}`,
    );
    expect(sha256(await stored.body())).toBe(sha256(await readFile(file)));
    expect(await page.locator('.audio-merge-upload-error').count()).toBe(0);
    await page.context().close();
  });

  it('a page reloaded during an upload resumes the same file without starting over', async () => {
    const { page, calls } = await openPage();
    // The last byte never gets through on the first visit.
    await page.route('**/app/merge/tus/**', (route) => (isLastPatch(route) ? undefined : route.continue()));
    const file = path.join(work().dir, 'chapter.wav');
    const size = (await readFile(file)).length;
    await page.setInputFiles('#audio-merge-file-input', file);
    await poll(() => calls.filter((c) => c.method === 'PATCH').length).toBe(2);

    // Reloaded while the last byte is still held, so the old page can send nothing more.
    await page.reload();
    await page.waitForSelector('.audio-merge-dropzone');
    await page.unrouteAll({ behavior: 'ignoreErrors' });
    calls.length = 0;
    await page.setInputFiles('#audio-merge-file-input', file);
    await poll(() => page.locator('.audio-merge-upload-summary').textContent()).toBe(
      '1 file uploaded. It is at the end of the list to order.',
    );

    // No new upload was created: the server was asked where it stood, and only the rest was sent.
    expect(calls).toEqual([
      { method: 'HEAD', offset: null },
      { method: 'PATCH', offset: size - 1 },
    ]);
    expect((await pageItems(page)).map((i) => i.filename)).toEqual(['chapter.wav']);
    await page.context().close();
  });

  it('200 files chosen at once are all stored, in the order chosen, none refused for rate', async () => {
    const names = Array.from({ length: 200 }, (_, i) => `clip-${String(i + 1).padStart(3, '0')}.wav`);
    for (const name of names) await copyFile(path.join(work().dir, 'clip.wav'), path.join(work().dir, name));
    const { page } = await openPage();
    await page.setInputFiles(
      '#audio-merge-file-input',
      names.map((n) => path.join(work().dir, n)),
    );
    await poll(() => page.locator('.audio-merge-upload-summary').textContent()).toBe(
      '200 files uploaded. They are at the end of the list to order.',
    );
    expect(await page.locator('.audio-merge-upload-error').count()).toBe(0);
    expect((await pageItems(page)).map((i) => i.filename)).toEqual(names);
    await page.context().close();
  });
});
