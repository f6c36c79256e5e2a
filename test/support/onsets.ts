// Inputs whose starts can be heard, and the finder that hears them: each input is a tone that
// starts at its first sample and ends in 150 ms of silence, so in a joined output every input's
// start is the first loud sample after a quiet stretch.
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { tools } from './audio-fixtures.js';

const exec = promisify(execFile);

export interface OnsetInput {
  ext: string;
  sampleRate: number;
  channels: number;
  codec: string[];
}

/** One of each kind the engine takes, cycled through by makeOnsetInputs. */
export const ONSET_KINDS: OnsetInput[] = [
  { ext: 'mp3', sampleRate: 44100, channels: 2, codec: ['-c:a', 'libmp3lame', '-b:a', '128k'] },
  { ext: 'wav', sampleRate: 44100, channels: 1, codec: ['-c:a', 'pcm_s16le'] },
  { ext: 'flac', sampleRate: 48000, channels: 2, codec: ['-c:a', 'flac'] },
  { ext: 'ogg', sampleRate: 44100, channels: 2, codec: ['-c:a', 'libvorbis', '-q:a', '3'] },
  { ext: 'opus', sampleRate: 48000, channels: 2, codec: ['-c:a', 'libopus', '-b:a', '64k'] },
  { ext: 'm4a', sampleRate: 44100, channels: 2, codec: ['-c:a', 'aac', '-b:a', '128k'] },
];

export const QUIET_TAIL = 0.15;

/** Input i: a tone of its own frequency for `seconds` - QUIET_TAIL, then silence; titled "Part i". */
export async function makeOnsetInput(
  file: string,
  kind: OnsetInput,
  seconds: number,
  frequency: number,
  title?: string,
): Promise<string> {
  const total = Math.round(seconds * kind.sampleRate);
  const tone = seconds - QUIET_TAIL;
  await exec(tools.ffmpeg, [
    '-hide_banner',
    '-v',
    'error',
    '-y',
    '-f',
    'lavfi',
    '-i',
    `sine=frequency=${frequency}:sample_rate=${kind.sampleRate}:duration=${tone},volume=4,apad=whole_len=${total}`,
    '-ac',
    String(kind.channels),
    '-ar',
    String(kind.sampleRate),
    ...kind.codec,
    ...(title ? ['-metadata', `title=${title}`] : []),
    file,
  ]);
  return file;
}

/** `count` inputs cycling through the kinds, lengths 0.45 to 0.8 s (never a whole number of frames). */
export async function makeOnsetInputs(dir: string, count: number, titled = true): Promise<string[]> {
  const files: string[] = [];
  for (let i = 0; i < count; i++) {
    const kind = ONSET_KINDS[i % ONSET_KINDS.length];
    const seconds = 0.45 + ((i * 37) % 36) / 100 + 0.0013 * i;
    const file = path.join(dir, `in-${String(i).padStart(3, '0')}.${kind.ext}`);
    files.push(
      await makeOnsetInput(
        file,
        kind,
        seconds,
        300 + ((i * 53) % 12) * 100,
        titled ? `Part ${i + 1}` : undefined,
      ),
    );
  }
  return files;
}

/**
 * Seconds at which sound starts after at least `quietSeconds` of near-silence (and at 0 when it
 * starts at once), in 8 kHz mono PCM. Loud is a quarter of the tones' level, quiet a twentieth.
 */
export function findOnsets(pcm: Int16Array, rate = 8000, quietSeconds = 0.08): number[] {
  const loud = 4000;
  const quiet = 800;
  const onsets: number[] = [];
  // Quiet samples since the last loud one; the rising edge between quiet and loud counts for neither.
  let quietRun = Infinity;
  for (let i = 0; i < pcm.length; i++) {
    const a = Math.abs(pcm[i]);
    if (a >= loud) {
      if (quietRun >= quietSeconds * rate) onsets.push(i / rate);
      quietRun = 0;
    } else if (a < quiet) quietRun++;
  }
  return onsets;
}
