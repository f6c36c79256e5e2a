// Pure: a crossfade join of copied MP3s that re-encodes only the frames around each fade. Times
// are samples of the decoder's raw output of the joined frames: output frame k plays
// [k * spf, (k + 1) * spf). An input's decoded sample n (what ffmpeg gives once the LAME tag's
// delay and padding are removed) plays at its start S + n, and its own frame f is output frame
// f + shift. Copied frames can only move by whole frames, so each input's start is the one
// nearest to where its fade in should begin: every fade is as asked to within half a frame.
import { constantPowerGains } from './crossfade.js';

/** Samples an MP3 decoder's filterbank delays its output by (ffmpeg removes them with the LAME delay). */
export const DECODER_DELAY = 529;
/** LAME's encoder delay plus the decoder's: where sample 0 of an encode's input is heard. */
export const ENCODE_DECODE_DELAY = 576 + DECODER_DELAY;

export interface SpliceInput {
  frames: number;
  /** Encoder delay and padding (samples), from the LAME tag or the usual guesses. */
  delay: number;
  padding: number;
}

export interface Placement {
  /** Raw output position of the input's first decoded sample, and one past its last. */
  start: number;
  end: number;
  /** Output frame of the input's own frame 0 (its frames lie at whole frames of the output). */
  shift: number;
}

export type Segment =
  /** The input's own frames [from, to), copied. */
  | { kind: 'copy'; input: number; from: number; to: number }
  /** Output frames [from, to), encoded from the mixed audio. */
  | { kind: 'region'; from: number; to: number };

export interface SplicePlan {
  placements: Placement[];
  /** Each join's fade as placed, in samples. */
  fades: number[];
  segments: Segment[];
  totalFrames: number;
  /** The output's LAME tag: its delay is the first input's, its padding what follows the last sample. */
  delay: number;
  padding: number;
}

export function decodedLength(input: SpliceInput, spf: number): number {
  return Math.max(0, input.frames * spf - input.delay - input.padding);
}

/**
 * Where each input plays: the first where its own delay puts it, each next one at the whole-frame
 * shift whose start is nearest to the previous end less the fade, but never overlapping more than
 * half of either neighbour (`fades` are already fitted so).
 */
export function placeInputs(
  inputs: readonly SpliceInput[],
  fades: readonly number[],
  spf: number,
): { placements: Placement[]; fades: number[] } {
  const first = inputs[0].delay + DECODER_DELAY;
  const placements: Placement[] = [{ start: first, end: first + decodedLength(inputs[0], spf), shift: 0 }];
  const placed: number[] = [];
  for (let i = 1; i < inputs.length; i++) {
    const prev = placements[i - 1];
    const own = inputs[i].delay + DECODER_DELAY;
    const length = decodedLength(inputs[i], spf);
    const limit = Math.floor(Math.min(prev.end - prev.start, length) / 2);
    let shift = Math.round((prev.end - fades[i - 1] - own) / spf);
    while (prev.end - (own + shift * spf) > limit) shift++;
    const start = own + shift * spf;
    placements.push({ start, end: start + length, shift });
    placed.push(prev.end - start);
  }
  return { placements, fades: placed };
}

interface Region {
  from: number;
  to: number;
  /** The joins it covers. */
  first: number;
  last: number;
}

function mergeOverlapping(regions: Region[]): Region[] {
  const out: Region[] = [];
  for (const r of regions) {
    const prev = out[out.length - 1];
    if (prev && r.from <= prev.to) {
      prev.to = Math.max(prev.to, r.to);
      prev.last = r.last;
    } else out.push({ ...r });
  }
  return out;
}

/**
 * Fit the regions to the inputs' frames: a copy takes only frames the input has, and an input
 * left with none (shorter than its fades and margins) goes whole into the region around it.
 * Returns whether anything moved.
 */
function fitToInputs(
  regions: Region[],
  inputs: readonly SpliceInput[],
  placements: readonly Placement[],
  total: number,
): boolean {
  let changed = false;
  for (let i = 0; i < inputs.length; i++) {
    const before = i > 0 ? regions.find((r) => r.last === i - 1) : undefined;
    if (i > 0 && !before) continue; // both its joins lie in one region
    const after = i + 1 < inputs.length ? regions.find((r) => r.first === i) : undefined;
    const { shift } = placements[i];
    const lo = Math.max(before ? before.to : 0, shift);
    const hi = Math.min(after ? after.from : total, shift + inputs[i].frames);
    if (lo >= hi) {
      if (before) before.to = after ? after.from : total;
      else if (after) after.from = 0;
      changed = true;
      continue;
    }
    if (before && before.to !== lo) [before.to, changed] = [lo, true];
    if (after && after.from !== hi) [after.from, changed] = [hi, true];
  }
  return changed;
}

/**
 * The whole splice: placements, and the output as copies and re-encoded regions. Each join's
 * region spans its fade plus `margin` frames each side, so no copied frame carries audio the fade
 * changes (a frame's data reaches into its neighbours through the filterbank's overlap).
 */
