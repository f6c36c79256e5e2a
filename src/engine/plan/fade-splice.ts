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
  /** The decoded samples kept, [start, end) (a trim); the whole input when absent. */
  keep?: { start: number; end: number };
}

export interface Placement {
  /** Raw output position of the input's first kept decoded sample, and one past its last. */
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

/** The decoded samples of the input that are kept: its trim, else all of them. */
export function keptSamples(input: SpliceInput, spf: number): { start: number; end: number } {
  return input.keep ?? { start: 0, end: decodedLength(input, spf) };
}

/**
 * Where each input plays. The first: its first kept sample within the output's first frame (whole
 * frames before it dropped). Each next one at the whole-frame shift whose start is nearest to the
 * previous end less the fade (or plus the gap), never overlapping more than half of either
 * neighbour (`fades` are already fitted so); with neither, the first shift that does not overlap,
 * so a hard join never mixes two inputs (it may hold less than a frame of silence).
 */
export function placeInputs(
  inputs: readonly SpliceInput[],
  fades: readonly number[],
  spf: number,
  gap = 0,
): { placements: Placement[]; fades: number[] } {
  const k0 = keptSamples(inputs[0], spf);
  const shift0 = k0.start > 0 ? -Math.floor((inputs[0].delay + k0.start) / spf) : 0;
  const first = shift0 * spf + inputs[0].delay + DECODER_DELAY + k0.start;
  const placements: Placement[] = [{ start: first, end: first + (k0.end - k0.start), shift: shift0 }];
  const placed: number[] = [];
  for (let i = 1; i < inputs.length; i++) {
    const prev = placements[i - 1];
    const kept = keptSamples(inputs[i], spf);
    const own = inputs[i].delay + DECODER_DELAY + kept.start;
    const length = kept.end - kept.start;
    const limit = Math.floor(Math.min(prev.end - prev.start, length) / 2);
    const fade = fades[i - 1];
    const at = (prev.end - fade + (fade > 0 ? 0 : gap) - own) / spf;
    let shift = fade > 0 || gap > 0 ? Math.round(at) : Math.ceil(at);
    while (prev.end - (own + shift * spf) > limit) shift++;
    const start = own + shift * spf;
    placements.push({ start, end: start + length, shift });
    placed.push(Math.max(0, prev.end - start));
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
  startCut: boolean,
): boolean {
  let changed = false;
  for (let i = 0; i < inputs.length; i++) {
    const before = regions.find((r) => r.last === i - 1);
    if ((i > 0 || startCut) && !before) continue; // its start lies inside a region with more
    const after = regions.find((r) => r.first === i);
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
 * The re-encoded regions before the fitting: one per join, spanning where the one input ends and
 * the next starts plus `margin` frames each side, so no copied frame carries audio the join changes
 * (a frame's data reaches into its neighbours through the filterbank's overlap); and, for a first
 * input trimmed at its start or a last one at its end, one over that cut (join -1 and join n-1).
 */
function joinRegions(
  inputs: readonly SpliceInput[],
  placements: readonly Placement[],
  spf: number,
  margin: number,
  total: number,
): Region[] {
  const n = inputs.length;
  const regions: Region[] = [];
  if ((inputs[0].keep?.start ?? 0) > 0)
    regions.push({
      from: 0,
      to: Math.min(total, Math.ceil(placements[0].start / spf) + margin),
      first: -1,
      last: -1,
    });
  for (let j = 0; j + 1 < n; j++) {
    const a = Math.min(placements[j + 1].start, placements[j].end);
    const b = Math.max(placements[j + 1].start, placements[j].end);
    regions.push({
      from: Math.max(0, Math.floor(a / spf) - margin),
      to: Math.min(total, Math.ceil(b / spf) + margin),
      first: j,
      last: j,
    });
  }
  if (endCut(inputs, spf))
    regions.push({
      from: Math.max(0, Math.floor(placements[n - 1].end / spf) - margin),
      to: total,
      first: n - 1,
      last: n - 1,
    });
  return regions;
}

/** Whether the last input is trimmed before its end. */
function endCut(inputs: readonly SpliceInput[], spf: number): boolean {
  const last = inputs[inputs.length - 1];
  return last.keep !== undefined && last.keep.end < decodedLength(last, spf);
}

/**
 * The whole splice: placements, and the output as copies and re-encoded regions (joinRegions),
 * each copy only frames its input has and keeps. `gap` is samples of silence between neighbours
 * (with no fade).
 */
export function planSplice(
  inputs: readonly SpliceInput[],
  fades: readonly number[],
  spf: number,
  margin = 2,
  gap = 0,
): SplicePlan {
  const { placements, fades: placed } = placeInputs(inputs, fades, spf, gap);
  const n = inputs.length;
  const last = placements[n - 1];
  // A trimmed end: frames up to the one after the last kept sample (its tail settles the decoder).
  const totalFrames = endCut(inputs, spf) ? Math.ceil(last.end / spf) + 1 : last.shift + inputs[n - 1].frames;
  const startCut = (inputs[0].keep?.start ?? 0) > 0;
  let regions = joinRegions(inputs, placements, spf, margin, totalFrames);
  for (let pass = 0; pass <= n + 2; pass++) {
    regions = mergeOverlapping(regions);
    if (!fitToInputs(regions, inputs, placements, totalFrames, startCut)) break;
  }
  const segments: Segment[] = [];
  const opening = regions.find((r) => r.first === -1);
  if (opening) segments.push({ kind: 'region', from: opening.from, to: opening.to });
  for (let i = 0; i < n; i++) {
    const before = regions.find((r) => r.last === i - 1);
    const after = regions.find((r) => r.first === i);
    if ((i === 0 && !startCut) || before) {
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
  const delay = placements[0].start - DECODER_DELAY;
  return { placements, fades: placed, segments, totalFrames, delay, padding };
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
