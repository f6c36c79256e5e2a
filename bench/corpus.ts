// The benchmark corpus, made with ffmpeg's lavfi sources once and cached in a temporary folder.
import { execFile } from 'node:child_process';
import { copyFile, mkdir, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { resolveToolPaths } from '../src/engine/ffmpeg/tools.js';

const exec = promisify(execFile);
const tools = resolveToolPaths();

export interface Corpus {
  dir: string;
  /** One hour of CBR 128 kb/s 44.1 kHz stereo MP3 as 12 files of 5 minutes. */
  hourMp3: string[];
  /** One hour of 128 kb/s 44.1 kHz stereo AAC in M4A as 12 files of 5 minutes. */
  hourM4a: string[];
  /** 12 minutes of FLAC as 6 files alternating 44.1 and 48 kHz. */
  flac: string[];
  /** Three 1-hour MP3s. */
  threeHours: string[];
  /** 120 two-second clips. */
  clips: string[];
  /** A WAV of about 1 GB, for the upload figure. */
  bigWav: string;
}

async function exists(f: string): Promise<boolean> {
  try {
    return (await stat(f)).size > 0;
  } catch {
    return false;
  }
}

async function ffmpeg(args: string[]): Promise<void> {
  await exec(tools.ffmpeg, ['-hide_banner', '-loglevel', 'error', '-y', ...args], {
    maxBuffer: 16 * 1024 * 1024,
  });
}

/** A tone that changes every second so encoders cannot coast on silence. */
function source(seconds: number, rate: number, freq: number): string[] {
  return [
    '-f',
    'lavfi',
    '-i',
    `sine=frequency=${freq}:beep_factor=3:sample_rate=${rate}:duration=${seconds}`,
  ];
}

async function concatCopy(parts: string[], out: string): Promise<void> {
  const list = `${out}.txt`;
  await writeFile(list, parts.map((p) => `file '${p.replace(/'/g, "'\\''")}'`).join('\n'));
  await ffmpeg(['-f', 'concat', '-safe', '0', '-i', list, '-c', 'copy', out]);
}

const corpusDir = () => path.join(os.tmpdir(), 'audio-merge-bench-corpus-v1');

/** 12 minutes of FLAC as 6 files of 2 minutes alternating 44.1 and 48 kHz, in `dir`. */
async function makeFlac(dir: string, log: (msg: string) => void): Promise<string[]> {
  const p = (name: string) => path.join(dir, name);
  const flac = Array.from({ length: 6 }, (_, i) => p(`flac-${i + 1}-${i % 2 ? 48000 : 44100}.flac`));
  for (const [i, f] of flac.entries())
    if (!(await exists(f))) {
      log(`corpus: ${path.basename(f)}`);
      const rate = i % 2 ? 48000 : 44100;
      await ffmpeg([...source(120, rate, 330 + 50 * i), '-ac', '2', '-c:a', 'flac', f]);
    }

  return flac;
}

/** Only the FLAC of the corpus (the transcode figure's inputs). */
export async function makeFlacCorpus(log: (msg: string) => void): Promise<string[]> {
  await mkdir(corpusDir(), { recursive: true });
  return makeFlac(corpusDir(), log);
}

export async function makeCorpus(log: (msg: string) => void): Promise<Corpus> {
  const dir = corpusDir();
  await mkdir(dir, { recursive: true });
  const p = (name: string) => path.join(dir, name);

  const hourMp3 = Array.from({ length: 12 }, (_, i) => p(`hour-${String(i + 1).padStart(2, '0')}.mp3`));
  const base = p('five-minutes.mp3');
  if (!(await exists(base))) {
    log('corpus: encoding 5 minutes of 128 kb/s MP3');
    await ffmpeg([...source(300, 44100, 440), '-ac', '2', '-c:a', 'libmp3lame', '-b:a', '128k', base]);
  }
  for (const [i, f] of hourMp3.entries()) {
    if (!(await exists(f))) {
      // Same audio, each file with its own tags, as real segments would have.
      await ffmpeg([
        '-i',
        base,
        '-c',
        'copy',
        '-metadata',
        `title=Segment ${i + 1}`,
        '-id3v2_version',
        '3',
        f,
      ]);
    }
  }

  const hourM4a = hourMp3.map((f) => f.replace(/\.mp3$/, '.m4a'));
  const baseM4a = p('five-minutes.m4a');
  if (!(await exists(baseM4a))) {
    log('corpus: encoding 5 minutes of 128 kb/s AAC');
    await ffmpeg([...source(300, 44100, 440), '-ac', '2', '-c:a', 'aac', '-b:a', '128k', baseM4a]);
  }
  for (const [i, f] of hourM4a.entries()) {
    if (!(await exists(f)))
      await ffmpeg(['-i', baseM4a, '-c', 'copy', '-metadata', `title=Segment ${i + 1}`, f]);
  }

  const threeHours = [1, 2, 3].map((i) => p(`three-hours-${i}.mp3`));
  for (const f of threeHours)
    if (!(await exists(f))) {
      log(`corpus: ${path.basename(f)}`);
      await concatCopy(hourMp3, f);
    }

  const flac = await makeFlac(dir, log);

  const clips = Array.from({ length: 120 }, (_, i) => p(`clip-${String(i + 1).padStart(3, '0')}.mp3`));
  const clip = p('clip.mp3');
  if (!(await exists(clip)))
    await ffmpeg([...source(2, 44100, 523), '-ac', '2', '-c:a', 'libmp3lame', '-b:a', '128k', clip]);
  for (const f of clips) if (!(await exists(f))) await copyFile(clip, f);

  const bigWav = p('big.wav');
  if (!(await exists(bigWav))) {
    log('corpus: a 1 GB WAV');
    // 1 GiB of 16-bit stereo at 44.1 kHz is about 6087 seconds.
    await ffmpeg([...source(6087, 44100, 220), '-ac', '2', '-c:a', 'pcm_s16le', bigWav]);
  }
  return { dir, hourMp3, hourM4a, flac, threeHours, clips, bigWav };
}
