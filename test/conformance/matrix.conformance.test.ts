// The conformance matrix (`npm run test:conformance`): the files people have (corpus.ts: LAME,
// ffmpeg AAC/ALAC/FLAC, `flac`, `oggenc`, `opusenc`, WAV of every depth and layout) through the
// command line into every output format, with a sample of every option, each output checked as a
// person would: exit 0 and no fallback, a clean decode, its length against the inputs' spans within
// the format's guarantee (cases.ts: lengthTolerance), the channels and rate, each chapter where its
// input's marker tone rises (within 30 ms), no click at any join or inside any input, a crossfade's
// power held, and the loudness asked for. CONFORMANCE=engine runs the smaller set for the npm
// fallback ffmpeg.
//
// Which paths the cases cover (cases.ts builds them; the run prints each case's paths):
//
// | group                               | cases | paths                                                          |
// | ----------------------------------- | ----- | -------------------------------------------------------------- |
// | every kind x2 (A, B: one join)      | 7 x 7 | per family: mp3-copy, aac-copy, mp3/aac-encode (chunked at 14 s |
// |   family representatives, 14 s each |       | pairs: 28 s past the chunk threshold), pcm-route; FLAC direct  |
// | every other kind x2, 6 s (FLAC 14 s)| 3 each| mp3, m4a or m4b, and one of opus/ogg/flac/wav: unchunked runs,  |
// |                                     |       | MPEG-2/2.5 frames, mono, 8-bit to float, 5.1 and quad downmix  |
// | every kind mixed, 0.5-3 s           | 7     | copies between encoded runs, resampling, an input's chapters    |
// | trim each of MP3, FLAC, AAC         | 7     | trim: spliced MP3 and AAC copies, exact cuts in every format   |
// | gap 1.5 s                           | 3     | gap: silent MP3 frames, AAC silence, PCM                       |
// | crossfade 1 s                       | 5     | crossfade: the mixed route (FLAC) and fades spliced in copies  |
// | loudness -16, inputs at -30 and -3  | 5     | loudness: gains in MP3 frames, true-peak limiter, each encoder |
// | chapters file                       | 3     | chapters-file in ID3, MP4 and Vorbis comments                  |
// | FLAC 5 min x2, 60 min; MP3+FLAC 5 m | 3     | long: many chunks, direct feeds, an hour through AAC           |
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../support/cli-run.js';
import { corpusFiles, refTools, kindByName, VOICES, type CorpusFile, type Recipe } from './corpus.js';
import {
  allCases,
  CHAPTER_TOLERANCE,
  chunked,
  CLICK_FLOOR,
  CLICK_RATIO,
  CROSSFADE_DIP_DB,
  isCopied,
  lengthTolerance,
  LOSSY_PEAK_SLACK,
  LOUDNESS_TOLERANCE,
  reportTolerance,
  selectedCases,
  spanOf,
  STEADY_RATIO,
  TRUE_PEAK_LIMIT,
  type Case,
  type Path,
} from './cases.js';
import {
  crossing,
  decode,
  decodeWindow,
  edge,
  loudness,
  lowestSum,
  plateau,
  probe,
  riseAfter,
  tonePower,
  worstBlock,
  type Decode,
} from './measure.js';

interface Report {
  durationSeconds: number;
  transcoded: number[];
  chapters: { title: string; start: number; end: number }[];
  sampleRate: number;
  channels: number;
  fallbacks?: { stage: string; reason: string }[];
}

const cases = selectedCases();
/** The pair the checks are tried on (below), made whatever the run's cases. */
const flacPair = allCases().find((c) => c.id === 'flac-16-44k x2 -> wav')!;
const exec = promisify(execFile);
const ffmpegRef = (args: string[]) => exec(refTools.ffmpeg, ['-hide_banner', '-v', 'error', '-y', ...args]);
const recipeKey = (r: Recipe) => JSON.stringify(r);
const files = new Map<string, CorpusFile>();
let work = '';

