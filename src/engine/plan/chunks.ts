// Pure: how a PCM timeline is cut into frame-aligned chunks that separate encoders (AAC, LAME) can
// encode at once and whose frames join without a seam, and how their progress maps back to the inputs.
import type { PcmFormat, PcmTarget } from '../ffmpeg/transcode.js';
import { isLosslessCodec } from './output-plan.js';

/** Samples per AAC-LC frame (packet). */
export const AAC_FRAME = 1024;
/** ffmpeg's AAC encoder puts one frame of priming ahead of the audio (measured: aac-timeline.test.ts). */
export const AAC_PRIMING = 1024;
/** Real audio fed before and after a chunk, so the encoder's state and overlap match its neighbours'. */
const AAC_ROLL = 2048;
/** What the chunking needs of a codec: its frame, its delay, the real audio fed either side. */
export interface ChunkCodec {
  /** Samples per frame (packet). */
  frame: number;
  /** Where sample 0 of an encode's input lands in the decoder's output of its frames. */
  delay: number;
  /** Pre-roll and post-roll of real audio (at least; the pre-roll is rounded to put the chunk on a frame). */
  roll: number;
}

export const AAC_CODEC: ChunkCodec = { frame: AAC_FRAME, delay: AAC_PRIMING, roll: AAC_ROLL };

/** A chunk shorter than this (about 12 s at 44.1 kHz) costs more in process start than it saves. */
export const MIN_CHUNK_FRAMES = 512;

export interface Chunk {
  /** The chunk's own samples of the timeline: [start, end). */
  start: number;
  end: number;
  /** What its encoder is fed: [feedStart, feedEnd), the chunk plus pre-roll and post-roll. */
  feedStart: number;
  feedEnd: number;
  /** The first packet (frame) of its encode that is kept. */
  firstPacket: number;
  /** How many packets are kept: those whose decoded output covers the chunk. */
  packets: number;
  /** Samples of the codec's delay ahead of the kept audio (only the first chunk keeps it). */
  priming: number;
  /** The timeline's last chunk (the AAC route keeps its encode's every packet to the end). */
  last: boolean;
}

/** The consecutive runs of `true` in `flags`, as lists of indexes. */
export function runsOf(flags: readonly boolean[]): number[][] {
  const runs: number[][] = [];
  flags.forEach((on, i) => {
    if (!on) return;
    const last = runs.at(-1);
    if (last && last.at(-1) === i - 1) last.push(i);
    else runs.push([i]);
  });
  return runs;
}

/**
 * `count` chunks of nearly equal length (fewer when the timeline is short). Frame j of an encode
 * fed from sample f decodes to f + j * frame - delay onward, so the seams lie where the output's
 * frames do (whole frames after the first chunk's delay), each next chunk's pre-roll is rounded to
 * put its start on a frame of its own encode, and a chunk keeps the frames that cover its samples.
 * `starts` are the timeline's places where a feed begins at no cost (where each input starts, when
 * the encoders decode the inputs themselves): a seam within a quarter chunk of the first frame
 * whose pre-roll begins at one of them moves there, so its encoder decodes nothing it drops.
 */
export function planChunks(
  total: number,
  count: number,
  codec: ChunkCodec = AAC_CODEC,
  minFrames = MIN_CHUNK_FRAMES,
  starts: readonly number[] = [],
): Chunk[] {
  const { frame: size, delay } = codec;
  const lead = delay % size; // a seam lies this many samples before a frame of the timeline
  const preroll = Math.ceil((codec.roll + delay) / size) * size - delay;
  const frames = Math.max(1, Math.ceil(total / size));
  const n = Math.max(1, Math.min(Math.floor(count) || 1, Math.floor(frames / minFrames) || 1));
  const free = starts.map((s) => Math.ceil((s + preroll + lead) / size));
  const seams = [0];
  for (let k = 1, equal = 0; k < n; k++) {
    equal += share(frames, n, k - 1);
    seams.push(snap(equal, free, frames / n / 4));
  }
  seams.push(frames);
  const chunks: Chunk[] = [];
  for (let k = 0; k < n; k++) {
    const start = k === 0 ? 0 : seams[k] * size - lead;
    const last = k === n - 1;
    const end = last ? total : seams[k + 1] * size - lead;
    let back = k === 0 ? 0 : preroll;
    while (back > start) back -= size; // the timeline's first samples: a shorter pre-roll, still on a frame
    const priming = k === 0 ? delay : 0;
    chunks.push({
      start,
      end,
      feedStart: start - back,
      feedEnd: Math.min(total, end + codec.roll),
      firstPacket: k === 0 ? 0 : (back + delay) / size,
      packets: Math.ceil((end - start + priming) / size),
      priming,
      last,
    });
  }
  return chunks;
}

