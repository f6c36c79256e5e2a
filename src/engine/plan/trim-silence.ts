// Pure: which part of an input --trim-silence keeps, from the silences a decode found.
import type { Silence } from '../ffmpeg/silence-log.js';

/** Silence kept at each trimmed end, so the first and last syllables are not clipped. */
export const KEEP_SECONDS = 0.03;
/** Ends closer than this to the edge count as the edge (silencedetect rounds its times). */
const EDGE = 0.001;

export interface KeepRange {
  start: number;
  end: number;
}

/**
 * The stretch to keep of an input of `duration` seconds: from where its leading silence ends to
 * where its trailing silence begins, each widened by `keep`. An input that is silence throughout
 * keeps nothing but `keep` seconds, so it still has a place (and a chapter) in the output.
 */
export function keepRange(silences: readonly Silence[], duration: number, keep = KEEP_SECONDS): KeepRange {
  let start = 0;
  let end = duration;
  const first = silences[0];
  if (first && first.start <= EDGE) start = Math.max(0, first.end - keep);
  const last = silences.at(-1);
  if (last && last.end >= duration - EDGE) end = Math.min(duration, last.start + keep);
  if (first && first.start <= EDGE && first.end >= duration - EDGE)
    return { start: 0, end: Math.min(duration, keep) };
  return end > start ? { start, end } : { start: 0, end: Math.min(duration, keep) };
}

/**
 * The same range in whole frames of `frameSeconds` (for an MP3 whose frames are copied), widened
 * outwards so no kept audio is lost: the first frame that holds `start`, up to the frame that
 * holds `end`. `skip` is how many frames the decoder's start trim hides (encoder delay).
 */
export function keepFrames(
  range: KeepRange,
  frameSeconds: number,
  frames: number,
  delaySeconds = 0,
): { first: number; end: number } {
  const first = Math.max(0, Math.floor((range.start + delaySeconds) / frameSeconds));
  const end = Math.min(frames, Math.ceil((range.end + delaySeconds) / frameSeconds));
  return { first, end: Math.max(end, first + 1) };
}