beforeAll(async () => {
  work = await mkdtemp(path.join(os.tmpdir(), 'audio-merge-conformance-'));
  const unique = [
    ...new Map([...cases, flacPair].flatMap((c) => c.inputs).map((r) => [recipeKey(r), r])).values(),
  ];
  const made = await corpusFiles(unique);
  made.forEach((f, i) => files.set(recipeKey(unique[i]), f));
});

afterAll(() => rm(work, { recursive: true, force: true }));

const AAC_RATES = [8000, 11025, 12000, 16000, 22050, 24000, 32000, 44100, 48000, 64000, 88200, 96000];

/** The rate and channels a person expects when every input has the same shape the format can hold. */
function expectedShape(c: Case, inputs: CorpusFile[]): { rate?: number; channels?: number } {
  const rates = new Set(inputs.map((f) => f.rate));
  const chans = new Set(inputs.map((f) => f.channels));
  const rate = rates.size === 1 ? [...rates][0] : undefined;
  const channels = chans.size === 1 && [...chans][0] <= 2 ? [...chans][0] : undefined;
  if (c.format === 'opus') return { rate: 48000, channels };
  if (c.format === 'mp3') {
    // MP3 takes the rate and channels of its MP3 inputs, 44.1 kHz stereo when there are none.
    const mp3s = inputs.filter((f) => kindByName(f.recipe.kind).family === 'mp3');
    if (!mp3s.length) return { rate: 44100, channels: 2 };
    return mp3s.length === inputs.length ? { rate, channels } : {};
  }
  const holds = c.format === 'm4a' || c.format === 'm4b' ? AAC_RATES : undefined;
  return { rate: rate !== undefined && (!holds || holds.includes(rate)) ? rate : undefined, channels };
}

function cliArgs(c: Case, inputs: CorpusFile[], out: string, chaptersFile?: string): string[] {
  const args = ['-o', out, ...inputs.map((f) => f.file), '--json', '--quiet'];
  for (const t of c.trims ?? []) args.push('--trim', `${t.input + 1}=${t.start}-${t.end}`);
  if (c.gap !== undefined) args.push('--gap', String(c.gap));
  if (c.crossfade !== undefined) args.push('--crossfade', String(c.crossfade));
  if (c.loudness !== undefined) args.push('--loudness', String(c.loudness));
  if (chaptersFile) args.push('--chapters', chaptersFile);
  return args;
}

interface Found {
  /** Where each input's audio starts in the output, seconds (from its marker). */
  starts: number[];
  /** Each input's tone level (median power in its steady middle). */
  levels: number[];
  powers: Map<number, Float32Array>;
}

/**
 * Each input's start, from its marker tone: where its frequency rises to half its amplitude (a
 * crossfade: where it meets the previous input's, half the fade after the overlap starts). The
 * search for input k is anchored on input k-1's start found, so a join's own slack never adds up.
 */
function findStarts(c: Case, inputs: CorpusFile[], d: Decode, problems: string[]): Found {
  const powers = new Map<number, Float32Array>();
  const powerOf = (f: CorpusFile) => {
    if (!powers.has(f.frequency)) powers.set(f.frequency, tonePower(d.low, f.frequency));
    return powers.get(f.frequency)!;
  };
  const x = c.crossfade ?? 0;
  const starts: number[] = [];
  const levels: number[] = [];
  let anchor = 0;
  inputs.forEach((f, k) => {
    const span = spanOf(c, k, f).lo;
    const p = powerOf(f);
    const level = plateau(p, anchor + 0.3 * span, anchor + 0.7 * span);
    levels.push(level);
    let start: number | undefined;
    if (k > 0 && x > 0) {
      const prev = inputs[k - 1];
      const met = crossing(powerOf(prev), levels[k - 1], p, level, anchor - 0.5, anchor + x + 0.5);
      start = met === undefined ? undefined : met - x / 2;
    } else {
      const from = k === 0 ? 0 : starts[k - 1] + 0.5 * spanOf(c, k - 1, inputs[k - 1]).lo;
      start = riseAfter(p, level, from, anchor + 0.5 * span);
    }
    if (start === undefined || !(level > 0)) {
      problems.push(
        `input ${k + 1} (${f.recipe.kind}, ${f.frequency} Hz): its tone is not found near ${anchor.toFixed(3)} s`,
      );
      start = anchor;
    }
    starts.push(start);
    anchor = start + span + (c.gap ?? 0) - x;
  });
  return { starts, levels, powers };
}

