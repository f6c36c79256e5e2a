// Trims (--trim): each input's kept span cut exactly, on every route, measured on the decoded
// output. Each input is silence with one abrupt stretch of tone, trimmed through the tone, so a cut
// shows as where a tone starts or stops. Copied MP3s stay copied but for the frames at the cuts.
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { decodeErrors, ffprobeJson } from '../../../test/support/audio-fixtures.js';
import { decodeFloat } from '../../../test/support/pcm-measure.js';
import { loudRuns, makeToneWindow } from '../../../test/support/tone-edges.js';
import { TrimError } from '../errors.js';
import { spawnRunner, type Runner } from '../ffmpeg/runner.js';
import { splitFrames } from '../mp3/splice.js';
import { readMp4Audio } from '../mp4/read.js';
import { ffprobeChapters } from '../../../test/support/chapter-readers.js';
import { mergeFiles } from './merge.js';
import { scratchFiles, tools } from '../../../test/support/engine-kit.js';

const RATE = 44100;
const SPF = 1152;
/** What a cut may be off by, on the decoded audio. */
const MS = 0.001;

const p = scratchFiles();

/** Two inputs: tone A over 1..3 s of 4 s, tone B likewise; A kept 0.5..2 (cut in its tone), B 2.5..3.5. */
async function pair(ext: string, codec?: string[]): Promise<string[]> {
  return [
    await makeToneWindow(p(`a.${ext}`), { seconds: 4, from: 1, to: 3, frequency: 440, codec }),
    await makeToneWindow(p(`b.${ext}`), { seconds: 4, from: 1, to: 3, frequency: 880, codec }),
  ];
}
const TRIMS = [
  { input: 0, start: 0.5, end: 2 },
  { input: 1, start: 2.5, end: 3.5 },
];

/** The output's tone stretches, and its length, decoded. */
async function edges(out: string) {
  const pcm = await decodeFloat(out, RATE);
  return { runs: loudRuns(pcm, RATE), seconds: pcm.length / RATE };
}

/** A's tone 0.5..1.5 s (cut at its end), B's from where B starts to 0.5 s later (cut at its start), B's silence to its end. */
function expectExactCuts(
  got: { runs: Array<{ from: number; to: number }>; seconds: number },
  bStart: number,
) {
  expect(got.runs).toHaveLength(2);
  const [a, b] = got.runs;
  expect(Math.abs(a.from - 0.5)).toBeLessThan(MS);
  expect(Math.abs(a.to - 1.5)).toBeLessThan(MS);
  expect(Math.abs(b.from - bStart)).toBeLessThan(MS);
  expect(Math.abs(b.to - (bStart + 0.5))).toBeLessThan(MS);
  expect(Math.abs(got.seconds - (bStart + 1))).toBeLessThan(MS);
}

/** The audio frames of an MP3 file (its Info frame left out). */
/**
 * Every unit (MP3 frame, AAC packet) of the inputs well inside its kept span is in the output, by
 * its bytes (`kept`); none of A's after its cut is. `unitOf` says which unit a time decodes into.
 */
async function expectKeptUnits(
  kept: Set<string>,
  inputs: string[],
  units: (file: string) => Promise<Buffer[]>,
  unitOf: (seconds: number) => number,
): Promise<void> {
  for (const [i, t] of TRIMS.entries()) {
    const far = (await units(inputs[i])).slice(unitOf(t.start) + 4, unitOf(t.end) - 3);
    expect(far.length).toBeGreaterThan(30);
    for (const f of far) expect(kept.has(f.toString('base64'))).toBe(true);
  }
  // Nothing else of the inputs: A's tone after its cut is not in the output.
  const a = await units(inputs[0]);
  expect(kept.has(a[unitOf(2.5)].toString('base64'))).toBe(false);
}

async function audioFrames(file: string): Promise<Buffer[]> {
  const all = splitFrames(await readFile(file), { version: 1, sampleRate: RATE, channels: 2 });
  const info = all[0].includes('Info') || all[0].includes('Xing');
  return info ? all.slice(1) : all;
}

