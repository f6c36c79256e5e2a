// Figures for the widget in the browser: what a page fetches before its list can show (the entry
// script and the chunks it imports, gzipped, plus the page's language when it is not English),
// and the time from the script's arrival to a list of 100 rows on screen, in English and in
// Arabic (whose table is fetched first). Targets: at most 130 KB, at most 150 ms.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { launchBrowser } from '../e2e/harness.js';
import { stats } from './measure.js';
import type { Figure } from './report.js';
import { startServer } from './server-process.js';

const DIST = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'dist', 'widget');
const ENTRY = 'audio-merge.js';
const ROWS = 100;
const MAX_BYTES = 130 * 1024;
const MAX_MS = 150;

/** The file and every chunk it imports statically (not the ones it fetches on demand). */
function staticClosure(file: string, seen = new Set<string>()): Set<string> {
  if (seen.has(file)) return seen;
  seen.add(file);
  const code = readFileSync(path.join(DIST, file), 'utf8');
  for (const m of code.matchAll(/\b(?:from|import)\s*["']\.\/([\w.-]+\.js)["']/g)) staticClosure(m[1], seen);
  return seen;
}

const gzipped = (files: Iterable<string>) =>
  [...files].reduce((sum, f) => sum + gzipSync(readFileSync(path.join(DIST, f)), { level: 9 }).length, 0);

function sizeFigures(): Figure[] {
  const base = staticClosure(ENTRY);
  const arChunk = readdirSync(DIST).find((f) => /^ar-[\w-]+\.js$/.test(f));
  if (!arChunk) throw new Error('no Arabic chunk in dist/widget: run npm run build');
  const withAr = staticClosure(arChunk, new Set(base));
  const all = readdirSync(DIST).filter((f) => f.endsWith('.js'));
  const figure = (name: string, bytes: number, note?: string): Figure => ({
    name,
    ours: stats([bytes]),
    peerName: '',
    unit: 'KB',
    extraTarget: { label: '≤ 130 KB', ok: bytes <= MAX_BYTES },
    note,
  });
  return [
    figure('widget script before the list, gzipped: English page', gzipped(base), `${base.size} files`),
    figure('widget script before the list, gzipped: Arabic page', gzipped(withAr), `${withAr.size} files`),
    {
      name: 'every widget script, gzipped (languages and the upload client on demand)',
      ours: stats([gzipped(all)]),
      peerName: '',
      unit: 'KB',
      note: `${all.length} files`,
    },
  ];
}

/** Milliseconds from the widget script's arrival to 100 rows on screen, `rounds` page loads. */
async function timeToList(language: string, rounds: number): Promise<number[]> {
  const server = await startServer();
  const browser = await launchBrowser();
  try {
    const page = await browser.newPage({ viewport: { width: 900, height: 1400 } });
    await page.setExtraHTTPHeaders({ 'Accept-Language': language });
    await page.route('**/app/merge/getDataJson', (route) =>
      route.fulfill({
        json: Array.from({ length: ROWS }, (_, i) => ({
          id: `i${i}`,
          sid: 's',
          newfilename: `n${i}`,
          format: 'mp3',
          filename: `Chapter ${i + 1} - a title of some length.mp3`,
          duration: 180 + i,
        })),
      }),
    );
    // The rows' players would fetch their metadata; not part of showing the list.
    await page.route('**/upload/**', (route) => route.abort());
    await page.addInitScript((rows: number) => {
      new MutationObserver((_, observer) => {
        if (document.querySelectorAll('.audio-merge-row').length < rows) return;
        (window as unknown as { listShown: number }).listShown = performance.now();
        observer.disconnect();
      }).observe(document, { subtree: true, childList: true });
    }, ROWS);
    const samples: number[] = [];
    for (let i = 0; i <= rounds; i++) {
      await page.goto(server.base + '/');
      await page.waitForFunction(() => 'listShown' in window, undefined, { timeout: 60_000 });
      const ms = await page.evaluate(() => {
        const script = performance
          .getEntriesByType('resource')
          .find((e) => e.name.endsWith('/widget/audio-merge.js')) as PerformanceResourceTiming;
        return (window as unknown as { listShown: number }).listShown - script.responseEnd;
      });
      if (i > 0) samples.push(ms); // the first load warms the server and the browser's caches
    }
    return samples;
  } finally {
    await browser.close();
    await server.stop();
  }
}

export async function widgetFigures(rounds: number, progress: (msg: string) => void): Promise<Figure[]> {
  progress('widget: script sizes');
  const figures = sizeFigures();
  for (const [language, label] of [
    ['en', 'English'],
    ['ar', 'Arabic, its table fetched first'],
  ] as const) {
    progress(`widget: time to a list of ${ROWS} rows (${label})`);
    const ours = stats(await timeToList(language, rounds));
    figures.push({
      name: `widget: script arrived to ${ROWS} rows shown (${label})`,
      ours,
      peerName: '',
      unit: 'ms',
      extraTarget: { label: `≤ ${MAX_MS} ms`, ok: ours.median <= MAX_MS },
    });
  }
  return figures;
}