/**
 * The chapter starts a person expects: each input's start (its own chapters moved there), or the
 * file's lines. `lead`: how much earlier a chapter may start, where an input's decode begins with
 * encoder delay that the file does not state (its audio, as decoded, starts there).
 */
function expectedChapters(c: Case, inputs: CorpusFile[], starts: number[]): { at: number; lead: number }[] {
  if (c.chaptersFile) return c.chaptersFile.map((l) => ({ at: l.start, lead: 0 }));
  return inputs.flatMap((f, k) => {
    const trimmed = c.trims?.some((t) => t.input === k);
    const lead = trimmed ? 0 : f.lead;
    return f.chapters && !trimmed
      ? f.chapters.map((s) => ({ at: starts[k] + s, lead }))
      : [{ at: starts[k], lead }];
  });
}

function checkLength(c: Case, inputs: CorpusFile[], d: Decode, report: Report, problems: string[]) {
  const tol = lengthTolerance(c.format, d.rate);
  const copied = inputs.map((f) => isCopied(c, f, d.rate, report.channels));
  // A copied input keeps its encoder's delay and padding at both its joins (frames are never re-cut).
  const copiedJoins = copied.filter((on, k) => k > 0 && (on || copied[k - 1])).length;
  const joins = inputs.length - 1;
  const extra = joins * (c.gap ?? 0) - joins * (c.crossfade ?? 0);
  const lo = inputs.reduce((s, f, k) => s + spanOf(c, k, f).lo, 0) + extra;
  const hi = inputs.reduce((s, f, k) => s + spanOf(c, k, f).hi, 0) + extra;
  const slack = (tol.end + tol.perInput * inputs.length) / d.rate;
  const joinSlack = (copiedJoins * tol.copiedJoin) / d.rate;
  const got = d.samples / d.rate;
  if (got < lo - slack || got > hi + slack + joinSlack)
    problems.push(
      `decoded length ${got.toFixed(5)} s, expected ${lo.toFixed(5)}..${hi.toFixed(5)} s ` +
        `(+${(slack + joinSlack).toFixed(5)} s for ${c.format}, ${copiedJoins} copied joins)`,
    );
  if (Math.abs(report.durationSeconds - got) > reportTolerance(c.format, d.rate))
    problems.push(`the report says ${report.durationSeconds} s, the decode holds ${got.toFixed(5)} s`);
}

function checkShape(
  c: Case,
  inputs: CorpusFile[],
  report: Report,
  pr: { rate: number; channels: number },
  problems: string[],
) {
  if (report.sampleRate !== pr.rate || report.channels !== pr.channels)
    problems.push(
      `the report says ${report.sampleRate} Hz ${report.channels} ch, the file is ${pr.rate} Hz ${pr.channels} ch`,
    );
  const want = expectedShape(c, inputs);
  if (want.rate !== undefined && pr.rate !== want.rate)
    problems.push(`rate ${pr.rate}, expected ${want.rate}`);
  if (want.channels !== undefined && pr.channels !== want.channels)
    problems.push(`channels ${pr.channels}, expected ${want.channels}`);
  const everyCopied = inputs.every((f) => isCopied(c, f, pr.rate, pr.channels));
  if (
    (everyCopied || c.format === 'flac' || c.format === 'wav') &&
    c.loudness === undefined &&
    report.transcoded.length
  )
    problems.push(`transcoded ${JSON.stringify(report.transcoded)}, expected none`);
}