describe('trimming copied MP3s', () => {
  it('cuts at the sample, and every frame more than 3 frames from a cut is the input own, byte for byte', async () => {
    const inputs = await pair('mp3');
    const out = p('trimmed.mp3');
    const report = await mergeFiles(inputs, out, { tools, trims: TRIMS });
    expect(report.trims).toEqual(TRIMS);
    expect(await decodeErrors(out)).toBe('');
    const bStart = report.chapters[1].start;
    // A hard join of copies lands on whole frames: B starts within a frame after A ends, never over it.
    expect(bStart).toBeGreaterThanOrEqual(1.5);
    expect(bStart - 1.5).toBeLessThan(SPF / RATE);
    expect(report.chapters.map((c) => c.start)).toEqual([0, bStart]);
    expectExactCuts(await edges(out), bStart);
    expect(Math.abs(report.durationSeconds - (bStart + 1))).toBeLessThan(MS);

    const kept = new Set((await audioFrames(out)).map((f) => f.toString('base64')));
    // LAME's delay and the decoder's put decoded sample n in frame (n + 576 + 529) / 1152.
    const frameOf = (seconds: number) => Math.floor((Math.round(seconds * RATE) + 576 + 529) / SPF);
    await expectKeptUnits(kept, inputs, audioFrames, frameOf);
  });

  it('reports no input transcoded when only a neighbour is trimmed: its frames are copied byte for byte', async () => {
    const [a, b] = await pair('mp3');
    const c = await makeToneWindow(p('c.mp3'), { seconds: 4, from: 1, to: 3, frequency: 660 });
    const out = p('middle-trimmed.mp3');
    const report = await mergeFiles([a, b, c], out, { tools, trims: [{ input: 1, start: 0.5, end: 3.5 }] });
    // Only the frames at B's cuts went through the encoder: no input's own audio beyond those.
    expect(report.transcoded).toEqual([]);
    const kept = new Set((await audioFrames(out)).map((f) => f.toString('base64')));
    for (const [file, far] of [
      [a, (f: Buffer[]) => f.slice(0, -3)],
      [c, (f: Buffer[]) => f.slice(3)],
    ] as const) {
      const frames = far(await audioFrames(file));
      expect(frames.length).toBeGreaterThan(100);
      for (const f of frames) expect(kept.has(f.toString('base64'))).toBe(true);
    }
  });

  it('cuts as exactly when the one-stream decode fails and each piece is decoded on its own', async () => {
    const inputs = await pair('mp3');
    const out = p('batched.mp3');
    let streamed = 0;
    // ffmpeg fed on stdin fails as a broken stream would; the runs of files go through.
    const runner: Runner = (req) => {
      if (!req.stdin) return spawnRunner(req);
      streamed++;
      return spawnRunner({ ...req, args: ['-v', 'error', '-f', 'nothing-such', '-i', 'pipe:0'] });
    };
    const report = await mergeFiles(inputs, out, { tools, trims: TRIMS, runner });
    expect(streamed).toBeGreaterThan(0);
    expect(await decodeErrors(out)).toBe('');
    expectExactCuts(await edges(out), report.chapters[1].start);
  });

  it('trims composed with a gap: the gap sits between the trimmed inputs, the chapter where B begins', async () => {
    const inputs = await pair('mp3');
    const out = p('gap.mp3');
    const report = await mergeFiles(inputs, out, { tools, trims: TRIMS, gap: 1 });
    const bStart = report.chapters[1].start;
    expect(Math.abs(bStart - 2.5)).toBeLessThanOrEqual(SPF / 2 / RATE);
    expectExactCuts(await edges(out), bStart);
  });

  it('trims composed with a crossfade: B fades in where the trimmed A fades out', async () => {
    const inputs = await pair('mp3');
    const out = p('fade.mp3');
    const report = await mergeFiles(inputs, out, { tools, trims: TRIMS, crossfade: 0.3 });
    const bStart = report.chapters[1].start;
    expect(Math.abs(bStart - 1.2)).toBeLessThanOrEqual(SPF / 2 / RATE);
    const got = await edges(out);
    expect(Math.abs(got.runs[0].from - 0.5)).toBeLessThan(MS);
    expect(Math.abs(got.seconds - (bStart + 1))).toBeLessThan(MS);
    expect(await decodeErrors(out)).toBe('');
  });

  it('measures loudness on the kept span only', async () => {
    // A quiet tone for 2 s, then one 14 dB louder: keeping the quiet part, it is measured quiet.
    const twoLevels = await makeToneWindow(p('q.mp3'), {
      seconds: 4,
      from: 0,
      to: 4,
      frequency: 440,
      amplitude: '0.1+0.4*gte(t,2)',
    });
    const out = p('loud.mp3');
    const report = await mergeFiles([twoLevels, twoLevels], out, {
      tools,
      loudness: -16,
      trims: [{ input: 0, start: 0, end: 2 }],
    });
    const [kept, whole] = report.loudness!.map((l) => l.measured!);
    // The quiet part on its own, as a file of its own, measures as the kept span does.
    const quiet = await makeToneWindow(p('quiet.mp3'), {
      seconds: 2,
      from: 0,
      to: 2,
      frequency: 440,
      amplitude: '0.1',
    });
    const alone = await mergeFiles([quiet], p('alone.mp3'), { tools, loudness: -16 });
    expect(Math.abs(kept - alone.loudness![0].measured!)).toBeLessThan(0.5);
    expect(whole - kept).toBeGreaterThan(8);
    expect(report.loudness![0].gainDb).toBeGreaterThan(report.loudness![1].gainDb + 8);
    expect(Math.abs(report.chapters[1].start - 2)).toBeLessThan(SPF / RATE);
  });
});

