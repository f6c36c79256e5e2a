// Inputs whose cuts can be located on the decoded audio: silence with one stretch of a sine that
// starts and stops abruptly, and the finder of the loud runs in a decode (where a tone starts and
// stops, to the sample).
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { tools } from './audio-fixtures.js';

const exec = promisify(execFile);

export interface ToneWindow {
  /** Seconds of the whole file. */
  seconds: number;
  /** The tone sounds over [from, to) seconds; silence elsewhere. */
  from: number;
  to: number;
  frequency: number;
  /** The tone's amplitude, an ffmpeg expression of t (half of full scale when left out). */
  amplitude?: string;
  sampleRate?: number;
  /** Codec arguments (MP3 at 128k when left out). */
  codec?: string[];
}

/** A file of silence with one abrupt stretch of tone at half of full scale, stereo. */
export async function makeToneWindow(file: string, w: ToneWindow): Promise<string> {
  const rate = w.sampleRate ?? 44100;
  const expr = `(${w.amplitude ?? '0.5'})*sin(2*PI*${w.frequency}*t)*gte(t,${w.from})*lt(t,${w.to})`;
  await exec(tools.ffmpeg, [
    '-hide_banner',
    '-v',
    'error',
    '-y',
    '-f',
    'lavfi',
    '-i',
    `aevalsrc='${expr}':s=${rate}:d=${w.seconds}`,
    '-ac',
    '2',
    ...(w.codec ?? ['-c:a', 'libmp3lame', '-b:a', '128k']),
    file,
  ]);
  return file;
}

/**
 * The stretches of `pcm` (mono, `rate` Hz) above `threshold`, in seconds, quiet gaps shorter than
 * `bridge` seconds bridged (a sine is near zero twice a period).
 */
export function loudRuns(
  pcm: Float32Array,
  rate: number,
  threshold = 0.1,
  bridge = 0.001,
): Array<{ from: number; to: number }> {
  const runs: Array<{ from: number; to: number }> = [];
  const join = Math.round(bridge * rate);
  let start = -1;
  let last = -1;
  for (let i = 0; i < pcm.length; i++) {
    if (Math.abs(pcm[i]) <= threshold) continue;
    if (start >= 0 && i - last > join) {
      runs.push({ from: start / rate, to: (last + 1) / rate });
      start = i;
    } else if (start < 0) start = i;
    last = i;
  }
  if (start >= 0) runs.push({ from: start / rate, to: (last + 1) / rate });
  return runs;
}