/** Frames of chunk k of n over `frames`: equal, the first ones one more. */
const share = (frames: number, n: number, k: number) => Math.floor(frames / n) + (k < frames % n ? 1 : 0);

/** The free frame nearest to `seam` within `reach`, else `seam` (seams a quarter chunk apart at most keep their order). */
function snap(seam: number, free: readonly number[], reach: number): number {
  let best = seam;
  let distance = Infinity;
  for (const f of free) {
    const d = Math.abs(f - seam);
    if (d <= reach && d < distance) [best, distance] = [f, d];
  }
  return best;
}

export interface ByteRange {
  part: number;
  /** Byte offsets inside that part: [from, to). */
  from: number;
  to: number;
}

/** The byte ranges of consecutive part files (of `lengths` samples each) that hold samples [from, to). */
export function rangesOf(
  lengths: readonly number[],
  from: number,
  to: number,
  bytesPerSample: number,
): ByteRange[] {
  const out: ByteRange[] = [];
  let at = 0;
  lengths.forEach((n, part) => {
    const a = Math.max(from, at);
    const b = Math.min(to, at + n);
    if (b > a) out.push({ part, from: (a - at) * bytesPerSample, to: (b - at) * bytesPerSample });
    at += n;
  });
  return out;
}

/**
 * Per input (of `lengths` samples, laid end to end), the fraction encoded so far, given how many
 * samples of each chunk's own range its encoder has passed.
 */
export function encodedFractions(
  lengths: readonly number[],
  chunks: readonly Chunk[],
  done: readonly number[],
): number[] {
  let at = 0;
  return lengths.map((n) => {
    const from = at;
    at += n;
    if (n <= 0) return 1;
    let covered = 0;
    chunks.forEach((c, k) => {
      const reached = c.start + Math.max(0, Math.min(done[k] ?? 0, c.end - c.start));
      covered += Math.max(0, Math.min(reached, at) - Math.max(c.start, from));
    });
    return covered / n;
  });
}

/**
 * The timeline's sample format. 16-bit carries every sample of 16-bit inputs and leaves a lossy
 * decode's rounding ~96 dB down, far under the AAC encoder's own noise, at half the disk of
 * float; deeper inputs, and decodes through sound filters (a gain may pass full scale), keep float.
 */
export function timelineFormat(
  inputs: readonly { codec: string; bitsPerSample?: number }[],
  filtered: boolean,
): PcmFormat {
  const deep = inputs.some((p) => isLosslessCodec(p.codec) && (p.bitsPerSample ?? 16) > 16);
  return deep || filtered ? 'f32le' : 's16le';
}

/**
 * Each input's length on the timeline when the chunk encoders decode the inputs themselves, or
 * undefined when they cannot: that needs every input's exact length (`samples` at its own rate,
 * as FLAC states it) before any decode, mono or stereo, and no sound filters (which change
 * lengths and need their own chains). A resampled input counts its length at the timeline's
 * rate, rounded; the decode is padded or cut to exactly that (a resampler's own count may differ
 * by a sample).
 */
export function directLengths(
  inputs: readonly { samples?: number; sampleRate: number }[],
  pcm: PcmTarget,
  filtered: boolean,
): number[] | undefined {
  if (filtered || pcm.channels > 2 || inputs.length === 0) return undefined;
  const lengths = inputs.map((p) =>
    p.samples === undefined
      ? 0
      : p.sampleRate === pcm.sampleRate
        ? p.samples
        : Math.round((p.samples * pcm.sampleRate) / p.sampleRate),
  );
  return lengths.every((n) => n > 0) ? lengths : undefined;
}
