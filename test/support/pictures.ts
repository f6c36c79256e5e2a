// Pictures for cover tests, made with ffmpeg's lavfi sources on the spot: a plain one-frame image,
// and an input that carries one as its attached picture. Nothing binary is committed.
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { tools } from './audio-fixtures.js';

const exec = promisify(execFile);

export interface ImageOptions {
  /** Width x height, e.g. '64x48'. */
  size?: string;
  colour?: string;
  /** A lavfi source in place of the plain colour, e.g. 'testsrc=size=64x48'. */
  source?: string;
  /** A filter chain drawn over the picture (ffmpeg's -vf). */
  filters?: string;
}

/** Write a one-frame picture to `file`, PNG or JPEG by its extension, and return its bytes. */
export async function makeImage(file: string, opts: ImageOptions = {}): Promise<Buffer> {
  const { size = '64x64', colour = 'red' } = opts;
  const source = opts.source ?? `color=c=${colour}:s=${size}`;
  const filters = opts.filters ? ['-vf', opts.filters] : [];
  const args = ['-v', 'error', '-y', '-f', 'lavfi', '-i', source, '-frames:v', '1', ...filters, file];
  await exec(tools.ffmpeg, args);
  return readFile(file);
}

/**
 * Copy the audio of `input` to `out` with `picture` as its attached picture, streams untouched
 * (in an MP3, an APIC frame of an ID3v2.3 tag).
 */
export async function withPicture(input: string, picture: string, out: string): Promise<string> {
  const id3 = path.extname(out).toLowerCase() === '.mp3' ? ['-id3v2_version', '3'] : [];
  await exec(tools.ffmpeg, [
    ...['-v', 'error', '-y', '-i', input, '-i', picture, '-map', '0:a', '-map', '1:v'],
    ...['-c', 'copy', ...id3, '-disposition:v', 'attached_pic', out],
  ]);
  return out;
}
