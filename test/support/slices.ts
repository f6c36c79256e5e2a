// One continuous tone cut into consecutive slices, each encoded on its own: joined gaplessly,
// they must play back as the unbroken tone (no gap, no click at the cuts).
import { execFile } from 'node:child_process';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { tools } from './audio-fixtures.js';

const exec = promisify(execFile);

export async function toneSlices(
  dir: string,
  count: number,
  seconds: number,
  ext = '.mp3',
  frequency = 440,
): Promise<string[]> {
  await mkdir(dir, { recursive: true });
  const whole = path.join(dir, 'whole.wav');
  await exec(tools.ffmpeg, [
    '-hide_banner',
    '-v',
    'error',
    '-y',
    '-f',
    'lavfi',
    '-i',
    `sine=f=${frequency}:d=${count * seconds}`,
    '-ac',
    '2',
    whole,
  ]);
  const files = Array.from({ length: count }, (_, i) =>
    path.join(dir, `slice-${String(i).padStart(3, '0')}${ext}`),
  );
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const i = next++;
      // -ss/-t on a WAV input cut at exact samples; each slice is then encoded alone.
      await exec(tools.ffmpeg, [
        '-hide_banner',
        '-v',
        'error',
        '-y',
        '-ss',
        String(i * seconds),
        '-t',
        String(seconds),
        '-i',
        whole,
        files[i],
      ]);
    }
  };
  await Promise.all([worker(), worker()]);
  return files;
}
