// Files that are not usable audio, made on the spot (an image by ffmpeg, noise by a seeded PRNG).
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { makeImage } from './pictures.js';

/** Deterministic bytes, so a failure can be reproduced. */
export function noise(length: number, seed = 1): Buffer {
  const buf = Buffer.alloc(length);
  let x = seed >>> 0 || 1;
  for (let i = 0; i < length; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    buf[i] = x & 0xff;
  }
  return buf;
}

async function testImage(file: string): Promise<string> {
  await makeImage(file, { source: 'testsrc=size=64x48' });
  return file;
}

/** name -> how to make it. Extensions lie on purpose where a user's might. */
export const BAD_INPUTS: Record<string, (file: string) => Promise<string>> = {
  'empty.mp3': async (f) => (await writeFile(f, ''), f),
  'notes.txt': async (f) => (await writeFile(f, 'Chapter list:\n1. Intro\n2. Middle\n'.repeat(40)), f),
  'notes-renamed.mp3': async (f) => (
    await writeFile(f, 'This is not audio at all, only words.\n'.repeat(40)),
    f
  ),
  'cover.png': testImage,
  'photo.jpg': testImage,
  'photo-renamed.wav': async (f) => {
    await testImage(`${f}.jpg`);
    const { rename } = await import('node:fs/promises');
    await rename(`${f}.jpg`, f);
    return f;
  },
  'header-only.wav': async (f) => {
    const { makeTone } = await import('./audio-fixtures.js');
    const { readFile } = await import('node:fs/promises');
    await makeTone(f, { seconds: 1 });
    // The RIFF header up to the data chunk's size field: samples promised, none there.
    const bytes = await readFile(f);
    await writeFile(f, bytes.subarray(0, bytes.indexOf('data') + 8));
    return f;
  },
  'noise.bin': async (f) => (await writeFile(f, noise(64 * 1024, 7)), f),
  'noise.mp3': async (f) => (await writeFile(f, noise(64 * 1024, 11)), f),
};

export async function makeBad(dir: string, name: string): Promise<string> {
  return BAD_INPUTS[name](path.join(dir, name));
}