export function planSplice(
  inputs: readonly SpliceInput[],
  fades: readonly number[],
  spf: number,
  margin = 2,
): SplicePlan {
  const { placements, fades: placed } = placeInputs(inputs, fades, spf);
  const n = inputs.length;
  const last = placements[n - 1];
  const totalFrames = last.shift + inputs[n - 1].frames;
  let regions: Region[] = placed.map((_, j) => ({
    from: Math.max(0, Math.floor(placements[j + 1].start / spf) - margin),
    to: Math.min(totalFrames, Math.ceil(placements[j].end / spf) + margin),
    first: j,
    last: j,
  }));
  for (let pass = 0; pass <= n; pass++) {
    regions = mergeOverlapping(regions);
    if (!fitToInputs(regions, inputs, placements, totalFrames)) break;
  }
  const segments: Segment[] = [];
  for (let i = 0; i < n; i++) {
    const before = i > 0 ? regions.find((r) => r.last === i - 1) : undefined;
    const after = regions.find((r) => r.first === i);
    if (i === 0 || before) {
      const lo = before ? before.to : 0;
      const hi = after ? after.from : totalFrames;
      if (hi > lo)
        segments.push({
          kind: 'copy',
          input: i,
          from: lo - placements[i].shift,
          to: hi - placements[i].shift,
        });
    }
    if (after) segments.push({ kind: 'region', from: after.from, to: after.to });
  }
  const padding = Math.max(0, totalFrames * spf - last.end + DECODER_DELAY);
  return { placements, fades: placed, segments, totalFrames, delay: inputs[0].delay, padding };
}

export interface RegionCodec {
  /** Raw output positions of the mixed audio the encode is given: [from, to). */
  from: number;
  to: number;
  /** Encoded frames to drop before the region's (the pre-roll that settles the encoder). */
  skip: number;
}

/**
 * What the encode of a region is fed: audio from `preroll` frames before it to `tail` frames after,
 * placed so that its encoded frame `preroll + k` plays exactly where output frame `from + k` does
 * (the encode's first frame plays its input ENCODE_DECODE_DELAY samples late).
 */
export function regionCodec(
  region: { from: number; to: number },
  spf: number,
  preroll = 4,
  tail = 2,
): RegionCodec {
  return {
    from: (region.from - preroll) * spf + ENCODE_DECODE_DELAY,
    to: (region.to + tail) * spf + ENCODE_DECODE_DELAY,
    skip: preroll,
  };
}

export interface DecodeSpan {
  /** The input's own frames to decode, [from, to), the first `lead` of which settle the decoder. */
  from: number;
  to: number;
  /** Raw output position of the decode's first sample. */
  rawStart: number;
}

/**
 * The frames of an input (`frames` in all) to decode for the mixed audio in raw [from, to): those holding its part
 * of that span, led by `lead` frames whose output is thrown away (their reservoir bytes lie before
 * the cut); undefined when the input plays nowhere in the span.
 */
export function decodeSpan(
  p: Placement,
  frames: number,
  span: { from: number; to: number },
  spf: number,
  lead = 4,
): DecodeSpan | undefined {
  const a = Math.max(span.from, p.start);
  const b = Math.min(span.to, p.end);
  if (a >= b) return undefined;
  const origin = p.shift * spf; // raw position of the input's own frame 0
  const from = Math.max(0, Math.floor((a - origin) / spf) - lead);
  const to = Math.min(frames, Math.ceil((b - origin) / spf) + 1);
  return { from, to, rawStart: origin + from * spf };
}

export interface DecodedPiece {
  input: number;
  /** Raw output position of samples[0]. */
  rawStart: number;
  /** Interleaved samples. */
  samples: Float32Array;
}

/**
 * Input i's gain at raw position r: the constant-power curve of its fade in or out (the same
 * sample for sample as the full-decode mix, see sound/pcm-mix.ts), 1 between them, 0 where it is
 * silent.
 */
export function spliceGain(
  placements: readonly Placement[],
  fades: readonly number[],
  i: number,
  r: number,
): number {
  const p = placements[i];
  if (r < p.start || r >= p.end) return 0;
  if (i > 0 && fades[i - 1] > 0 && r < p.start + fades[i - 1])
    return constantPowerGains((r - p.start + 0.5) / fades[i - 1]).in;
  const next = placements[i + 1];
  if (next && fades[i] > 0 && r >= next.start)
    return constantPowerGains((r - next.start + 0.5) / fades[i]).out;
  return 1;
}

/** The mixed audio over raw [span.from, span.to): each decoded piece at its place, times its gain. */
export function mixSpan(
  span: { from: number; to: number },
  channels: number,
  pieces: readonly DecodedPiece[],
  placements: readonly Placement[],
  fades: readonly number[],
): Float32Array {
  const out = new Float32Array((span.to - span.from) * channels);
  for (const piece of pieces) {
    const frames = piece.samples.length / channels;
    const a = Math.max(span.from, piece.rawStart, placements[piece.input].start);
    const b = Math.min(span.to, piece.rawStart + frames, placements[piece.input].end);
    for (let r = a; r < b; r++) {
      const g = spliceGain(placements, fades, piece.input, r);
      const src = (r - piece.rawStart) * channels;
      const dst = (r - span.from) * channels;
      for (let c = 0; c < channels; c++) out[dst + c] += g * piece.samples[src + c];
    }
  }
  return out;
}