function checkChapters(
  c: Case,
  inputs: CorpusFile[],
  found: Found,
  report: Report,
  written: { start: number }[],
  problems: string[],
) {
  const want = expectedChapters(c, inputs, found.starts);
  // WAV has no chapters of its own: the report says where each input starts.
  const got = c.format === 'wav' ? report.chapters : written;
  if (got.length !== want.length) {
    problems.push(`${got.length} chapters, expected ${want.length}`);
    return;
  }
  want.forEach((w, i) => {
    const start = got[i].start;
    if (start > w.at + CHAPTER_TOLERANCE || start < w.at - w.lead - CHAPTER_TOLERANCE)
      problems.push(
        `chapter ${i + 1} starts at ${start.toFixed(3)} s, its input's audio at ${w.at.toFixed(3)} s`,
      );
  });
}

/** Mono samples at the output's rate over [from, from + seconds), from the kept decode or a decode of that window. */
async function window(
  out: string,
  d: Decode,
  from: number,
  seconds: number,
): Promise<{ pcm: Float32Array; at: number }> {
  if (d.native) return { pcm: d.native, at: 0 };
  return { pcm: await decodeWindow(out, from, seconds), at: Math.max(0, from) };
}

/** No click at any join of two whole inputs, nor inside any input's steady stretch. */
async function checkClicks(
  c: Case,
  inputs: CorpusFile[],
  out: string,
  d: Decode,
  found: Found,
  problems: string[],
) {
  const x = c.crossfade ?? 0;
  const own: number[] = [];
  for (const [k, f] of inputs.entries()) {
    const span = spanOf(c, k, f).lo;
    const from = found.starts[k] + 0.6 * span; // past a swell (corpus.ts, burstDb) at 40%
    const w = await window(out, d, from, 0.1);
    own.push(edge(w.pcm, (from - w.at) * d.rate, (from - w.at + 0.1) * d.rate));
    // An input that swells (a loudness case's peak) is not steady by design.
    if (d.native && f.recipe.burstDb === undefined) {
      const steady = worstBlock(
        d.native,
        d.rate,
        found.starts[k] + x + 0.05,
        found.starts[k] + span - x - 0.05,
      );
      if (steady.worst > STEADY_RATIO * steady.median + CLICK_FLOOR)
        problems.push(
          `a click inside input ${k + 1} at ${steady.at.toFixed(3)} s (edge ${steady.worst.toFixed(4)}, its own ${steady.median.toFixed(4)})`,
        );
    }
  }
  for (let k = 1; k < inputs.length; k++) {
    const cut = c.trims?.some((t) => t.input === k || t.input === k - 1);
    if (cut) continue; // a cut inside a tone is a jump the person asked for
    const points = [found.starts[k], ...(c.gap ? [found.starts[k] - c.gap] : [])];
    for (const t of points) {
      const from = t - 0.03 - x;
      const w = await window(out, d, from, 0.06 + 2 * x);
      const sharpest = edge(w.pcm, (from - w.at) * d.rate, (from - w.at + 0.06 + 2 * x) * d.rate);
      const limit = CLICK_RATIO * Math.max(own[k - 1], own[k]) + CLICK_FLOOR;
      if (sharpest > limit)
        problems.push(
          `a click at the join before input ${k + 1} (${t.toFixed(3)} s): edge ${sharpest.toFixed(4)} > ${limit.toFixed(4)}`,
        );
    }
  }
}

function checkCrossfades(c: Case, inputs: CorpusFile[], found: Found, problems: string[]) {
  const x = c.crossfade;
  if (!x) return;
  for (let k = 1; k < inputs.length; k++) {
    const a = found.powers.get(inputs[k - 1].frequency)!;
    const b = found.powers.get(inputs[k].frequency)!;
    const dip = lowestSum(
      a,
      found.levels[k - 1],
      b,
      found.levels[k],
      found.starts[k] + 0.02,
      found.starts[k] + x - 0.02,
    );
    if (dip < -CROSSFADE_DIP_DB)
      problems.push(`the crossfade before input ${k + 1} dips to ${dip.toFixed(2)} dB of summed power`);
  }
}

