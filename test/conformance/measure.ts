// What a person checks of an output, measured on its decode by the system's ffmpeg: that it decodes
// without an error, its exact length, where each input's marker tone rises (markers of corpus.ts),
// the sharpest edge at each join against the signal's own, the power through a crossfade, and the
// loudness of each input's stretch.
import { spawn } from 'node:child_process';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { refTools } from './corpus.js';

const exec = promisify(execFile);

/** The rate the markers are looked for at: every voice (440-880 Hz) is far below its Nyquist. */
export const MARKER_RATE = 8000;
/** Marker windows: 20 ms (Hann), every 5 ms. */
const WINDOW = 160;
const HOP = 40;
/** Outputs longer than this are not kept whole at their own rate (their joins are decoded apart). */
const KEEP_NATIVE_SECONDS = 600;

export interface Probe {
  rate: number;
  channels: number;
  codec: string;
  duration: number;
  chapters: { start: number; end: number; title: string }[];
}

export async function probe(file: string): Promise<Probe> {
  const { stdout } = await exec(
    refTools.ffprobe,
    [
      '-v',
      'error',
      '-show_streams',
      '-show_chapters',
      '-show_format',
      '-select_streams',
      'a:0',
      '-of',
      'json',
      file,
    ],
    { maxBuffer: 64 << 20 },
  );
  const j = JSON.parse(stdout) as {
    streams: { sample_rate: string; channels: number; codec_name: string }[];
    format: { duration?: string };
    chapters?: { start_time: string; end_time: string; tags?: { title?: string } }[];
  };
  const s = j.streams[0];
  return {
    rate: Number(s.sample_rate),
    channels: s.channels,
    codec: s.codec_name,
    duration: Number(j.format.duration ?? NaN),
    chapters: (j.chapters ?? []).map((c) => ({
      start: Number(c.start_time),
      end: Number(c.end_time),
      title: c.tags?.title ?? '',
    })),
  };
}

export interface Decode {
  /** Samples per channel at the file's own rate. */
  samples: number;
  rate: number;
  /** Mono at the file's own rate, when the output is short enough to keep. */
  native?: Float32Array;
  /** Mono at MARKER_RATE. */
  low: Float32Array;
  /** What the decoder said on stderr at -v error (a clean file: nothing). */
  errors: string;
}

function concat(chunks: Buffer[]): Float32Array {
  const buf = Buffer.concat(chunks);
  const copy = new Float32Array(buf.length >> 2);
  new Uint8Array(copy.buffer).set(buf.subarray(0, copy.length * 4));
  return copy;
}

/**
 * One decode of the whole file to mono float, twice over in one ffmpeg: at its own rate (counted,
 * and kept when short) and at MARKER_RATE (kept). `-ac 1` averages the channels, so a channel lost
 * or out of phase also shows.
 */
export function decode(file: string, rate: number, seconds: number): Promise<Decode> {
  const keep = seconds <= KEEP_NATIVE_SECONDS;
  return new Promise((resolve, reject) => {
    const child = spawn(
      refTools.ffmpeg,
      ['-v', 'error', '-i', file, '-map', '0:a:0', '-ac', '1', '-f', 'f32le', 'pipe:1'].concat([
        '-map',
        '0:a:0',
        '-ac',
        '1',
        '-ar',
        String(MARKER_RATE),
        '-f',
        'f32le',
        'pipe:3',
      ]),
      { stdio: ['ignore', 'pipe', 'pipe', 'pipe'] },
    );
    const native: Buffer[] = [];
    const low: Buffer[] = [];
    let bytes = 0;
    let errors = '';
    child.stdout!.on('data', (c: Buffer) => {
      bytes += c.length;
      if (keep) native.push(c);
    });
    (child.stdio[3] as NodeJS.ReadableStream).on('data', (c: Buffer) => low.push(c));
    child.stderr!.on('data', (c) => (errors += c));
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0) return reject(new Error(`the output does not decode (exit ${code}): ${errors.trim()}`));
      resolve({
        samples: bytes / 4,
        rate,
        native: keep ? concat(native) : undefined,
        low: concat(low),
        errors,
      });
    });
  });
}

/** Mono float at the file's own rate of [from, from + seconds) (for outputs too long to keep whole). */
export async function decodeWindow(file: string, from: number, seconds: number): Promise<Float32Array> {
  const { stdout } = await exec(
    refTools.ffmpeg,
    [
      '-v',
      'error',
      '-ss',
      String(Math.max(0, from)),
      '-i',
      file,
      '-t',
      String(seconds),
      '-ac',
      '1',
      '-f',
      'f32le',
      '-',
    ],
    { encoding: 'buffer', maxBuffer: 256 << 20 },
  );
  return concat([stdout as Buffer]);
}

