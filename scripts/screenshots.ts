// Takes the README's pictures the way a person would see them: the built server on a temporary
// DATA_DIR, Debian's Chromium, generated audio uploaded through the page, the sound options open,
// a drag, a merge.
// Writes docs/screenshot-{list,progress,results,book,book-result}.png at a desktop's width (the
// rows in their column, the choices beside them; the results below the widget and the upload
// area, so the window is tall enough for them too). docs/screenshot-trimmed-row.png is the picture
// e2e/trim.test.ts takes of a trimmed row at twice the pixel density (e2e/screenshots/trimmed-row.png).
// Run after `npm run build`:
//   PORT=41100 SOCKET_PORT=41101 npx tsx scripts/screenshots.ts
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import type { Page } from 'playwright-core';
import { makeTone, tempDir, tools } from '../test/support/audio-fixtures.js';
import { launchBrowser, ROOT, startServer } from '../e2e/harness.js';

const DOCS = path.join(ROOT, 'docs');
const FILES = [
  { name: 'Chapter 1 - The harbour.wav', seconds: 240, frequency: 330 },
  { name: 'Chapter 2 - Night train.flac', seconds: 300, frequency: 440 },
  { name: 'Opening credits.mp3', seconds: 25, frequency: 550 },
  { name: 'Chapter 3 - Home.ogg', seconds: 180, frequency: 660 },
];

/**
 * A picture of one element, clipped from the page: the viewport is tall enough that nothing
 * scrolls, since scrolling an element into view mid-drag makes the sortable list shift its rows.
 */
async function shoot(page: Page, selector: string, file: string): Promise<void> {
  const box = await page.locator(selector).boundingBox();
  if (!box) throw new Error(`${selector} is not on the page`);
  await page.screenshot({ path: path.join(DOCS, file), clip: box });
}

const work = await tempDir('audio-merge-screens-');
const ports =
  process.env.PORT && process.env.SOCKET_PORT
    ? { port: Number(process.env.PORT), socketPort: Number(process.env.SOCKET_PORT) }
    : undefined;
const server = await startServer(path.join(work.dir, 'data'), ports);
const browser = await launchBrowser();
try {
  for (const f of FILES)
    await makeTone(path.join(work.dir, f.name), { seconds: f.seconds, frequency: f.frequency });
  const page = await browser.newPage({ viewport: { width: 1280, height: 2600 }, deviceScaleFactor: 1 });
  await page.goto(server.url);
  await page.setInputFiles(
    '#audio-merge-file-input',
    FILES.map((f) => path.join(work.dir, f.name)),
  );
  await page.waitForSelector(`.audio-merge-row >> nth=${FILES.length - 1}`, { timeout: 120_000 });

  // The first chapter named by hand; the others show their default titles as placeholders.
  await page.locator('.audio-merge-row .audio-merge-chapter-title').first().fill('The Harbour');

  // The sound options open, as someone making a podcast would set them: matched loudness, a pause.
  await page.getByRole('button', { name: 'Sound options' }).click();
  await page.getByRole('switch', { name: 'Match loudness' }).check();
  await page.getByRole('radio', { name: 'Silence' }).check();

  // The credits belong first: drag the third row's handle above the first, and catch it mid-air.
  const handle = page.locator('.audio-merge-row').nth(2).locator('.audio-merge-handle');
  const from = (await handle.boundingBox())!;
  const to = (await page.locator('.audio-merge-row').first().boundingBox())!;
  await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
  await page.mouse.down();
  await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2 - 10, { steps: 4 });
  await page.mouse.move(from.x + from.width / 2, to.y + 10, { steps: 20 });
  await shoot(page, '#audio-merge-tool', 'screenshot-list.png');
  await page.mouse.up();
  // The drop settles (its animation, the saved order) before make is pressed.
  await page.waitForTimeout(1000);

  await page.getByRole('button', { name: 'Make MP3' }).click();
  await page.waitForFunction(
    () => /^[3-6]\d%$/.test(document.querySelector('.audio-merge-status')?.textContent ?? ''),
    undefined,
    { timeout: 120_000, polling: 10 },
  );
  await shoot(page, '#audio-merge-tool', 'screenshot-progress.png');

  await page.waitForSelector('.audio-merge-result', { timeout: 300_000 });
  await page.waitForLoadState('load');
  await page.waitForTimeout(500);
  await shoot(page, '#audio-merge-results', 'screenshot-results.png');

  // The book as someone making an audiobook sets it: M4B, small speech quality, details, a cover.
  const cover = path.join(work.dir, 'cover.png');
  await promisify(execFile)(tools.ffmpeg, [
    ...['-v', 'error', '-y', '-f', 'lavfi', '-i', 'gradients=s=240x240:seed=7', '-frames:v', '1', cover],
  ]);
  await page.getByLabel('Format').selectOption('m4b');
  await page.getByLabel('Quality').selectOption('speechSmall');
  await page.getByRole('button', { name: 'Book details' }).click();
  await page.getByLabel('Title', { exact: true }).fill('The Harbour');
  await page.getByLabel('Author').fill('Ada Writer');
  await page.getByLabel('Narrator').fill('Noel Reader');
  await page.getByLabel('Genre').fill('Audiobook');
  await page.getByLabel('Year').fill('2026');
  await page.getByLabel('Cover').setInputFiles(cover);
  await page.waitForSelector('.audio-merge-cover-preview');
  await page.waitForFunction(
    () => document.querySelector<HTMLImageElement>('.audio-merge-cover-preview')?.complete,
  );
  await shoot(page, '#audio-merge-tool', 'screenshot-book.png');

  // The book made: its card, headed by its title, with its cover, author, narrator and chapters.
  await page.getByRole('button', { name: 'Make M4B' }).click();
  await page.waitForFunction(() => document.querySelectorAll('.audio-merge-result').length === 2, undefined, {
    timeout: 300_000,
  });
  await page.waitForLoadState('load');
  await page.waitForFunction(
    () => (document.querySelector<HTMLImageElement>('.audio-merge-result-cover')?.naturalWidth ?? 0) > 0,
  );
  await shoot(page, '.audio-merge-result >> nth=0', 'screenshot-book-result.png');
  console.log('wrote docs/screenshot-{list,progress,results,book,book-result}.png');
} finally {
  await browser.close();
  await server.stop();
  await work.cleanup();
}
