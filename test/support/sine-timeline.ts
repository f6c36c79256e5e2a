// A sine timeline in PCM part files, and how far a decode of its encode strays from it, window by
// window: what the parallel timeline encodes (AAC, MP3) are checked against at their seams.
import { execFile } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import type { PcmPart, TimelineContext } from '../../src/engine/pipeline/timeline-encode.js';
import type { Tools } from '../../src/engine/types.js';

const exec = promisify(execFile);

/** A 997 Hz sine at an eighth of full scale (louder, this encoder's own errors on a pure tone grow), stereo 16-bit, cut into part files of these lengths (sample frames). */
export async function sineParts(dir: string, rate: number, lengths: number[]): Promise<{ parts: PcmPart[]; samples: Float32Array }> {
  const total = lengths.reduce((a, b) => a + b, 0);
  const all = new Int16Array(total * 2);
  for (let t = 0; t < total; t++) all[2 * t] = all[2 * t + 1] = Math.round(4096 * Math.sin((2 * Math.PI * 997 * t) / rate));
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
  const { stdout } = await exec(tools.ffmpeg, ['-v', 'error', '-i', file, '-af', 'pan=mono|c0=c0', '-f', 'f32le', '-'], { encoding: 'buffer', maxBuffer: 256 << 20 });
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


/** A timeline encode's context for three encoded inputs at 44.1 kHz stereo, 128 kb/s, in `dir`. */
export function timelineContext(dir: string, tools: Tools, output: 'mp3' | 'm4a', signal = new AbortController().signal, abort = () => {}): TimelineContext {
  const route = output === 'mp3' ? 'mp3-frames' : 'mp4-packets';
  return {
    scratch: () => Promise.resolve(dir),
    names: ['one', 'two', 'three'],
    plan: { format: output, route, sampleRate: 44100, channels: 2, bitRateKbps: 128, copy: [false, false, false], transcoded: [0, 1, 2] },
    tools,
    signal,
    abort,
    concurrency: 3,
  };
}