/** The AAC packets of an MP4 file, in order, as bytes. */
async function aacPackets(file: string): Promise<Buffer[]> {
  const { sizes, offsets } = readMp4Audio(file);
  const bytes = await readFile(file);
  return Array.from(sizes, (n, i) => bytes.subarray(offsets[i], offsets[i] + n));
}

describe('trimming copied AAC', () => {
  const AAC = 1024;
  for (const out of ['trimmed-copy.m4b', 'trimmed-copy.m4a']) {
    it(`cuts at the sample into ${out}, every packet more than 3 packets from a cut the input's own`, async () => {
      const inputs = await pair('m4a', ['-c:a', 'aac', '-b:a', '128k']);
      const report = await mergeFiles(inputs, p(out), { tools, trims: TRIMS });
      expect(report.trims).toEqual(TRIMS);
      expect(report.transcoded).toEqual([]);
      expect(await decodeErrors(p(out))).toBe('');
      // The copies keep their own frame grid: B starts within a frame after A ends (silence between), never over it.
      const bStart = report.chapters[1].start;
      expect(bStart).toBeGreaterThanOrEqual(1.5);
      expect(bStart - 1.5).toBeLessThan(AAC / RATE);
      expect(report.chapters.map((c) => c.start)).toEqual([0, bStart]);
      const written = await ffprobeChapters(p(out));
      expect(written.map((c) => c.start)).toHaveLength(2);
      expect(Math.abs(written[1].start - bStart)).toBeLessThan(MS);
      expect(Math.abs(report.durationSeconds - (bStart + 1))).toBeLessThan(MS);
      // The file says so too (its movie header, which players show).
      expect(Math.abs(Number((await ffprobeJson(p(out))).format.duration) - (bStart + 1))).toBeLessThan(MS);

      const got = await edges(p(out));
      expect(got.runs).toHaveLength(2);
      const [a, b] = got.runs;
      expect(Math.abs(a.from - 0.5)).toBeLessThan(MS);
      expect(Math.abs(a.to - 1.5)).toBeLessThan(MS);
      expect(Math.abs(b.from - bStart)).toBeLessThan(MS);
      expect(Math.abs(b.to - (bStart + 0.5))).toBeLessThan(MS);
      // A decoder that plays the last packet whole (ffmpeg does) hears silence past the end, under a frame.
      expect(got.seconds).toBeGreaterThanOrEqual(bStart + 1 - MS);
      expect(got.seconds - (bStart + 1)).toBeLessThan(AAC / RATE);

      // Sample for sample each kept span is its input's decode: the re-encoded stretches at the
      // cuts keep a sine's error far under a tenth of its level; a span off by a few samples is not.
      const decoded = await decodeFloat(p(out), RATE);
      for (const [i, t] of TRIMS.entries()) {
        const source = await decodeFloat(inputs[i], RATE);
        const at = Math.round(report.chapters[i].start * RATE);
        const from = Math.round(t.start * RATE);
        expect(worstBlockError(decoded, at, source, from, Math.round((t.end - t.start) * RATE))).toBeLessThan(
          0.05,
        );
      }

      const kept = new Set((await aacPackets(p(out))).map((f) => f.toString('base64')));
      // Input packet n decodes samples from n * 1024 - 1024 (ffmpeg's AAC encoder primes one frame).
      const packetOf = (seconds: number) => Math.floor((Math.round(seconds * RATE) + AAC) / AAC);
      await expectKeptUnits(kept, inputs, aacPackets, packetOf);
    });
  }

  it('re-encodes a span too short to copy a packet of within the stretch around it, still at the sample', async () => {
    const [a, c] = await pair('m4a', ['-c:a', 'aac', '-b:a', '128k']);
    const b = await makeToneWindow(p('short.m4a'), {
      seconds: 2,
      from: 1,
      to: 2,
      frequency: 660,
      codec: ['-c:a', 'aac', '-b:a', '128k'],
    });
    const trims = [
      { input: 0, start: 0.5, end: 2 },
      { input: 1, start: 1.2, end: 1.25 },
      { input: 2, start: 2.5, end: 3.5 },
    ];
    const out = p('short-middle.m4b');
    const report = await mergeFiles([a, b, c], out, { tools, trims });
    expect(report.transcoded).toEqual([]);
    const [, bStart, cStart] = report.chapters.map((x) => x.start);
    // B lies inside the re-encoded stretch: it starts where A ends; C waits for its own frame grid.
    expect(Math.abs(bStart - 1.5)).toBeLessThan(MS);
    expect(cStart).toBeGreaterThanOrEqual(1.55 - MS);
    expect(cStart - 1.55).toBeLessThan(AAC / RATE);
    const got = await edges(out);
    const tones = got.runs.filter((r) => r.to - r.from > 0.02);
    expect(tones).toHaveLength(2);
    expect(Math.abs(tones[0].from - 0.5)).toBeLessThan(MS);
    expect(Math.abs(tones[0].to - 1.55)).toBeLessThan(MS);
    expect(Math.abs(tones[1].from - cStart)).toBeLessThan(MS);
    expect(Math.abs(tones[1].to - (cStart + 0.5))).toBeLessThan(MS);
    const pcm = await decodeFloat(out, RATE);
    expect(Math.abs(zeroCrossingsPerSecond(pcm, 1.3, 1.495) - 880)).toBeLessThan(20);
    expect(Math.abs(zeroCrossingsPerSecond(pcm, 1.505, 1.545) - 1320)).toBeLessThan(60);
  });

  it('splices the untrimmed side of a cut join too (mono, 48 kHz): each input where its chapter says', async () => {
    const R = 48000;
    const codec = ['-c:a', 'aac', '-b:a', '96k', '-ac', '1'];
    const tone = (name: string, seconds: number, from: number, to: number, frequency: number) =>
      makeToneWindow(p(name), { seconds, from, to, frequency, codec, sampleRate: R });
    const inputs = [
      await tone('ma.m4a', 3, 1, 3, 440),
      await tone('mb.m4a', 2, 0.5, 1.5, 660),
      await tone('mc.m4a', 3, 0, 2, 880),
    ];
    const trims = [
      { input: 0, start: 0, end: 2 },
      { input: 2, start: 1.5, end: 3 },
    ];
    const out = p('untrimmed-between.m4a');
    const report = await mergeFiles(inputs, out, {
      tools,
      trims: [
        { input: 0, end: 2 },
        { input: 2, start: 1.5 },
      ],
    });
    expect(report.trims).toEqual(trims);
    expect(report.transcoded).toEqual([]);
    const [, bStart, cStart] = report.chapters.map((c) => c.start);
    // Each next input starts within a frame after the one before ends, never over it.
    expect(bStart - 2).toBeGreaterThanOrEqual(0);
    expect(bStart - 2).toBeLessThan(1024 / R);
    expect(cStart - (bStart + 2)).toBeGreaterThanOrEqual(0);
    expect(cStart - (bStart + 2)).toBeLessThan(1024 / R);
    const pcm = await decodeFloat(out, R);
    const runs = loudRuns(pcm, R);
    expect(runs).toHaveLength(3);
    const want = [
      [1, 2],
      [bStart + 0.5, bStart + 1.5],
      [cStart, cStart + 0.5],
    ];
    runs.forEach((r, k) => {
      expect(Math.abs(r.from - want[k][0])).toBeLessThan(MS);
      expect(Math.abs(r.to - want[k][1])).toBeLessThan(MS);
    });
  });

  it('moves the bar while the cuts are re-encoded, never back, and ends at 100', async () => {
    const inputs = await pair('m4a', ['-c:a', 'aac', '-b:a', '128k']);
    // The encode of the stretches at the cuts: one ffmpeg writing each stretch to its own file.
    const isStretches = (args: string[]) => args.some((a) => /cut-\d+\.m4a$/.test(a));
    let stretching = false;
    let stretchRuns = 0;
    const runner: Runner = async (req) => {
      if (!isStretches(req.args)) return spawnRunner(req);
      stretchRuns++;
      stretching = true;
      try {
        return await spawnRunner(req);
      } finally {
        stretching = false;
      }
    };
    const seen: number[] = [];
    const during: number[] = [];
    const report = await mergeFiles(inputs, p('progress.m4b'), {
      tools,
      trims: TRIMS,
      runner,
      onProgress: (pct) => {
        seen.push(pct);
        if (stretching) during.push(pct);
      },
    });
    expect(report.trims).toEqual(TRIMS);
    expect(stretchRuns).toBe(1);
    expect(seen[0]).toBe(0);
    expect(seen).toEqual([...seen].sort((a, b) => a - b));
    expect(during.length).toBeGreaterThan(0);
    for (const pct of during) {
      expect(pct).toBeGreaterThan(0);
      expect(pct).toBeLessThan(100);
    }
    expect(seen.at(-1)).toBe(100);
    expect(seen.filter((pct) => pct === 100)).toHaveLength(1);
  });

  it('decodes trimmed AAC whole when a gap changes more than the cuts: exact still', async () => {
    const inputs = await pair('m4a', ['-c:a', 'aac', '-b:a', '128k']);
    const report = await mergeFiles(inputs, p('gap.m4b'), { tools, trims: TRIMS, gap: 1 });
    expect(report.transcoded).toEqual([0, 1]);
    const bStart = report.chapters[1].start;
    expect(Math.abs(bStart - 2.5)).toBeLessThan(MS);
    const got = await edges(p('gap.m4b'));
    expect(Math.abs(got.runs[0].from - 0.5)).toBeLessThan(MS);
    expect(Math.abs(got.runs[0].to - 1.5)).toBeLessThan(MS);
    expect(Math.abs(got.runs[1].from - bStart)).toBeLessThan(MS);
  });
});

