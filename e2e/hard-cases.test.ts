// End to end, the cases a person meets when things go wrong or change under them: a merge that
// fails, a realtime port nobody answers, and files uploaded after the list was already ordered.
import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { makeTone } from '../test/support/audio-fixtures.js';
import { afterQueuedTimers, SCREENSHOTS, serverRun } from './harness.js';

const work = serverRun('audio-merge-e2e-hard-', async (dir) => {
  for (const [name, frequency] of [
    ['a.wav', 300],
    ['b.wav', 600],
    ['c.wav', 900],
  ] as const) {
    await makeTone(path.join(dir, name), { seconds: 2, frequency });
  }
});
const dataDir = () => path.join(work().dir, 'data');
const tone = (name: string) => path.join(work().dir, name);
const poll = <T>(fn: () => T | Promise<T>) => expect.poll(fn, { timeout: 60_000, interval: 100 });
const rowNames = (p: Page) => p.locator('.audio-merge-row .audio-merge-filename').allTextContents();

/** A fresh browser session with `files` uploaded through the page and shown as rows. */
async function sessionWith(files: string[]): Promise<Page> {
  const ctx = await work().browser.newContext({ viewport: { width: 900, height: 1200 } });
  const page = await ctx.newPage();
  await page.goto(work().server.url);
  if (files.length === 0) return page;
  await page.setInputFiles('#audio-merge-file-input', files.map(tone));
  await page.waitForSelector(`.audio-merge-row >> nth=${files.length - 1}`, { timeout: 60_000 });
  return page;
}

async function markBeforeReload(page: Page) {
  await page.evaluate(() => ((window as unknown as { beforeReload: boolean }).beforeReload = true));
}
const reloaded = (page: Page) =>
  page.evaluate(() => (window as unknown as { beforeReload?: boolean }).beforeReload === undefined);

