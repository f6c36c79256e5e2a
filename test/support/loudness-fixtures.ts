// Audio at a chosen loudness, and the loudness of a stretch of a file, for the sound tests.
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { parseEbur128Summary } from '../../src/engine/ffmpeg/loudness.js';
import { tools } from './audio-fixtures.js';

const exec = promisify(execFile);

const CODECS: Record<string, string[]> = {
  '.mp3': ['-c:a', 'libmp3lame', '-b:a', '128k'],
  '.m4a': ['-c:a', 'aac', '-b:a', '128k'],
  '.flac': ['-c:a', 'flac'],
  '.ogg': ['-c:a', 'libvorbis', '-q:a', '4'],
  '.opus': ['-c:a', 'libopus', '-b:a', '96k'],
  '.wav': ['-c:a', 'pcm_s16le'],
};

/**
 * A stereo 1 kHz tone whose integrated loudness is `lufs` (BS.1770: a sine of amplitude A in both
 * channels measures 20 log10(A) - 0.691 LUFS; K-weighting is flat at 1 kHz within 0.1 dB).
 */
export async function toneAtLoudness(
  file: string,
  lufs: number,
  seconds = 4,
  sampleRate = 44100,
): Promise<string> {
  const a = 10 ** ((lufs + 0.691) / 20);
  const expr = `${a.toFixed(6)}*sin(2*PI*1000*t)`;
  await exec(tools.ffmpeg, [
    '-hide_banner',
    '-v',
    'error',
    '-y',
    '-f',
    'lavfi',
    '-i',
    `aevalsrc=exprs=${expr}|${expr}:s=${sampleRate}:d=${seconds}`,
    ...(CODECS[path.extname(file)] ?? []),
    file,
  ]);
  return file;
}

/** Integrated loudness (LUFS) and true peak (dBTP) of [start, start + seconds) of a file. */
export async function loudnessOf(
  file: string,
  start = 0,
  seconds?: number,
): Promise<{ lufs: number; peak: number }> {
  const { stderr } = await exec(
    tools.ffmpeg,
    [
      '-hide_banner',
      '-nostats',
      '-v',
      'info',
      ...(start > 0 ? ['-ss', start.toFixed(3)] : []),
      ...(seconds ? ['-t', seconds.toFixed(3)] : []),
      '-i',
      file,
      '-map',
      '0:a:0',
      '-af',
      'ebur128=peak=true:framelog=verbose',
      '-f',
      'null',
      '-',
    ],
    { maxBuffer: 64 * 1024 * 1024 },
  );
  const s = parseEbur128Summary(stderr);
  if (!s || s.integratedLufs === null || s.truePeakDb === null) throw new Error(`no loudness for ${file}`);
  return { lufs: s.integratedLufs, peak: s.truePeakDb };
}