describe('trimming decoded inputs', () => {
  for (const [ext, codec, out] of [
    ['wav', ['-c:a', 'pcm_s16le'], 'trimmed.wav'],
    ['flac', ['-c:a', 'flac'], 'trimmed.flac'],
    ['m4a', ['-c:a', 'aac', '-b:a', '128k'], 'trimmed.m4b'],
  ] as const) {
    it(`cuts ${ext} inputs at the sample into ${out}`, async () => {
      const inputs = await pair(ext, [...codec]);
      // AAC at another rate than the output's is decoded, and cut in its decode.
      const shape = ext === 'm4a' ? { sampleRate: 48000 } : {};
      const report = await mergeFiles(inputs, p(out), { tools, trims: TRIMS, ...shape });
      expect(report.chapters.map((c) => c.start)).toEqual([0, 1.5]);
      const got = await edges(p(out));
      const [a, b] = got.runs;
      expect(Math.abs(a.from - 0.5)).toBeLessThan(MS);
      // A's tone runs on into B's at the join (1.5 s): the two cuts meet there.
      const joined = b === undefined ? a : { from: a.from, to: b.to };
      expect(Math.abs(joined.to - 2)).toBeLessThan(MS);
      // AAC frames are whole (1024 samples): the M4B's last packet may run past B's end in silence.
      expect(got.seconds).toBeGreaterThanOrEqual(2.5 - MS);
      expect(got.seconds - 2.5).toBeLessThan(ext === 'm4a' ? 1024 / RATE : MS);
      // Where A's tone gives way to B's: the frequency changes at 1.5 s.
      const pcm = await decodeFloat(p(out), RATE);
      expect(Math.abs(zeroCrossingsPerSecond(pcm, 1.3, 1.495) - 880)).toBeLessThan(20);
      expect(Math.abs(zeroCrossingsPerSecond(pcm, 1.505, 1.7) - 1760)).toBeLessThan(20);
    });
  }
});

