// Pure: how a PCM timeline is cut into frame-aligned chunks that separate AAC encoders can encode
// at once and whose packets join without a seam, and how their progress maps back to the inputs.
import type { PcmFormat } from '../ffmpeg/transcode.js';
import { isLosslessCodec } from './plan-output.js';

/** Samples per AAC-LC frame (packet). */
export const AAC_FRAME = 1024;
/** ffmpeg's AAC encoder puts one frame of priming ahead of the audio (measured: aac-timeline.test.ts). */
export const AAC_PRIMING = 1024;
/** Real audio fed before and after a chunk, so the encoder's state and overlap match its neighbours'. */
export const AAC_ROLL = 2048;
/** A chunk shorter than this (about 12 s at 44.1 kHz) costs more in process start than it saves. */
export const MIN_CHUNK_FRAMES = 512;

export interface AacChunk {
  /** The chunk's own samples of the timeline: [start, end). */
  start: number;
  end: number;
  /** What its encoder is fed: [feedStart, feedEnd), the chunk plus pre-roll and post-roll. */
  feedStart: number;
  feedEnd: number;
  /** The first packet of its encode that is kept. */
  firstPacket: number;
  /** How many packets are kept; undefined for the last chunk, which keeps the rest (the padding). */
  packets?: number;
  /** Samples of priming ahead of the kept audio (only the first chunk keeps it). */
  priming: number;
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
 * `count` chunks of nearly equal length (fewer when the timeline is short), every boundary on a
 * frame. Packet j of an encode fed from sample f decodes to f + (j - 1) * 1024 .. f + j * 1024,
 * so a chunk keeps packets (start - feedStart) / 1024 + 1 onward; the first keeps packet 0 too.
 */
export function planChunks(total: number, count: number, minFrames = MIN_CHUNK_FRAMES): AacChunk[] {
  const frames = Math.max(1, Math.ceil(total / AAC_FRAME));
  const n = Math.max(1, Math.min(Math.floor(count) || 1, Math.floor(frames / minFrames) || 1));
  const chunks: AacChunk[] = [];
  let frame = 0;
  for (let k = 0; k < n; k++) {
    const take = Math.floor(frames / n) + (k < frames % n ? 1 : 0);
    const start = frame * AAC_FRAME;
    frame += take;
    const last = k === n - 1;
    const end = last ? total : frame * AAC_FRAME;
    const feedStart = Math.max(0, start - AAC_ROLL);
    const feedEnd = Math.min(total, end + AAC_ROLL);
    const firstPacket = k === 0 ? 0 : (start - feedStart) / AAC_FRAME + 1;
    const packets = last ? undefined : take + (k === 0 ? 1 : 0);
    chunks.push({ start, end, feedStart, feedEnd, firstPacket, packets, priming: k === 0 ? AAC_PRIMING : 0 });
  }
  return chunks;
}

export interface ByteRange {
  part: number;
  /** Byte offsets inside that part: [from, to). */
  from: number;
  to: number;
}

/** The byte ranges of consecutive part files (of `lengths` samples each) that hold samples [from, to). */
export function rangesOf(lengths: readonly number[], from: number, to: number, bytesPerSample: number): ByteRange[] {
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
export function encodedFractions(lengths: readonly number[], chunks: readonly AacChunk[], done: readonly number[]): number[] {
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
export function timelineFormat(inputs: readonly { codec: string; bitsPerSample?: number }[], filtered: boolean): PcmFormat {
  const deep = inputs.some((p) => isLosslessCodec(p.codec) && (p.bitsPerSample ?? 16) > 16);
  return deep || filtered ? 'f32le' : 's16le';
}
