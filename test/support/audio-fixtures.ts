// Test audio made on the spot with ffmpeg's lavfi sources; nothing binary is committed.
import { execFile } from 'node:child_process';
import { mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { resolveToolPaths } from '../../src/engine/ffmpeg/tools.js';

const exec = promisify(execFile);

export const tools = resolveToolPaths();

export interface ToneOptions {
  seconds?: number;
  /** Sine frequency in Hz, so inputs can be told apart after a join. */
  frequency?: number;
  sampleRate?: number;
  channels?: number;
  /** Encoder arguments, e.g. ['-c:a', 'libmp3lame', '-b:a', '128k']; default from the extension. */
  codecArgs?: string[];
  /** Extra output arguments (metadata, container flags). */
  extraArgs?: string[];
}

function defaultCodec(file: string): string[] {
  switch (path.extname(file).toLowerCase()) {
    case '.mp3':
      return ['-c:a', 'libmp3lame', '-b:a', '128k'];
    case '.wav':
      return ['-c:a', 'pcm_s16le'];
    case '.flac':
      return ['-c:a', 'flac'];
    case '.ogg':
      return ['-c:a', 'libvorbis', '-q:a', '3'];
    case '.opus':
      return ['-c:a', 'libopus', '-b:a', '64k'];
    case '.m4a':
      return ['-c:a', 'aac', '-b:a', '128k'];
    default:
      return [];
  }
}

/** Write a sine tone to `file` with ffmpeg and return the path. */
export async function makeTone(file: string, opts: ToneOptions = {}): Promise<string> {
  const { seconds = 2, frequency = 440, sampleRate = 44100, channels = 2 } = opts;
  const args = [
    '-hide_banner',
    '-loglevel',
    'error',
    '-y',
    '-f',
    'lavfi',
    '-i',
    `sine=frequency=${frequency}:sample_rate=${sampleRate}:duration=${seconds}`,
    '-ac',
    String(channels),
    '-ar',
    String(sampleRate),
    ...(opts.codecArgs ?? defaultCodec(file)),
    ...(opts.extraArgs ?? []),
    file,
  ];
  await exec(tools.ffmpeg, args);
  return file;
}

/** Run ffprobe and return its JSON (format and streams). */
export async function ffprobeJson(file: string): Promise<{
  format: { duration?: string; format_name: string; tags?: Record<string, string> };
  streams: Array<{
    codec_type: string;
    codec_name: string;
    sample_rate?: string;
    channels?: number;
    duration?: string;
  }>;
}> {
  const { stdout } = await exec(tools.ffprobe, [
    '-v',
    'error',
    '-print_format',
    'json',
    '-show_format',
    '-show_streams',
    file,
  ]);
  return JSON.parse(stdout);
}

/** Decode the whole file; resolves with ffmpeg's error output (empty when it decoded cleanly). */
export async function decodeErrors(file: string): Promise<string> {
  const { stderr } = await exec(tools.ffmpeg, ['-hide_banner', '-v', 'error', '-i', file, '-f', 'null', '-']);
  return stderr.trim();
}

/** Decode to mono 8 kHz signed 16-bit samples, for checking what is heard (order, tones). */
export async function decodePcm(file: string): Promise<Int16Array> {
  const { stdout } = await exec(
    tools.ffmpeg,
    ['-hide_banner', '-v', 'error', '-i', file, '-ac', '1', '-ar', '8000', '-f', 's16le', '-'],
    { encoding: 'buffer', maxBuffer: 512 * 1024 * 1024 },
  );
  const buf = stdout as Buffer;
  return new Int16Array(buf.buffer, buf.byteOffset, Math.floor(buf.length / 2));
}

/**
 * Dominant frequency of a stretch of 8 kHz PCM, by zero crossings: enough to tell
 * which tone plays where after a join.
 */
export function dominantFrequency(pcm: Int16Array, fromSec: number, toSec: number, rate = 8000): number {
  const a = Math.floor(fromSec * rate);
  const b = Math.min(pcm.length, Math.floor(toSec * rate));
  let crossings = 0;
  for (let i = a + 1; i < b; i++) if (pcm[i - 1] < 0 !== pcm[i] < 0) crossings++;
  return crossings / 2 / ((b - a) / rate);
}

export async function tempDir(
  prefix = 'audio-merge-test-',
): Promise<{ dir: string; cleanup: () => Promise<void> }> {
  const dir = await mkdtemp(path.join(os.tmpdir(), prefix));
  return { dir, cleanup: () => rm(dir, { recursive: true, force: true }) };
}

/** Total bytes of the files directly in `dir` (0 when it does not exist). */
export async function bytesIn(dir: string): Promise<number> {
  const names = await readdir(dir).catch(() => [] as string[]);
  const sizes = await Promise.all(names.map(async (n) => (await stat(path.join(dir, n))).size));
  return sizes.reduce((a, b) => a + b, 0);
}

/**
 * A tone carrying chapters of its own, written from an ffmetadata file: each `[title,
 * startSeconds]` runs to the next one's start, the last to the end. An .m4a or .m4b is AAC in MP4
 * (a chapter track), an .mp3 holds them as ID3 CHAP frames.
 */
export async function makeChaptered(
  file: string,
  chapters: [string, number][],
  opts: { seconds?: number; frequency?: number } = {},
): Promise<string> {
  const { seconds = 4, frequency = 330 } = opts;
  const ms = (s: number) => Math.round(s * 1000);
  const meta = `${file}.ffmetadata`;
  const blocks = chapters.map(
    ([title, start], i) =>
      `[CHAPTER]\nTIMEBASE=1/1000\nSTART=${ms(start)}\nEND=${ms(chapters[i + 1]?.[1] ?? seconds)}\ntitle=${title}\n`,
  );
  await writeFile(meta, `;FFMETADATA1\n${blocks.join('')}`);
  await exec(tools.ffmpeg, [
    ...['-v', 'error', '-y', '-f', 'lavfi'],
    ...['-i', `sine=frequency=${frequency}:sample_rate=44100:duration=${seconds}`],
    ...['-i', meta, '-map', '0:a', '-map_chapters', '1', '-ac', '2'],
    ...(/\.m4[ab]$/i.test(file) ? ['-c:a', 'aac', '-f', 'mp4'] : defaultCodec(file)),
    file,
  ]);
  await rm(meta, { force: true });
  return file;
}