/** Power of `freq` in each marker window (Hann, Goertzel), window k centred at (k*HOP + WINDOW/2) / MARKER_RATE. */
export function tonePower(pcm: Float32Array, freq: number): Float32Array {
  const n = Math.max(0, Math.floor((pcm.length - WINDOW) / HOP) + 1);
  const out = new Float32Array(n);
  const coeff = 2 * Math.cos((2 * Math.PI * freq) / MARKER_RATE);
  const hann = Float32Array.from(
    { length: WINDOW },
    (_, i) => 0.5 - 0.5 * Math.cos((2 * Math.PI * i) / (WINDOW - 1)),
  );
  for (let k = 0; k < n; k++) {
    let s1 = 0;
    let s2 = 0;
    const at = k * HOP;
    for (let i = 0; i < WINDOW; i++) {
      const s0 = pcm[at + i] * hann[i] + coeff * s1 - s2;
      s2 = s1;
      s1 = s0;
    }
    out[k] = s1 * s1 + s2 * s2 - coeff * s1 * s2;
  }
  return out;
}

export const windowTime = (k: number) => (k * HOP + WINDOW / 2) / MARKER_RATE;
export const windowAt = (t: number) => Math.max(0, Math.round((t * MARKER_RATE - WINDOW / 2) / HOP));

function median(values: Float32Array | number[]): number {
  const v = Array.from(values).sort((a, b) => a - b);
  return v.length ? v[v.length >> 1] : 0;
}

/** The median power of a tone over [from, to) seconds. */
export function plateau(power: Float32Array, from: number, to: number): number {
  return median(power.subarray(windowAt(from), Math.max(windowAt(from) + 1, windowAt(to))));
}

/**
 * Where a tone rises: the centre of the first window from `from` whose power reaches a quarter of
 * `level` (half its amplitude: a window centred on an abrupt start holds half the tone), or
 * undefined when it never does before `to`.
 */
export function riseAfter(power: Float32Array, level: number, from: number, to: number): number | undefined {
  for (let k = windowAt(from); k < Math.min(power.length, windowAt(to)); k++)
    if (power[k] >= level / 4) return windowTime(k);
  return undefined;
}

/** The first time in [from, to) at which tone b's power, relative to its level, reaches tone a's. */
export function crossing(a: Float32Array, la: number, b: Float32Array, lb: number, from: number, to: number) {
  for (let k = windowAt(from); k < Math.min(a.length, b.length, windowAt(to)); k++)
    if (b[k] / lb >= a[k] / la) return windowTime(k);
  return undefined;
}

/** The lowest summed relative power of two tones over [from, to), in dB (0: constant power). */
export function lowestSum(
  a: Float32Array,
  la: number,
  b: Float32Array,
  lb: number,
  from: number,
  to: number,
) {
  let low = Infinity;
  for (let k = windowAt(from); k < Math.min(a.length, b.length, windowAt(to)); k++)
    low = Math.min(low, a[k] / la + b[k] / lb);
  return 10 * Math.log10(low);
}

/** The largest second difference over [from, to) samples: a smooth tone keeps it small, a jump spikes it. */
export function edge(pcm: Float32Array, from: number, to: number): number {
  let m = 0;
  for (let i = Math.max(1, Math.floor(from)); i < Math.min(pcm.length - 1, Math.ceil(to)); i++)
    m = Math.max(m, Math.abs(pcm[i - 1] - 2 * pcm[i] + pcm[i + 1]));
  return m;
}

/**
 * The sharpest 10 ms block of [from, to) against the blocks' median: a click anywhere inside a
 * steady stretch (a chunk seam, a dropped packet) stands far above the stretch's own edges.
 */
export function worstBlock(pcm: Float32Array, rate: number, from: number, to: number) {
  const block = Math.round(rate / 100);
  const edges: number[] = [];
  for (let a = Math.floor(from * rate); a + block <= Math.min(pcm.length, to * rate); a += block)
    edges.push(edge(pcm, a, a + block + 1));
  if (!edges.length) return { worst: 0, median: 0, at: from };
  const worst = Math.max(...edges);
  return { worst, median: median(edges), at: from + (edges.indexOf(worst) * block) / rate };
}

export interface Loudness {
  integrated: number;
  truePeak: number;
}

/** EBU R128 integrated loudness and true peak of [from, from + seconds) of a file (all of it without a span). */
export async function loudness(file: string, span?: { from: number; seconds: number }): Promise<Loudness> {
  const { stderr } = await exec(
    refTools.ffmpeg,
    [
      '-hide_banner',
      '-nostats',
      ...(span ? ['-ss', String(span.from), '-t', String(span.seconds)] : []),
      '-i',
      file,
      '-af',
      'ebur128=peak=true',
      '-f',
      'null',
      '-',
    ],
    { maxBuffer: 64 << 20 },
  );
  const summary = stderr.slice(stderr.lastIndexOf('Summary:'));
  const num = (re: RegExp) => Number(re.exec(summary)?.[1] ?? NaN);
  return { integrated: num(/I:\s+(-?[\d.]+|-inf) LUFS/), truePeak: num(/Peak:\s+(-?[\d.]+|-inf) dBFS/) };
}
