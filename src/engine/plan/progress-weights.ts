// Pure: what each step of a merge costs, so the bar moves with the work
// (docs/decisions/0017-progress-weighs-measured-cost.md). ProgressTracker counts in the unit of one
// input's decode-or-encode on the route; this turns the table into that unit.
import type { OutputFormat, Route } from './formats.js';

/**
 * CPU seconds per second of audio, relative to one measuring decode (ebur128 with true peak), on
 * the project's ffmpeg build (bench/progress-phases.ts and single-step timings, best of three).
 */
export const STEP_COST = {
  measure: 1,
  /** A decode to raw samples for the one final encode (the PCM routes, and mixing). */
  decodeToPcm: 0.2,
  /** Copying MP3 frames or MP4 packets in process (gain changed in place included). */
  joinInProcess: 0.03,
  /**
   * Starting one ffmpeg (about 40 ms on the reference machine), as the seconds of audio a
   * measuring decode goes through meanwhile: what a batch of short encodes pays once.
   */
  toolStart: 13,
  /** Decode and encode of one input, or the one final encode, into each format. */
  encode: { mp3: 5.6, m4b: 2.4, m4a: 2.4, opus: 7.5, ogg: 2.8, flac: 0.35, wav: 0.1 } satisfies Record<
    OutputFormat,
    number
  >,
} as const;

export interface ProgressWeights {
  /** A second of measuring, against one second of an input's decode-or-encode. */
  measure: number;
  /** A second of the last step (the join, or the one final encode), likewise. */
  last: number;
}

/**
 * The weights for a merge into `format` by `route`; `mixing` (crossfades, gapless joins outside
 * the PCM route) decodes the inputs to samples and ends in one encode, as the PCM route does.
 */
export function progressWeights(format: OutputFormat, route: Route, mixing: boolean): ProgressWeights {
  const oneEncodeAtTheEnd = mixing || route === 'pcm-encode';
  const perInput = oneEncodeAtTheEnd ? STEP_COST.decodeToPcm : STEP_COST.encode[format];
  const last = oneEncodeAtTheEnd ? STEP_COST.encode[format] : STEP_COST.joinInProcess;
  return { measure: STEP_COST.measure / perInput, last: last / perInput };
}
