// End to end, a person is never stuck: rows removed by mouse and keyboard, an order that survives
// a reload, two tabs merging at once, a reload mid-merge, cancel, and a server killed mid-merge.
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { makeTone, tempDir } from '../test/support/audio-fixtures.js';
import { childrenNamed, waitUntilGone } from '../test/support/processes.js';
import {
  afterQueuedTimers,
  pageItems,
  SCREENSHOTS,
  serverRun,
  startServer,
  type RunningServer,
} from './harness.js';

const INTERRUPTED = 'The server restarted while this merge was running; please press make again';

const work = serverRun('audio-merge-e2e-stuck-', async (dir) => {
  for (const [name, frequency] of [
    ['a.wav', 300],
    ['b.wav', 600],
    ['c.wav', 900],
  ] as const)
    await makeTone(path.join(dir, name), { seconds: 2, frequency });
  // Long enough that a merge of it is still running after a reload or a restart (~20 s here).
  await makeTone(path.join(dir, 'long.flac'), { seconds: 240, frequency: 440 });
  await makeTone(path.join(dir, 'medium.flac'), { seconds: 60, frequency: 520 });
});
const contexts: BrowserContext[] = [];
const dataDir = () => path.join(work().dir, 'data');
const tone = (name: string) => path.join(work().dir, name);
const poll = <T>(fn: () => T | Promise<T>, timeout = 60_000) => expect.poll(fn, { timeout, interval: 100 });
const rowNames = (p: Page) => p.locator('.audio-merge-row .audio-merge-filename').allTextContents();
const percentOf = async (p: Page) => Number(await p.getByRole('progressbar').getAttribute('aria-valuenow'));

afterAll(async () => {
  for (const c of contexts) await c.close().catch(() => {});
});

async function newSession(): Promise<BrowserContext> {
  const ctx = await work().browser.newContext({ viewport: { width: 900, height: 1000 } });
  contexts.push(ctx);
  return ctx;
}

/** A page of `ctx` with `files` uploaded through it and shown as rows. */
async function pageWith(
  ctx: BrowserContext,
  files: string[],
  on: RunningServer = work().server,
): Promise<Page> {
  const page = await ctx.newPage();
  await page.goto(on.url);
  await page.setInputFiles('#audio-merge-file-input', files.map(tone));
  await page.waitForSelector(`.audio-merge-row >> nth=${files.length - 1}`, { timeout: 60_000 });
  return page;
}

const serverNames = async (page: Page) => (await pageItems(page)).map((i) => i.filename);

const sidOf = (page: Page) => page.evaluate(() => document.getElementById('audio-merge-tool')!.dataset.sid!);
/** The session's stored uploads; each may have its waveform beside it, never one without it. */
async function uploadsOnDisk(sid: string): Promise<number> {
  const names = await readdir(path.join(dataDir(), 'uploads', sid)).catch(() => [] as string[]);
  const audio = names.filter((n) => !n.endsWith(PEAKS_SUFFIX));
  const stems = new Set(audio.map((n) => path.parse(n).name));
  const orphans = names.filter(
    (n) => n.endsWith(PEAKS_SUFFIX) && !stems.has(n.slice(0, -PEAKS_SUFFIX.length)),
  );
  expect(orphans).toEqual([]);
  return audio.length;
}
const PEAKS_SUFFIX = '-peaks.bin';
const markBeforeReload = (page: Page) =>
  page.evaluate(() => ((window as unknown as { beforeReload: boolean }).beforeReload = true));
const reloaded = (page: Page) =>
  page.evaluate(() => (window as unknown as { beforeReload?: boolean }).beforeReload === undefined);

/** Every value the progress bar of this document takes, in order (not carried over a reload). */
async function recordBar(page: Page, into: number[]): Promise<void> {
  const name = `recordBar${Math.random().toString(36).slice(2)}`;
  await page.exposeBinding(name, (_src, v: number) => void into.push(v));
  await page.evaluate((fn) => {
    let last = -1;
    const see = () => {
      const v = Number(document.querySelector('.audio-merge-bar')?.getAttribute('aria-valuenow') ?? -1);
      if (v >= 0 && v !== last) {
        last = v;
        (window as unknown as Record<string, (v: number) => void>)[fn](v);
      }
    };
    new MutationObserver(see).observe(document, {
      subtree: true,
      childList: true,
      attributes: true,
      attributeFilter: ['aria-valuenow'],
    });
  }, name);
}