async function checkLoudness(c: Case, inputs: CorpusFile[], out: string, found: Found, problems: string[]) {
  if (c.loudness === undefined) return;
  for (const [k, f] of inputs.entries()) {
    const span = spanOf(c, k, f).lo;
    const m = await loudness(out, { from: found.starts[k] + 0.5, seconds: span - 1 });
    if (Math.abs(m.integrated - c.loudness) > LOUDNESS_TOLERANCE)
      problems.push(`input ${k + 1} measures ${m.integrated} LUFS, asked ${c.loudness}`);
  }
  const whole = await loudness(out);
  const lossy = c.format !== 'flac' && c.format !== 'wav';
  if (whole.truePeak > TRUE_PEAK_LIMIT + (lossy ? LOSSY_PEAK_SLACK : 0.05))
    problems.push(`true peak ${whole.truePeak} dBTP, above ${TRUE_PEAK_LIMIT}`);
}

async function runCase(c: Case): Promise<string[]> {
  const inputs = c.inputs.map((r) => files.get(recipeKey(r))!);
  const dir = await mkdtemp(path.join(work, 'case-'));
  const out = path.join(dir, `out.${c.format}`);
  let chaptersFile: string | undefined;
  if (c.chaptersFile) {
    chaptersFile = path.join(dir, 'chapters.txt');
    await writeFile(chaptersFile, c.chaptersFile.map((l) => `${l.start} ${l.title}`).join('\n'));
  }
  const res = await runCli(cliArgs(c, inputs, out, chaptersFile));
  if (res.code !== 0) return [`exit ${res.code}: ${res.stderr.trim().split('\n').slice(-3).join(' / ')}`];
  const report = JSON.parse(res.stdout.trim().split('\n').at(-1)!) as Report;
  const problems = await checkOutput(c, inputs, out, report);
  await rm(dir, { recursive: true, force: true });
  return problems;
}

/** Everything a person checks of one output, as a list of what is wrong (empty: all right). */
async function checkOutput(c: Case, inputs: CorpusFile[], out: string, report: Report): Promise<string[]> {
  const problems: string[] = [];
  if (report.fallbacks?.length) problems.push(`fallbacks: ${JSON.stringify(report.fallbacks)}`);
  const pr = await probe(out);
  checkShape(c, inputs, report, pr, problems);
  const d = await decode(out, pr.rate, report.durationSeconds);
  if (d.errors.trim()) problems.push(`the decoder says: ${d.errors.trim().split('\n')[0]}`);
  checkLength(c, inputs, d, report, problems);
  const found = findStarts(c, inputs, d, problems);
  checkChapters(c, inputs, found, report, pr.chapters, problems);
  await checkClicks(c, inputs, out, d, found, problems);
  checkCrossfades(c, inputs, found, problems);
  await checkLoudness(c, inputs, out, found, problems);
  return problems;
}

/** The paths a case takes: its table's, with the chunking told by the engine's own arithmetic. */
function pathsTaken(c: Case): Path[] {
  const lossyRun = c.format === 'mp3' || c.format === 'm4a' || c.format === 'm4b';
  const encoded = c.inputs.filter((r) => {
    const fam = kindByName(r.kind).family;
    return !((fam === 'mp3' && c.format === 'mp3') || (fam === 'aac' && c.format !== 'mp3'));
  });
  const seconds = encoded.reduce((s, r) => s + r.seconds, 0);
  const rate = encoded.length ? kindByName(encoded[0].kind).rate : 44100;
  const extra: Path[] = [];
  if (lossyRun && encoded.length && chunked(c.format, rate, seconds))
    extra.push(c.format === 'mp3' ? 'mp3-encode-chunked' : 'aac-encode-chunked');
  return [...new Set([...c.paths, ...extra])];
}

