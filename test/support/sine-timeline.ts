// A sine timeline in PCM part files, and how far a decode of its encode strays from it, window by
// window: what the parallel timeline encodes (AAC, MP3) are checked against at their seams.
import { execFile } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll } from 'vitest';
import { spawnRunner } from '../../src/engine/ffmpeg/runner.js';
import type { PcmPart, TimelineContext } from '../../src/engine/timeline/timeline-encode.js';
import type { Tools } from '../../src/engine/types.js';
import { tempDir } from './audio-fixtures.js';

const exec = promisify(execFile);

const SINE_HZ = 997;
const SINE_AMPLITUDE = 4096 / 32768;

/**
 * The largest difference between the sine and itself one sample later: 2·A·sin(π·f/rate). A
 * decode that slipped by a sample or more strays this far in every window; coding noise, whatever
 * the encoder, stays well under half of it at the bit rates the timelines use.
 */
export function oneSampleSlip(rate: number): number {
  return 2 * SINE_AMPLITUDE * Math.sin((Math.PI * SINE_HZ) / rate);
}

/** A 997 Hz sine at an eighth of full scale (louder, this encoder's own errors on a pure tone grow), stereo 16-bit, cut into part files of these lengths (sample frames). */
export async function sineParts(
  dir: string,
  rate: number,
  lengths: number[],
): Promise<{ parts: PcmPart[]; samples: Float32Array }> {
  const total = lengths.reduce((a, b) => a + b, 0);
  const all = new Int16Array(total * 2);
  for (let t = 0; t < total; t++)
    all[2 * t] = all[2 * t + 1] = Math.round(
      32768 * SINE_AMPLITUDE * Math.sin((2 * Math.PI * SINE_HZ * t) / rate),
    );
  const parts: PcmPart[] = [];
  let at = 0;
  for (const [i, n] of lengths.entries()) {
    const file = path.join(dir, `part-${i}.pcm`);
    await writeFile(file, all.subarray(2 * at, 2 * (at + n)));
    parts.push({ file, samples: n, input: i });
    at += n;
  }
  return { parts, samples: Float32Array.from({ length: total }, (_, t) => all[2 * t] / 32768) };
}

export async function decodeLeft(tools: Tools, file: string): Promise<Float32Array> {
  const { stdout } = await exec(
    tools.ffmpeg,
    ['-v', 'error', '-i', file, '-af', 'pan=mono|c0=c0', '-f', 'f32le', '-'],
    { encoding: 'buffer', maxBuffer: 256 << 20 },
  );
  const buf = Buffer.from(stdout as Buffer);
  return new Float32Array(buf.buffer, buf.byteOffset, buf.length / 4);
}

/** The largest difference in each window of 1024 samples. */
export function windowErrors(a: Float32Array, b: Float32Array, n: number): number[] {
  const errs: number[] = [];
  for (let w = 0; w + 1024 <= n; w += 1024) {
    let m = 0;
    for (let t = w; t < w + 1024; t++) m = Math.max(m, Math.abs(a[t] - b[t]));
    errs.push(m);
  }
  return errs;
}

/** Window errors split at the seams (sample positions): the largest within 2048 samples of one, and the others sorted. */
export function seamSplit(errs: number[], seams: number[]): { atSeams: number; elsewhere: number[] } {
  const nearSeam = (w: number) => seams.some((s) => Math.abs(w * 1024 + 512 - s) <= 2048);
  return {
    atSeams: Math.max(...errs.filter((_, w) => nearSeam(w))),
    elsewhere: errs.filter((_, w) => !nearSeam(w)).sort((a, b) => a - b),
  };
}

/**
 * A timeline encode of 40 s in two parts, cancelled a moment after its first encoder starts, while
 * it (and any other) still runs: what it threw, and the pids of the encoders it started.
 */
export async function cancelledEncode(
  dir: string,
  tools: Tools,
  output: 'mp3' | 'm4a',
  encode: (ctx: TimelineContext, parts: PcmPart[]) => Promise<unknown>,
): Promise<{ err: unknown; pids: number[] }> {
  const { parts } = await sineParts(dir, 44100, [44100 * 20, 44100 * 20]);
  const controller = new AbortController();
  const pids: number[] = [];
  const ctx = {
    ...timelineContext(dir, tools, output, controller.signal, () => controller.abort()),
    runner: (req: Parameters<typeof spawnRunner>[0]) =>
      spawnRunner({
        ...req,
        onSpawn: (pid) => pids.push(pid) === 1 && setTimeout(() => controller.abort(), 100),
      }),
  };
  const err = await encode(ctx, parts).catch((e: unknown) => e);
  return { err, pids };
}

/** A timeline encode's context for three encoded inputs at 44.1 kHz stereo, 128 kb/s, in `dir`. */
export function timelineContext(
  dir: string,
  tools: Tools,
  output: 'mp3' | 'm4a',
  signal = new AbortController().signal,
  abort = () => {},
): TimelineContext {
  const route = output === 'mp3' ? 'mp3-frames' : 'mp4-packets';
  return {
    scratch: () => Promise.resolve(dir),
    names: ['one', 'two', 'three'],
    plan: {
      format: output,
      route,
      sampleRate: 44100,
      channels: 2,
      bitRateKbps: 128,
      copy: [false, false, false],
      transcoded: [0, 1, 2],
    },
    tools,
    signal,
    abort,
    concurrency: 3,
  };
}

/**
 * A scratch folder for the tests around the call, made before them and removed after. The
 * encoders read the parts through ffmpeg's concat and subfile protocols, whose separators are
 * | , and : : it is named with them, which must not matter.
 */
export function oddlyNamedScratch(): { readonly dir: string } {
  let made: { dir: string; cleanup: () => Promise<void> } | undefined;
  let dir: string | undefined;
  beforeAll(async () => {
    made = await tempDir();
    dir = path.join(made.dir, 'odd | name, with: separators');
    await mkdir(dir);
  });
  afterAll(() => made?.cleanup());
  return {
    get dir() {
      if (!dir) throw new Error('the scratch folder is made in beforeAll');
      return dir;
    },
  };
}