describe('the widget when things go wrong', () => {
  it('a 200-character name and one with <script> in it: shown as text, the size stays readable, nothing overflows', async () => {
    const long = `${'long name '.repeat(19)}end of it.wav`.slice(-200);
    // No slash: the server keeps only what follows the last one, as browsers send base names.
    const script = '<script>alert(1)<img src=x onerror=alert(2)>.wav';
    const page = await sessionWith([]);
    try {
      // A name with a slash cannot be a file here; the browser sends it as chosen all the same.
      const sound = await readFile(tone('a.wav'));
      // Hold the uploads, so their lines can be looked at before they give way to the summary.
      let release!: () => void;
      const held = new Promise<void>((r) => (release = r));
      await page.route('**/app/merge/upload', async (route) => {
        await held;
        await route.continue();
      });
      await page.setInputFiles(
        '#audio-merge-file-input',
        [long, script].map((name) => ({ name, mimeType: 'audio/wav', buffer: sound })),
      );
      await page.waitForSelector('.audio-merge-upload-item >> nth=1');
      const uploads = await page.evaluate(() =>
        Array.from(document.querySelectorAll('.audio-merge-upload-item'), (row) => {
          const size = row.querySelector('.audio-merge-upload-size')?.getBoundingClientRect();
          const name = row.querySelector('.audio-merge-upload-name')!.getBoundingClientRect();
          return {
            sizeShown: !!size && size.width > 0 && size.left >= name.left && size.right <= name.right + 0.5,
          };
        }),
      );
      expect(uploads).toEqual([{ sizeShown: true }, { sizeShown: true }]);
      await page
        .locator('.audio-merge-upload')
        .screenshot({ path: path.join(SCREENSHOTS, 'long-names.png') });
      release();
      await page.waitForSelector('.audio-merge-row >> nth=1', { timeout: 60_000 });
      expect(await rowNames(page)).toEqual([long, script]);
      expect(
        await page
          .locator('#audio-merge-tool script, #audio-merge-tool img, .audio-merge-upload img')
          .count(),
      ).toBe(0);
      const look = await page.evaluate(() => ({
        pageWidth: document.documentElement.scrollWidth,
        viewport: window.innerWidth,
        rowsOverflow: Array.from(document.querySelectorAll('.audio-merge-row')).some(
          (r) => r.scrollWidth > r.clientWidth,
        ),
      }));
      expect(look.pageWidth).toBeLessThanOrEqual(look.viewport);
      expect(look.rowsOverflow).toBe(false);
    } finally {
      await page.context().close();
    }
  });

  it("a failed merge shows the server's reason as the status, and the progress view stays", async () => {
    const page = await sessionWith(['a.wav', 'b.wav']);
    try {
      // The stored copy of a.wav turns into text after it was accepted.
      const src = (await page.locator('.audio-merge-row audio').first().getAttribute('src'))!;
      const stored = decodeURIComponent(src.split('/').pop()!);
      const sessions = await readdir(path.join(dataDir(), 'uploads'));
      const owner = [];
      for (const s of sessions)
        if ((await readdir(path.join(dataDir(), 'uploads', s))).includes(stored)) owner.push(s);
      expect(owner).toHaveLength(1);
      await writeFile(path.join(dataDir(), 'uploads', owner[0], stored), 'not sound at all\n'.repeat(100));

      await markBeforeReload(page);
      const answer = page.waitForResponse('**/app/merge/mergemp3', { timeout: 120_000 });
      await page.getByRole('button', { name: 'Make MP3' }).click();
      expect((await answer).status()).toBeGreaterThanOrEqual(400);
      await poll(() => page.locator('.audio-merge-status').textContent()).toContain('a.wav');
      expect(await page.locator('.audio-merge-progress').count()).toBe(1);
      expect(await page.locator('.audio-merge-row').count()).toBe(0);
      expect(await reloaded(page)).toBe(false);
    } finally {
      await page.context().close();
    }
  });

  it('with the realtime port unreachable, make still posts and the page reloads on success', async () => {
    const page = await sessionWith(['a.wav', 'b.wav']);
    try {
      await page.route(`http://127.0.0.1:${work().server.socketPort}/**`, (route) => route.abort());
      await markBeforeReload(page);
      await page.getByRole('button', { name: 'Make MP3' }).click();
      await page.waitForSelector('.audio-merge-result', { timeout: 120_000 });
      expect(await reloaded(page)).toBe(true);
      expect(await page.locator('.audio-merge-result .audio-merge-sources li').allTextContents()).toEqual([
        'a.wav',
        'b.wav',
      ]);
    } finally {
      await page.context().close();
    }
  });

  it('the widget panel lines up with the upload and results panels, on a desktop and on a phone', async () => {
    const page = await sessionWith(['a.wav']);
    try {
      for (const width of [1280, 375]) {
        await page.setViewportSize({ width, height: 900 });
        const look = await page.evaluate(() => {
          const box = (sel: string) => document.querySelector(sel)!.getBoundingClientRect();
          const panel = (sel: string) => {
            const cs = getComputedStyle(document.querySelector(sel)!);
            return {
              border: cs.borderTopColor,
              radius: cs.borderTopLeftRadius,
              left: box(sel).left,
              right: box(sel).right,
            };
          };
          return {
            contentLefts: [
              box('.audio-merge-upload h2').left,
              box('.audio-merge-title').left,
              box('.audio-merge-results h2').left,
            ],
            panels: [panel('.audio-merge-upload'), panel('#audio-merge-tool'), panel('.audio-merge-results')],
          };
        });
        expect(new Set(look.contentLefts).size, `text edges at ${width} px: ${look.contentLefts}`).toBe(1);
        expect(look.panels[1]).toEqual(look.panels[0]);
        expect(look.panels[2]).toEqual(look.panels[0]);
      }
    } finally {
      await page.context().close();
    }
  });

  it('make scrolls the window to the top (docs/reference/widget.md), even on a short phone screen', async () => {
    const page = await sessionWith(['a.wav', 'b.wav']);
    try {
      await page.setViewportSize({ width: 375, height: 450 });
      // The merge answer never comes here; only the scroll is looked at.
      await page.route('**/app/merge/mergemp3', () => {});
      await page.locator('.audio-merge-make').scrollIntoViewIfNeeded();
      expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(0);
      await page.getByRole('button', { name: 'Make MP3' }).click();
      await page.waitForSelector('.audio-merge-progress');
      await poll(() => page.evaluate(() => document.activeElement?.className)).toBe('audio-merge-progress');
      expect(await page.evaluate(() => window.scrollY)).toBe(0);
    } finally {
      await page.context().close();
    }
  });

  it('a file uploaded after reordering joins the end; the order already chosen stays', async () => {
    const page = await sessionWith(['a.wav', 'b.wav']);
    try {
      await page.locator('.audio-merge-row', { hasText: 'a.wav' }).focus();
      await page.keyboard.press('Space');
      await poll(() => page.locator('[aria-live]').allTextContents()).toContainEqual(
        expect.stringContaining('Picked up a.wav'),
      );
      await afterQueuedTimers(page);
      await page.keyboard.press('ArrowDown');
      await poll(() => page.locator('[aria-live]').allTextContents()).toContainEqual(
        expect.stringContaining('moved to position 2'),
      );
      await page.keyboard.press('Space');
      await poll(() => rowNames(page)).toEqual(['b.wav', 'a.wav']);

      await page.setInputFiles('#audio-merge-file-input', [tone('c.wav')]);
      await poll(() => rowNames(page)).toEqual(['b.wav', 'a.wav', 'c.wav']);
      expect(await page.getByRole('status').filter({ hasText: 'uploaded' }).textContent()).toBe(
        '1 file uploaded. It is at the end of the list to order.',
      );
    } finally {
      await page.context().close();
    }
  });
});