describe('the conformance matrix', () => {
  it('covers every path, and both sides of where encodes are chunked', () => {
    const taken = new Set(allCases().flatMap(pathsTaken));
    const every: Path[] = [
      'mp3-copy',
      'mp3-encode',
      'mp3-encode-chunked',
      'aac-copy',
      'aac-encode',
      'aac-encode-chunked',
    ]
      .concat([
        'direct-feed',
        'pcm-route',
        'resample',
        'trim',
        'gap',
        'crossfade',
        'loudness',
        'chapters-file',
      ])
      .concat(['input-chapters', 'long']) as Path[];
    expect(every.filter((p) => !taken.has(p))).toEqual([]);
    console.log(
      allCases()
        .map((c) => `${c.engine ? '*' : ' '} ${c.id.padEnd(46)} ${pathsTaken(c).join(', ')}`)
        .join('\n'),
    );
  });

  // The checks themselves, on outputs made wrong on purpose: a test that cannot fail is no test.
  const pairFiles = () => flacPair.inputs.map((r) => files.get(recipeKey(r))!);

  it('sees a lost stretch at a join: the length, a click, a chapter off its input', async () => {
    const [a, b] = pairFiles();
    const out = path.join(work, 'lost.wav');
    // The pair joined, but 40 ms from the middle of the second's first second gone.
    await ffmpegRef(
      ['-i', a.file, '-i', b.file, '-filter_complex']
        .concat([
          '[1:a]atrim=end=0.5[h];[1:a]atrim=start=0.54,asetpts=PTS-STARTPTS[t];[0:a][h][t]concat=n=3:v=0:a=1',
        ])
        .concat(['-c:a', 'pcm_s16le', out]),
    );
    const whole = a.seconds + b.seconds;
    const problems = await checkOutput(flacPair, [a, b], out, {
      durationSeconds: whole,
      transcoded: [],
      sampleRate: 44100,
      channels: 2,
      chapters: [
        { title: 'a', start: 0, end: a.seconds },
        { title: 'b', start: a.seconds + 0.05, end: whole },
      ],
    });
    expect(problems.join('\n')).toMatch(/decoded length/);
    expect(problems.join('\n')).toMatch(/the report says/);
    expect(problems.join('\n')).toMatch(/a click inside input 2/);
    expect(problems.join('\n')).toMatch(/chapter 2 starts at/);
  });

  it('tells a constant-power crossfade from a linear one', async () => {
    const [a, b] = pairFiles();
    const faded = { ...flacPair, crossfade: 1 };
    const report = (whole: number): Report => ({
      durationSeconds: whole,
      transcoded: [],
      sampleRate: 44100,
      channels: 2,
      chapters: [
        { title: 'a', start: 0, end: a.seconds - 1 },
        { title: 'b', start: a.seconds - 1, end: whole },
      ],
    });
    const dips: string[][] = [];
    for (const curve of ['qsin', 'tri']) {
      const out = path.join(work, `fade-${curve}.wav`);
      await ffmpegRef(
        ['-i', a.file, '-i', b.file, '-filter_complex', `acrossfade=d=1:c1=${curve}:c2=${curve}`].concat([
          '-c:a',
          'pcm_s16le',
          out,
        ]),
      );
      dips.push(
        (await checkOutput(faded, [a, b], out, report(a.seconds + b.seconds - 1))).filter((p) =>
          /dips/.test(p),
        ),
      );
    }
    expect(dips[0]).toEqual([]);
    expect(dips[1].join()).toMatch(/dips to -[23]\./);
  });

  it.concurrent.each(cases.map((c) => [c.id, c] as const))('%s', async (_id, c) => {
    const started = Date.now();
    const problems = await runCase(c);
    // A line per case as it ends: a long run shows where it is, and the failures' words in one place.
    console.log(
      `${problems.length ? 'FAIL' : 'ok  '} ${c.id} (${((Date.now() - started) / 1000).toFixed(1)} s)${problems.map((p) => `\n     ${p}`).join('')}`,
    );
    expect(problems, `voices ${c.inputs.map((r) => VOICES[r.voice]).join(', ')} Hz`).toEqual([]);
  });
});
