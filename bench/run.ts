// npm run bench: the product side by side with ffmpeg, cat and curl on this machine, in one run.
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { makeCorpus, makeFlacCorpus } from './corpus.js';
import { bookFigures } from './book-figures.js';
import { engineFigures, transcodeFigures } from './engine-figures.js';
import { fallbackFigures } from './fallback-figures.js';
import { formatFigures } from './format-figures.js';
import { limitsFigures } from './limits-figures.js';
import { metricsFigures } from './metrics-figures.js';
import { matrixFigures } from './matrix-figures.js';
import { machineLine, pinTools, tableRows, type Figure } from './report.js';
import { scaledFigures } from './scaled-figures.js';
import { shelfFigures } from './shelf-figures.js';
import { serverFigures } from './server-figures.js';
import { crossfadeFigures, soundFigures } from './sound-figures.js';
import { trimFigures } from './trim-figures.js';
import { chapterFigures } from './chapter-figures.js';
import { tusFigures } from './tus-figures.js';
import { widgetFigures } from './widget-figures.js';

const here = path.dirname(fileURLToPath(import.meta.url));

/** Sections of RESULTS.md from other runs (the soak's), kept when a full run rewrites the table. */
const KEPT_FROM = '## Figures from other runs';
function keptSections(): string[] {
  const old = existsSync(path.join(here, 'RESULTS.md'))
    ? readFileSync(path.join(here, 'RESULTS.md'), 'utf8')
    : '';
  const at = old.indexOf(KEPT_FROM);
  return at < 0 ? [] : [old.slice(at).trimEnd(), ''];
}
const rounds = Number(process.env.BENCH_ROUNDS ?? 5);
const only = process.env.BENCH_ONLY; // 'engine' | 'transcode' | 'formats' | 'sound' | 'fades' | 'fallbacks' | 'trim' | 'chapters' | 'server' | 'tus' | 'limits' | 'metrics' | 'book' | 'shelf' | 'widget' | 'matrix' | 'scaled' (needs redis-server, PostgreSQL)

const progress = (msg: string) => {
  if (process.stderr.isTTY) process.stderr.write(`\r\x1b[2K${msg}`);
  else process.stderr.write(`${msg}\n`);
};

const toolsLine = pinTools();
const started = Date.now();
const work = await mkdtemp(path.join(os.tmpdir(), 'audio-merge-bench-'));
const figures: Figure[] = [];
try {
  if (only === 'scaled') {
    figures.push(...(await scaledFigures(work, rounds, progress)));
  } else if (only === 'transcode') {
    figures.push(...(await transcodeFigures(await makeFlacCorpus(progress), work, rounds, progress)));
  } else if (only === 'widget') {
    figures.push(...(await widgetFigures(rounds, progress)));
  } else if (only === 'matrix') {
    figures.push(...(await matrixFigures(progress)));
  } else {
    const corpus = await makeCorpus(progress);
    if (!only || only === 'engine') figures.push(...(await engineFigures(corpus, work, rounds, progress)));
    if (!only || only === 'formats') figures.push(...(await formatFigures(corpus, work, rounds, progress)));
    if (!only || only === 'sound') figures.push(...(await soundFigures(corpus, work, rounds, progress)));
    if (only === 'fades') figures.push(...(await crossfadeFigures(corpus, work, rounds, progress)));
    if (!only || only === 'fallbacks')
      figures.push(...(await fallbackFigures(corpus, work, rounds, progress)));
    if (!only || only === 'trim') figures.push(...(await trimFigures(corpus, work, rounds, progress)));
    if (!only || only === 'chapters') figures.push(...(await chapterFigures(corpus, work, rounds, progress)));
    if (!only || only === 'server') figures.push(...(await serverFigures(corpus, work, rounds, progress)));
    if (!only || only === 'server' || only === 'tus')
      figures.push(...(await tusFigures(corpus, work, rounds, progress)));
    if (!only || only === 'limits') figures.push(...(await limitsFigures(corpus, work, rounds, progress)));
    if (!only || only === 'metrics') figures.push(...(await metricsFigures(corpus, rounds, progress)));
    if (!only || only === 'book') figures.push(...(await bookFigures(corpus, work, rounds, progress)));
    if (!only || only === 'shelf') figures.push(...(await shelfFigures(corpus, work, rounds, progress)));
    if (!only) figures.push(...(await widgetFigures(rounds, progress)));
    if (!only) figures.push(...(await matrixFigures(progress)));
  }
} finally {
  await rm(work, { recursive: true, force: true });
}
if (process.stderr.isTTY) process.stderr.write('\r\x1b[2K');

const table = tableRows(figures);
const machine = machineLine();
console.log(`audio-merge benchmarks (${rounds} alternating rounds, medians; ratio = audio-merge / peer)`);
console.log(machine);
console.log(toolsLine);
console.log(table.join('\n'));

/** Where RESULTS.md's sections measured by hand begin; a run keeps them. */
const BY_HAND = "## The command line's install";

if (!only) {
  const md = [
    '# Benchmark results',
    '',
    `Written by \`npm run bench\` on ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC in ${Math.round((Date.now() - started) / 1000)} s.`,
    '',
    `Machine: ${machine}.`,
    '',
    `${toolsLine[0].toUpperCase()}${toolsLine.slice(1)}.`,
    '',
    `Each figure is the median of ${rounds} alternating runs (A B A B ...) of whole processes after one untimed warm-up, with min and max; the ratio is audio-merge's median over the peer's.`,
    '',
    ...table,
    '',
    'How to read these figures: README.md. What they led to, with the profiles behind them: docs/decisions/.',
    '',
    ...keptSections(),
  ];
  // Sections measured by hand (the command line's install) stay after the table.
  const before = await readFile(path.join(here, 'RESULTS.md'), 'utf8').catch(() => '');
  const kept = before.indexOf(BY_HAND);
  await writeFile(
    path.join(here, 'RESULTS.md'),
    md.join('\n') + (kept >= 0 ? `\n${before.slice(kept)}` : ''),
  );
}
