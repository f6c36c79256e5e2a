// A book that sounds like speech to a silence finder, made on the spot: "sentences" of noise
// syllables that never fall below -35 dBFS, 0.3-0.8 s pauses between them and 3-5 s silences at
// known places, both of room noise at -60 dBFS. The script says where every pause and silence is,
// so a test can say which chapter stands where.
import { spawn } from 'node:child_process';
import { tools } from './audio-fixtures.js';

export interface Stretch {
  start: number;
  end: number;
}

export interface SpokenBook {
  sampleRate: number;
  /** Mono samples, -1..1. */
  samples: Float32Array;
  seconds: number;
  /** The long silences (chapter breaks), and the pauses between sentences. */
  silences: Stretch[];
  pauses: Stretch[];
  /** Points in the middle of a syllable, far from any pause (where a CD rip's tracks may be cut). */
  midSentence: number[];
}

export interface SpokenBookPlan {
  seconds: number;
  /** Roughly where the long silences start (each moved to the end of the sentence it falls in). */
  breaksAt: number[];
  sampleRate?: number;
  seed?: number;
}

function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const ROOM = 0.001; // -60 dBFS
const FLOOR = 0.02; // -34 dBFS between syllables: a sentence never falls silent

/** Writes the book's samples, sentence by sentence, pausing between them and breaking at `breaksAt`. */
export function spokenBook(plan: SpokenBookPlan): SpokenBook {
  const rate = plan.sampleRate ?? 22050;
  const rnd = random(plan.seed ?? 7);
  const samples = new Float32Array(Math.ceil(plan.seconds * rate));
  const silences: Stretch[] = [];
  const pauses: Stretch[] = [];
  const midSentence: number[] = [];
  const breaks = [...plan.breaksAt];
  const room = (from: number, to: number) => {
    for (let i = Math.round(from * rate); i < Math.min(samples.length, Math.round(to * rate)); i++)
      samples[i] = (rnd() * 2 - 1) * ROOM;
  };
  // A short lead-in of room noise, as recordings have.
  room(0, 0.2);
  let t = 0.2;
  while (t < plan.seconds - 1) {
    const sentence = Math.min(2 + rnd() * 6, plan.seconds - 1 - t);
    t = speak(samples, rate, t, t + sentence, rnd, midSentence);
    const breakHere = breaks.length > 0 && t >= breaks[0];
    const rest = breakHere ? 3 + rnd() * 2 : 0.3 + rnd() * 0.5;
    const end = Math.min(plan.seconds, t + rest);
    room(t, end);
    if (end < plan.seconds) (breakHere ? silences : pauses).push({ start: round3(t), end: round3(end) });
    if (breakHere) breaks.shift();
    t = end;
  }
  room(t, plan.seconds);
  return { sampleRate: rate, samples, seconds: plan.seconds, silences, pauses, midSentence };
}

/** Syllables of noise, each a raised cosine over the floor, from `from` to about `to`; returns where it stopped. */
function speak(
  samples: Float32Array,
  rate: number,
  from: number,
  to: number,
  rnd: () => number,
  mids: number[],
): number {
  let t = from;
  while (t < to) {
    const len = 0.15 + rnd() * 0.15;
    const amp = 0.2 + rnd() * 0.4;
    const a = Math.round(t * rate);
    const n = Math.round(len * rate);
    for (let k = 0; k < n && a + k < samples.length; k++) {
      const shape = 0.5 - 0.5 * Math.cos((2 * Math.PI * k) / n);
      // The first and last syllable start and end at the floor, so a sentence's edges are sharp.
      samples[a + k] = (rnd() * 2 - 1) * (FLOOR + (amp - FLOOR) * shape);
    }
    if (t > from + 0.5 && t + len < to - 0.5) mids.push(round3(t + len / 2));
    t += len;
  }
  return round3(t);
}

const round3 = (x: number) => Math.round(x * 1000) / 1000;

/** Encodes samples `from`..`to` (seconds) of the book to `file` (its extension names the codec). */
export async function writeSpoken(
  book: SpokenBook,
  file: string,
  span: Stretch = { start: 0, end: book.seconds },
  codecArgs: string[] = [],
): Promise<string> {
  const a = Math.round(span.start * book.sampleRate);
  const b = Math.min(book.samples.length, Math.round(span.end * book.sampleRate));
  const pcm = new Int16Array(b - a);
  for (let i = a; i < b; i++)
    pcm[i - a] = Math.max(-32768, Math.min(32767, Math.round(book.samples[i] * 32767)));
  const args = [
    '-hide_banner',
    '-v',
    'error',
    '-y',
    '-f',
    's16le',
    '-ar',
    String(book.sampleRate),
    '-ac',
    '1',
  ];
  args.push('-i', 'pipe:0', ...codecArgs, file);
  await new Promise<void>((resolve, reject) => {
    const child = spawn(tools.ffmpeg, args, { stdio: ['pipe', 'ignore', 'pipe'] });
    let err = '';
    child.stderr.on('data', (c: Buffer) => (err += c.toString()));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`ffmpeg ${code}: ${err}`))));
    child.stdin.end(Buffer.from(pcm.buffer, pcm.byteOffset, pcm.byteLength));
  });
  return file;
}