describe('a person is never stuck', () => {
  it('removes a row by mouse and by keyboard: gone from the list, from getDataJson and from disk', async () => {
    const page = await pageWith(await newSession(), ['a.wav', 'b.wav', 'c.wav']);
    const sid = await sidOf(page);
    expect(await uploadsOnDisk(sid)).toBe(3);
    await poll(() =>
      page
        .locator('audio.audio-merge-player')
        .evaluateAll((els) => els.every((e) => (e as HTMLAudioElement).readyState >= 1)),
    ).toBe(true);
    expect(await page.locator('.audio-merge-hint').isVisible()).toBe(true);
    await page
      .locator('.audio-merge-root')
      .screenshot({ path: path.join(SCREENSHOTS, 'list-with-remove.png') });

    // Mouse.
    await page.getByRole('button', { name: 'Remove b.wav' }).click();
    expect(await rowNames(page)).toEqual(['a.wav', 'c.wav']);
    await page.locator('.audio-merge-root').screenshot({ path: path.join(SCREENSHOTS, 'removed-undo.png') });
    // Keyboard: from the row, Tab reaches its remove button; Enter presses it.
    await page.getByRole('listitem', { name: /^c\.wav/ }).focus();
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe(
      'Remove c.wav',
    );
    await page.keyboard.press('Enter');
    expect(await rowNames(page)).toEqual(['a.wav']);
    // Undo brings one back, where it was.
    await page.getByRole('button', { name: 'Undo removing c.wav' }).click();
    expect(await rowNames(page)).toEqual(['a.wav', 'c.wav']);

    // After the undo window the deletes reach the server: getDataJson and the disk agree.
    await poll(() => serverNames(page)).toEqual(['a.wav', 'c.wav']);
    expect(await uploadsOnDisk(sid)).toBe(2);
    await page.reload();
    await page.waitForSelector('.audio-merge-row >> nth=1');
    expect(await rowNames(page)).toEqual(['a.wav', 'c.wav']);
  });

  it('a drag by the file name moves the row (grab cursor), and the order survives a reload', async () => {
    const page = await pageWith(await newSession(), ['a.wav', 'b.wav', 'c.wav']);
    expect(
      await page
        .locator('.audio-merge-row')
        .first()
        .evaluate((r) => getComputedStyle(r).cursor),
    ).toBe('grab');
    const name = (await page
      .locator('.audio-merge-row', { hasText: 'c.wav' })
      .locator('.audio-merge-filename')
      .boundingBox())!;
    const top = (await page.locator('.audio-merge-row').first().boundingBox())!;
    const saved = page.waitForResponse((r) => r.url().endsWith('/app/merge/saveOrder'));
    await page.mouse.move(name.x + 20, name.y + name.height / 2);
    await page.mouse.down();
    await page.mouse.move(name.x + 20, name.y - 10, { steps: 4 });
    await page.mouse.move(name.x + 20, top.y + 10, { steps: 20 });
    await page.mouse.up();
    await poll(() => rowNames(page)).toEqual(['c.wav', 'a.wav', 'b.wav']);
    expect((await saved).status()).toBe(200);
    await page.reload();
    await page.waitForSelector('.audio-merge-row >> nth=2');
    expect(await rowNames(page)).toEqual(['c.wav', 'a.wav', 'b.wav']);
  });

  it('a long list scrolls while a row is dragged near the edge; Home and End move a lifted row to the ends', async () => {
    const names = Array.from({ length: 12 }, (_, i) => `n${String(i + 1).padStart(2, '0')}.wav`);
    for (const [i, n] of names.entries()) await makeTone(tone(n), { seconds: 1, frequency: 300 + 50 * i });
    const ctx = await work().browser.newContext({ viewport: { width: 900, height: 600 } });
    contexts.push(ctx);
    const page = await pageWith(ctx, names);
    await page.evaluate(() =>
      window.scrollTo(
        0,
        document.querySelector('.audio-merge-list')!.getBoundingClientRect().top + window.scrollY - 20,
      ),
    );
    const startY = await page.evaluate(() => window.scrollY);
    const first = (await page
      .locator('.audio-merge-row')
      .first()
      .locator('.audio-merge-filename')
      .boundingBox())!;
    await page.mouse.move(first.x + 20, first.y + first.height / 2);
    await page.mouse.down();
    await page.mouse.move(first.x + 20, first.y + 30, { steps: 4 });
    // Held near the bottom edge, the page scrolls by itself until the list's end is in view.
    await page.mouse.move(first.x + 20, 580, { steps: 10 });
    const t0 = Date.now();
    await poll(() => page.evaluate(() => window.scrollY), 20_000).toBeGreaterThan(startY + 800);
    console.log(`auto-scroll: ${Math.round((800 * 1000) / Math.max(1, Date.now() - t0))} px/s or more`);
    await page.mouse.move(first.x + 20, 585, { steps: 2 });
    await page.mouse.up();
    await poll(async () => (await rowNames(page)).indexOf('n01.wav')).toBeGreaterThan(7);

    // Keyboard: lift n02, End, drop: it is last; lift it again, Home, drop: it is first.
    const spoken = () => page.locator('[aria-live]').allTextContents();
    await page.getByRole('listitem', { name: /^n02\.wav/ }).focus();
    await page.keyboard.press('Space');
    await poll(spoken).toContainEqual(expect.stringContaining('Picked up n02.wav'));
    await afterQueuedTimers(page);
    await page.keyboard.press('End');
    await poll(spoken).toContainEqual(expect.stringContaining('n02.wav was moved to position 12 of 12'));
    await page.keyboard.press('Space');
    await poll(async () => (await rowNames(page)).at(-1)).toBe('n02.wav');
    await page.keyboard.press('Space');
    await poll(spoken).toContainEqual(expect.stringContaining('Picked up n02.wav. It is at position 12'));
    await afterQueuedTimers(page);
    await page.keyboard.press('Home');
    await poll(spoken).toContainEqual(expect.stringContaining('n02.wav was moved to position 1 of 12'));
    await page.keyboard.press('Space');
    await poll(async () => (await rowNames(page))[0]).toBe('n02.wav');
    // Every drop was saved: the server's order is the one on screen.
    const order = await rowNames(page);
    await poll(() => serverNames(page)).toEqual(order);

    // A removal from the top of the long list: its undo line is in the window, not below the list.
    await page.evaluate(() =>
      window.scrollTo(
        0,
        document.querySelector('.audio-merge-list')!.getBoundingClientRect().top + window.scrollY - 20,
      ),
    );
    await page.getByRole('button', { name: `Remove ${order[0]}` }).click();
    const undo = page.getByRole('button', { name: `Undo removing ${order[0]}` });
    const box = (await undo.boundingBox())!;
    expect(box.y).toBeGreaterThanOrEqual(0);
    expect(box.y + box.height).toBeLessThanOrEqual(600);
    await undo.click();
    expect(await rowNames(page)).toEqual(order);
  });

  it("two merges of one session at once: each tab's bar rises monotonically to its own end", async () => {
    const ctx = await newSession();
    const one = await pageWith(ctx, ['medium.flac', 'a.wav']);
    const two = await ctx.newPage();
    await two.goto(work().server.url);
    await two.waitForSelector('.audio-merge-row >> nth=1');
    const bars: [number[], number[]] = [[], []];
    const bodies: Array<{ requestId: string }> = [];
    for (const [i, p] of [one, two].entries()) {
      await recordBar(p, bars[i]);
      p.on('request', (r) => r.url().endsWith('/app/merge/mergemp3') && bodies.push(r.postDataJSON()));
    }
    await Promise.all([one, two].map((p) => p.getByRole('button', { name: 'Make MP3' }).click()));
    await poll(() => bodies.length).toBe(2);
    expect(bodies[0].requestId).not.toBe(bodies[1].requestId);
    // Each tab reloads after its own success and lists the results.
    for (const p of [one, two]) await p.waitForSelector('.audio-merge-result', { timeout: 150_000 });
    for (const values of bars) {
      expect(values.length).toBeGreaterThan(1);
      expect(values, values.join(',')).toEqual([...values].sort((x, y) => x - y));
      expect(values.at(-1)).toBe(100);
    }
    console.log(`bars: ${bars.map((b) => b.join(',')).join(' | ')}`);
  });

  it('a reload mid-merge shows the running merge, then its result', async () => {
    const page = await pageWith(await newSession(), ['long.flac']);
    await page.getByRole('button', { name: 'Make MP3' }).click();
    await poll(() => percentOf(page)).toBeGreaterThan(0);
    const before = await percentOf(page);
    await page.reload();
    await page.waitForSelector('.audio-merge-progress .audio-merge-spinner', { timeout: 10_000 });
    expect(await page.locator('.audio-merge-row').count()).toBe(0);
    await poll(() => percentOf(page)).toBeGreaterThanOrEqual(before);
    expect(await page.getByRole('button', { name: 'Cancel merge' }).isVisible()).toBe(true);
    await page
      .locator('.audio-merge-root')
      .screenshot({ path: path.join(SCREENSHOTS, 'merge-running-after-reload.png') });
    await page.waitForSelector('.audio-merge-result', { timeout: 150_000 });
    expect(await page.locator('.audio-merge-result .audio-merge-sources li').allTextContents()).toEqual([
      'long.flac',
    ]);
  });

  it('cancel stops the merge, leaves no process and no file, and the list comes back in place', async () => {
    const page = await pageWith(await newSession(), ['long.flac', 'a.wav']);
    const sid = await sidOf(page);
    await page.getByRole('button', { name: 'Make MP3' }).click();
    let pids: number[] = [];
    await poll(() => (pids = childrenNamed('ffmpeg', work().server.pid)).length).toBeGreaterThan(0);
    await markBeforeReload(page);
    await page.getByRole('button', { name: 'Cancel merge' }).click();
    await page.waitForSelector('.audio-merge-row >> nth=1');
    // No reload (it would flash the page's plain form): the list is back where it was.
    expect(await reloaded(page)).toBe(false);
    expect(await page.locator('.audio-merge-progress').count()).toBe(0);
    // The list says what happened, in a polite live region.
    await poll(() => page.locator('[role="status"] .audio-merge-info').textContent()).toBe(
      'The merge was cancelled.',
    );
    for (const pid of pids) expect(await waitUntilGone(pid)).toBe(true);
    expect(childrenNamed('ffmpeg', work().server.pid)).toEqual([]);
    expect((await readdir(path.join(dataDir(), 'tmp'))).filter((n) => n.startsWith('job-'))).toEqual([]);
    expect(await readdir(path.join(dataDir(), 'results', sid)).catch(() => [])).toEqual([]);
    expect(await page.locator('.audio-merge-result').count()).toBe(0);
  });
});

