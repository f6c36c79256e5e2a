// Decoded-audio measurements for the sound tests: float samples, levels in dB, clicks.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { tools } from './audio-fixtures.js';

const exec = promisify(execFile);

/** Decode to mono float samples at `rate` (no clipping, unlike 16-bit PCM). */
export async function decodeFloat(
  file: string,
  rate = 44100,
  extraArgs: string[] = [],
): Promise<Float32Array> {
  const { stdout } = await exec(
    tools.ffmpeg,
    [
      '-hide_banner',
      '-v',
      'error',
      '-i',
      file,
      ...extraArgs,
      '-ac',
      '1',
      '-ar',
      String(rate),
      '-f',
      'f32le',
      '-',
    ],
    { encoding: 'buffer', maxBuffer: 1024 * 1024 * 1024 },
  );
  const buf = Buffer.from(stdout as Buffer);
  return new Float32Array(buf.buffer, buf.byteOffset, Math.floor(buf.length / 4));
}

/** RMS of samples [from, to) in dBFS (-Infinity for digital silence). */
export function rmsDb(pcm: Float32Array, from = 0, to = pcm.length): number {
  let sum = 0;
  const a = Math.max(0, Math.floor(from));
  const b = Math.min(pcm.length, Math.floor(to));
  for (let i = a; i < b; i++) sum += pcm[i] * pcm[i];
  return 10 * Math.log10(sum / Math.max(1, b - a));
}

/** The largest absolute sample of [from, to). */
export function peakOf(pcm: Float32Array, from = 0, to = pcm.length): number {
  let m = 0;
  for (let i = Math.max(0, from); i < Math.min(pcm.length, to); i++) m = Math.max(m, Math.abs(pcm[i]));
  return m;
}

/**
 * The largest second difference |x[i-1] - 2x[i] + x[i+1]| over [from, to): a smooth tone keeps
 * it small, and a jump in the waveform (a click at a join) makes it spike.
 */
export function roughness(pcm: Float32Array, from = 1, to = pcm.length - 1): number {
  let m = 0;
  for (let i = Math.max(1, from); i < Math.min(pcm.length - 1, to); i++) {
    m = Math.max(m, Math.abs(pcm[i - 1] - 2 * pcm[i] + pcm[i + 1]));
  }
  return m;
}