/** The largest RMS difference over blocks of 1024 samples between `a` from `atA` and `b` from `atB`, over `length` samples. */
function worstBlockError(a: Float32Array, atA: number, b: Float32Array, atB: number, length: number): number {
  let worst = 0;
  for (let k = 0; k < length; k += 1024) {
    const n = Math.min(1024, length - k);
    let sum = 0;
    for (let j = k; j < k + n; j++) sum += (a[atA + j] - b[atB + j]) ** 2;
    worst = Math.max(worst, Math.sqrt(sum / n));
  }
  return worst;
}

/** Zero crossings per second over [from, to) seconds: twice the frequency of a sine. */
function zeroCrossingsPerSecond(pcm: Float32Array, from: number, to: number): number {
  let n = 0;
  const a = Math.round(from * RATE);
  const b = Math.round(to * RATE);
  for (let i = a + 1; i < b; i++) if (pcm[i - 1] < 0 !== pcm[i] < 0) n++;
  return n / (to - from);
}

describe('the shortest span', () => {
  it.each(['mp3', 'm4b'])(
    'keeps a 0.05 s span of an MP3 between two others in %s, where its chapter says',
    async (ext) => {
      const [a, c] = await pair('mp3', ['-c:a', 'libmp3lame', '-b:a', '128k']);
      const b = await makeToneWindow(p('short-b.mp3'), {
        seconds: 2,
        from: 1,
        to: 2,
        frequency: 660,
        codec: ['-c:a', 'libmp3lame', '-b:a', '128k'],
      });
      const out = p(`shortest.${ext}`);
      const report = await mergeFiles([a, b, c], out, {
        tools,
        trims: [{ input: 1, start: 1.2, end: 1.25 }],
      });
      expect(report.chapters).toHaveLength(3);
      const [, bChapter] = report.chapters;
      // Each cut is exact to 1 ms; the chapter after it may wait for its frame grid (one frame).
      const frame = (ext === 'mp3' ? SPF : 1024) / RATE;
      expect(bChapter.end - bChapter.start).toBeGreaterThan(0.05 - MS);
      expect(bChapter.end - bChapter.start).toBeLessThan(0.05 + frame + MS);
      const { seconds } = await edges(out);
      expect(seconds).toBeGreaterThan(8.05 - MS);
    },
  );
});

describe('trims that cannot be used', () => {
  it('refuses an input that does not exist, a span past the end, an empty one: naming the trim, writing nothing', async () => {
    const inputs = await pair('wav', ['-c:a', 'pcm_s16le']);
    const out = p('never.wav');
    for (const [trim, said] of [
      [{ input: 2, start: 1 }, '--trim 3=1-: input 3 does not exist'],
      [{ input: 1, end: 5 }, "--trim 2=-5: ends past the input's end"],
      [{ input: 0, start: 2, end: 2 }, '--trim 1=2-2: keeps nothing'],
      // Less than a sample, or less than one frame of any output: nothing a format can hold.
      [{ input: 0, start: 0, end: 5e-324 }, 'keeps less than 0.05 s'],
      [{ input: 0, start: 2.5, end: 2.5000000001 }, 'keeps less than 0.05 s'],
      [{ input: 1, start: 1, end: 1.001 }, '--trim 2=1-1.001: keeps less than 0.05 s'],
    ] as const) {
      const err = await mergeFiles(inputs, out, { tools, trims: [trim] }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(TrimError);
      expect((err as TrimError).code).toBe('bad-trim');
      expect((err as Error).message).toContain(said);
      expect(existsSync(out)).toBe(false);
    }
  });
});