describe('a server killed mid-merge', () => {
  it('the open page shows the failure message within seconds of the restart, without a reload', async () => {
    const own = await tempDir('audio-merge-e2e-kill-');
    let doomed: RunningServer | undefined = await startServer(path.join(own.dir, 'data'));
    let restarted: RunningServer | undefined;
    try {
      const page = await pageWith(await newSession(), ['long.flac'], doomed);
      await page.getByRole('button', { name: 'Make MP3' }).click();
      await poll(() => percentOf(page)).toBeGreaterThan(0);
      await markBeforeReload(page);
      await doomed.kill('SIGKILL');
      restarted = await startServer(path.join(own.dir, 'data'), {
        port: doomed.port,
        socketPort: doomed.socketPort,
      });
      doomed = undefined;
      const back = Date.now();
      await poll(() => page.locator('.audio-merge-status').textContent(), 30_000).toBe(INTERRUPTED);
      console.log(`failure shown ${Date.now() - back} ms after the restart`);
      expect(await reloaded(page)).toBe(false);
      const again = page.getByRole('button', { name: 'Reload' });
      expect(await again.isVisible()).toBe(true);
      // The failure shows on its own, no spinner above it.
      expect(await page.locator('.audio-merge-spinner').count()).toBe(0);
      await page
        .locator('.audio-merge-root')
        .screenshot({ path: path.join(SCREENSHOTS, 'merge-failed.png') });
      // The way back is a reload, and the list is there.
      await again.click();
      await page.waitForSelector('.audio-merge-row');
      expect(await rowNames(page)).toEqual(['long.flac']);
    } finally {
      await doomed?.kill('SIGKILL');
      await restarted?.stop();
      await own.cleanup();
    }
  });
});
