// MP3 test files that test/support/audio-fixtures.ts's makeTone cannot make: cover art needs a second input.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { tools } from './audio-fixtures.js';

const exec = promisify(execFile);

export interface ArtOptions {
  seconds?: number;
  frequency?: number;
  title?: string;
  /** The lavfi source of the picture; a red 64x64 square unless told. */
  picture?: string;
  /** Extra output arguments (tags, ID3v1). */
  extraArgs?: string[];
}

/** A 128 kb/s tone with a title and a PNG cover (by default 64x64) in an ID3v2.3 tag. */
export async function makeToneWithArt(file: string, opts: ArtOptions = {}): Promise<string> {
  const { seconds = 1, frequency = 440, title = 'With art' } = opts;
  const picture = opts.picture ?? `color=c=red:s=64x64:d=${seconds}`;
  await exec(tools.ffmpeg, [
    '-hide_banner',
    '-loglevel',
    'error',
    '-y',
    '-f',
    'lavfi',
    '-i',
    `sine=frequency=${frequency}:sample_rate=44100:duration=${seconds}`,
    '-f',
    'lavfi',
    '-i',
    picture,
    '-map',
    '0:a',
    '-map',
    '1:v',
    '-frames:v',
    '1',
    '-ac',
    '2',
    '-c:a',
    'libmp3lame',
    '-b:a',
    '128k',
    '-c:v',
    'png',
    '-disposition:v',
    'attached_pic',
    '-id3v2_version',
    '3',
    '-metadata',
    `title=${title}`,
    ...(opts.extraArgs ?? []),
    file,
  ]);
  return file;
}
