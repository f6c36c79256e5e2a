// Lossless and other encoded inputs into M4B/M4A at the lengths people have them: long enough that
// the AAC encode is cut into chunks encoded side by side and stitched. A chunk whose feed starts
// inside an input (one FLAC alone, or a seam snapped near an input's start) once came out with an
// edit list of its own and failed the merge.
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../../../test/support/audio-fixtures.js';
import { ffprobeChapters } from '../../../test/support/chapter-readers.js';
import { tools } from '../../../test/support/engine-kit.js';
import { findOnsets, makeOnsetInput, type OnsetInput } from '../../../test/support/onsets.js';
import { spawnRunner, type Runner } from '../ffmpeg/runner.js';
import { MIN_CHUNK_FRAMES } from '../plan/chunks.js';
import { mergeFiles } from './merge.js';

const exec = promisify(execFile);

/** Samples per AAC frame: a decoder that ignores the edit list's end may add at most one of padding. */
const AAC_FRAME = 1024;
/** Two encoders: the timeline is cut in two once it holds 2 * MIN_CHUNK_FRAMES frames. */
const CONCURRENCY = 2;
/** The longest timeline still encoded in one piece, in samples. */
const ONE_CHUNK_MAX = (CONCURRENCY * MIN_CHUNK_FRAMES - 1) * AAC_FRAME;

const flac = (sampleRate: number, bits: 16 | 24): OnsetInput => ({
  ext: 'flac',
  sampleRate,
  channels: 2,
  codec: ['-c:a', 'flac', ...(bits === 24 ? ['-sample_fmt', 's32'] : [])],
});
const WAV: OnsetInput = { ext: 'wav', sampleRate: 44100, channels: 2, codec: ['-c:a', 'pcm_s16le'] };
const OPUS: OnsetInput = {
  ext: 'opus',
  sampleRate: 48000,
  channels: 2,
  codec: ['-c:a', 'libopus', '-b:a', '64k'],
};

/** `file` as ffmpeg decodes it, at `rate`, mono; and what it said on the way (empty when it decoded cleanly). */
async function decodeMono(file: string, rate: number): Promise<{ pcm: Int16Array; errors: string }> {
  const { stdout, stderr } = await exec(
    tools.ffmpeg,
    ['-v', 'error', '-i', file, '-ar', String(rate), '-ac', '1', '-f', 's16le', '-'],
    { encoding: 'buffer', maxBuffer: 256 << 20 },
  );
  const buf = stdout as Buffer;
  return {
    pcm: new Int16Array(buf.buffer, buf.byteOffset, buf.length / 2),
    errors: stderr.toString().trim(),
  };
}

const decodedSamples = async (file: string, rate: number) => (await decodeMono(file, rate)).pcm.length;

/** The output's audio length by its container (the edit list), in samples. */
async function statedSamples(file: string): Promise<number> {
  const { stdout } = await exec(tools.ffprobe, [
    '-v',
    'error',
    '-select_streams',
    'a:0',
    '-show_entries',
    'stream=duration_ts',
    '-of',
    'csv=p=0',
    file,
  ]);
  return Number(stdout.trim());
}

/** A runner that counts the timeline's chunk encodes (each writes `aac-T-K.m4a`). */
function countingChunks(): { runner: Runner; chunks: () => number } {
  let chunks = 0;
  const runner: Runner = (req) => {
    if (req.args.some((a) => /aac-\d+-\d+\.m4a$/.test(a))) chunks++;
    return spawnRunner(req);
  };
  return { runner, chunks: () => chunks };
}

describe('encoded inputs into M4B and M4A through the chunked AAC encode', () => {
  let dir: string;
  let cleanup: () => Promise<void>;
  beforeAll(async () => ({ dir, cleanup } = await tempDir()));
  afterAll(() => cleanup());

  /**
   * Merge `count` inputs of `kind`, each `seconds` long, into `ext`: as long as the inputs
   * decode together (the container exactly, a decode within one frame of padding), the rate kept,
   * no decode error, each chapter within 30 ms of its input's tone. The chunk encodes it took.
   */
  async function mergesExactly(kind: OnsetInput, seconds: number, count: number, ext: 'm4b' | 'm4a') {
    const name = `${kind.ext}-${kind.sampleRate}-${kind.codec.join('')}-${seconds}-${count}`;
    const inputs = await Promise.all(
      Array.from({ length: count }, (_, i) =>
        makeOnsetInput(path.join(dir, `${name}-${i}.${kind.ext}`), kind, seconds + 0.0137 * i, 400 + 150 * i),
      ),
    );
    const out = path.join(dir, `${name}.${ext}`);
    const { runner, chunks } = countingChunks();
    const report = await mergeFiles(inputs, out, { tools, runner, concurrency: CONCURRENCY });
    expect(report.transcoded).toEqual(inputs.map((_, i) => i));
    expect(report.sampleRate).toBe(kind.sampleRate);
    const want = (await Promise.all(inputs.map((f) => decodedSamples(f, kind.sampleRate)))).reduce(
      (a, b) => a + b,
    );
    expect(await statedSamples(out)).toBe(want);
    expect(Math.round(report.durationSeconds * kind.sampleRate)).toBe(want);
    const { pcm, errors } = await decodeMono(out, kind.sampleRate);
    expect(errors).toBe('');
    expect(pcm.length - want).toBeGreaterThanOrEqual(0);
    expect(pcm.length - want).toBeLessThan(AAC_FRAME);
    const onsets = findOnsets(pcm, kind.sampleRate);
    const chapters = await ffprobeChapters(out);
    expect(onsets).toHaveLength(count);
    expect(chapters).toHaveLength(count);
    chapters.forEach((c, i) => expect(Math.abs(c.start - onsets[i])).toBeLessThanOrEqual(0.03));
    return chunks();
  }

  it.each([
    { rate: 44100, bits: 16, count: 1, ext: 'm4b' },
    { rate: 44100, bits: 16, count: 2, ext: 'm4a' },
    { rate: 48000, bits: 24, count: 1, ext: 'm4a' },
    { rate: 48000, bits: 24, count: 2, ext: 'm4b' },
    { rate: 96000, bits: 24, count: 1, ext: 'm4b' },
    { rate: 96000, bits: 16, count: 2, ext: 'm4a' },
  ] as const)('$count FLAC of 30 s, $bits bit at $rate Hz, into $ext', async ({ rate, bits, count, ext }) => {
    expect(await mergesExactly(flac(rate, bits), 30, count, ext)).toBe(CONCURRENCY);
  });

  it('5 minutes: one FLAC into M4B, and two into M4A', async () => {
    expect(await mergesExactly(flac(44100, 16), 300, 1, 'm4b')).toBe(CONCURRENCY);
    expect(await mergesExactly(flac(48000, 24), 150, 2, 'm4a')).toBe(CONCURRENCY);
  }, 120_000);

  it.each([
    { kind: WAV, count: 1 },
    { kind: WAV, count: 2 },
    { kind: OPUS, count: 1 },
    { kind: flac(44100, 16), count: 2 },
  ])('$kind.ext x$count into M4B either side of where chunking starts', async ({ kind, count }) => {
    const below = (ONE_CHUNK_MAX - 2000) / count / kind.sampleRate;
    const above = (ONE_CHUNK_MAX + 2000) / count / kind.sampleRate;
    expect(await mergesExactly(kind, below, count, 'm4b')).toBe(1);
    expect(await mergesExactly(kind, above, count, 'm4b')).toBe(CONCURRENCY);
  });
});
