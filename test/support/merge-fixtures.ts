// Inputs for merge tests, made with ffmpeg on the spot: one list of every kind the engine takes.
import path from 'node:path';
import { makeTone, type ToneOptions } from './audio-fixtures.js';
import { makeToneWithArt } from './mp3-fixtures.js';

export interface FixtureInput {
  name: string;
  frequency: number;
  /** True when the engine must copy its frames (a 44.1 kHz stereo MP3 in a majority of those). */
  copied: boolean;
  opts: ToneOptions;
}

/** 44.1 kHz stereo MP3s are the majority; everything else must be re-encoded to match them. */
export const MIXED: FixtureInput[] = [
  { name: 'a-cbr.mp3', frequency: 300, copied: true, opts: {} },
  { name: 'b-16bit.wav', frequency: 400, copied: false, opts: {} },
  {
    name: 'c-vbr.mp3',
    frequency: 500,
    copied: true,
    opts: { codecArgs: ['-c:a', 'libmp3lame', '-q:a', '4'] },
  },
  {
    name: 'd-24bit-96k.wav',
    frequency: 600,
    copied: false,
    opts: { sampleRate: 96000, codecArgs: ['-c:a', 'pcm_s24le'] },
  },
  { name: 'e.flac', frequency: 700, copied: false, opts: { sampleRate: 48000, channels: 1 } },
  { name: 'f.ogg', frequency: 800, copied: false, opts: {} },
  { name: 'g.opus', frequency: 900, copied: false, opts: { sampleRate: 48000 } },
  { name: 'h.m4a', frequency: 1000, copied: false, opts: {} },
  {
    name: 'i-mono-22k.mp3',
    frequency: 1100,
    copied: false,
    opts: { sampleRate: 22050, channels: 1, codecArgs: ['-c:a', 'libmp3lame', '-b:a', '48k'] },
  },
  {
    name: 'j-8k-mpeg25.mp3',
    frequency: 1200,
    copied: false,
    opts: { sampleRate: 8000, channels: 1, codecArgs: ['-c:a', 'libmp3lame', '-b:a', '24k'] },
  },
  {
    name: 'k-tagged.mp3',
    frequency: 1300,
    copied: true,
    opts: { extraArgs: ['-metadata', 'title=Kay', '-id3v2_version', '3', '-write_id3v1', '1'] },
  },
  { name: 'l-16bit-44k.wav', frequency: 1400, copied: false, opts: { seconds: 2 } },
];

export async function makeInputs(dir: string, list: FixtureInput[], seconds = 2): Promise<string[]> {
  const files: string[] = [];
  for (const f of list) {
    files.push(await makeTone(path.join(dir, f.name), { seconds, frequency: f.frequency, ...f.opts }));
  }
  return files;
}

/** A 44.1 kHz stereo MP3 with an ID3v2.3 tag holding a cover picture (an APIC frame) and an ID3v1 tag. */
export function makeMp3WithCover(file: string, frequency: number, seconds = 2): Promise<string> {
  return makeToneWithArt(file, {
    seconds,
    frequency,
    title: 'With cover',
    picture: 'testsrc=size=64x64:duration=1',
    extraArgs: ['-write_id3v1', '1', '-metadata:s:v', 'comment=Cover (front)'],
  });
}
