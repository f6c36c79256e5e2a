// Is the bar honest? Runs real merges with --loudness and compares, at each phase's end, how
// far the bar stands with how much of the time has passed. Phases are told apart by the tools the
// engine runs (ebur128 measures; every other ffmpeg call encodes or decodes; the MP3 frame join runs
// in process, after them). Prints a table; docs/decisions/0017-progress-weighs-measured-cost.md
// keeps the figures.
//   npx tsx bench/progress-phases.ts [seconds per input, default 60]
import { execFile } from 'node:child_process';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { mergeFiles, resolveToolPaths, type OutputFormat } from '../src/engine/index.js';
import { spawnRunner, type Runner } from '../src/engine/ffmpeg/runner.js';
import { tempDir } from '../test/support/audio-fixtures.js';

const exec = promisify(execFile);
const tools = resolveToolPaths();
const SECONDS = Number(process.argv[2] ?? 60);

interface Scenario {
  name: string;
  inputs: string[];
  format: OutputFormat;
}

interface Timeline {
  total: number;
  measureEnd: number;
  encodeEnd: number;
  percentAt: (t: number) => number;
  worstLead: number;
  worstLag: number;
}

/** Speech-like material: pink noise under a tone that moves, so no encoder coasts. */
async function makeInput(file: string, i: number): Promise<string> {
  const codec = file.endsWith('.mp3')
    ? ['-c:a', 'libmp3lame', '-b:a', '128k']
    : file.endsWith('.flac')
      ? ['-c:a', 'flac']
      : ['-c:a', 'pcm_s16le'];
  await exec(tools.ffmpeg, [
    '-hide_banner',
    '-v',
    'error',
    '-y',
    '-f',
    'lavfi',
    '-i',
    `anoisesrc=color=pink:amplitude=${0.05 * (i + 1)}:duration=${SECONDS}:sample_rate=44100`,
    '-f',
    'lavfi',
    '-i',
    `sine=frequency=${220 + 40 * i}:duration=${SECONDS}:sample_rate=44100`,
    '-filter_complex',
    'amix=inputs=2',
    '-ac',
    '2',
    ...codec,
    file,
  ]);
  return file;
}

async function run(s: Scenario, out: string): Promise<Timeline> {
  const start = performance.now();
  const now = () => (performance.now() - start) / 1000;
  let measureEnd = 0;
  let encodeEnd = 0;
  const readings: Array<[number, number]> = [];
  const busy = { probe: 0, measure: 0, encode: 0 };
  const runner: Runner = async (req) => {
    const began = now();
    const result = await spawnRunner(req);
    const kind =
      req.bin !== tools.ffmpeg ? 'probe' : req.args.some((a) => a.includes('ebur128')) ? 'measure' : 'encode';
    busy[kind] += now() - began;
    if (kind === 'measure') measureEnd = Math.max(measureEnd, now());
    if (kind === 'encode') encodeEnd = Math.max(encodeEnd, now());
    return result;
  };
  await mergeFiles(s.inputs, out, {
    format: s.format,
    loudness: -16,
    runner,
    onProgress: (p) => readings.push([now(), p]),
  });
  const total = now();
  const percentAt = (t: number) => readings.filter(([at]) => at <= t + 1e-6).at(-1)?.[1] ?? 0;
  // How far the bar runs ahead of (or behind) the time passed, in points, over the run.
  const leads = readings.map(([t, p]) => p - (100 * t) / total);
  console.error(
    `  ${s.name}: busy seconds by kind`,
    JSON.stringify(busy, (_, v: unknown) => (typeof v === 'number' ? Number(v.toFixed(2)) : v)),
  );
  return {
    total,
    measureEnd,
    encodeEnd: Math.max(encodeEnd, measureEnd),
    percentAt,
    worstLead: Math.max(0, ...leads),
    worstLag: Math.min(0, ...leads),
  };
}

const work = await tempDir('audio-merge-progress-');
try {
  const mp3 = await Promise.all(
    [0, 1, 2, 3, 4, 5].map((i) => makeInput(path.join(work.dir, `m${i}.mp3`), i)),
  );
  const wav = await Promise.all([0, 1, 2].map((i) => makeInput(path.join(work.dir, `w${i}.wav`), i)));
  const flac = await Promise.all(
    [0, 1, 2, 3, 4, 5].map((i) => makeInput(path.join(work.dir, `f${i}.flac`), i)),
  );
  const scenarios: Scenario[] = [
    { name: '6 MP3 -> MP3 (copied, gain in frames)', inputs: mp3, format: 'mp3' },
    { name: '3 WAV + 3 MP3 -> MP3 (WAVs encoded)', inputs: [...wav, ...mp3.slice(0, 3)], format: 'mp3' },
    { name: '6 FLAC -> M4B (AAC encodes)', inputs: flac, format: 'm4b' },
    { name: '6 MP3 -> Opus (one final encode)', inputs: mp3, format: 'opus' },
  ];
  console.log(`${SECONDS} s per input, --loudness -16`);
  console.log(
    '| merge | total s | measuring: time / bar | encodes: time / bar | bar ahead / behind of time (worst) |',
  );
  console.log('|---|---|---|---|---|');
  for (const s of scenarios) {
    const out = path.join(work.dir, `out.${s.format}`);
    await rm(out, { force: true });
    const t = await run(s, out);
    const pct = (x: number) => `${Math.round((100 * x) / t.total)}%`;
    console.log(
      `| ${s.name} | ${t.total.toFixed(1)} | ${pct(t.measureEnd)} / ${t.percentAt(t.measureEnd)}% | ${pct(t.encodeEnd)} / ${t.percentAt(t.encodeEnd)}% | +${t.worstLead.toFixed(0)} / ${t.worstLag.toFixed(0)} |`,
    );
  }
} finally {
  await work.cleanup();
}
