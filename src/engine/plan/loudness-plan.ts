// Pure: the gain that brings an input to the loudness target without letting its true peak past
// the ceiling. A copied MP3 can only move in whole global_gain steps, so it takes the nearest step
// that still respects the ceiling. Where the ceiling would hold the gain back by more than a small
// slack, the whole gain is applied and a limiter keeps the peaks under the ceiling instead (a
// copied MP3 then has to be decoded).
import { GAIN_STEP_DB, stepsFor } from '../mp3/gain.js';

/** No sample of the output above this (dBTP), as --loudness promises (docs/reference/command-line.md). */
export const TRUE_PEAK_CEILING_DB = -1;
/**
 * A lossy encoder's ringing lifts the true peak above the decoded input's; inputs that go through
 * one aim this much lower, so the written file still keeps the ceiling. Measured on limited
 * transients (noise bursts, drums, clicks) against the encoders' output: AAC up to 2.3 dB over
 * (128 kb/s), LAME 2.0, Opus 0.9, Vorbis 0.6; 0.5 left a drum-like FLAC into M4B at +0.1 dBTP.
 */
export const LOSSY_HEADROOM_DB = 2.5;

export interface LoudnessInput {
  integratedLufs: number | null;
  truePeakDb: number | null;
}

/** How far short of the target the ceiling may hold a plain gain before a limiter takes over. */
export const LIMITER_SLACK_DB = 0.5;
/**
 * The limiter works at 4 times the rate (ffmpeg/sound-filters.ts); going back to the audio's rate
 * rings up to 0.7 dB over it on noisy transients (measured), so it holds this far under the
 * true-peak ceiling.
 */
export const INTERSAMPLE_MARGIN_DB = 1;
/** The limiter's look-ahead (its attack), milliseconds. */
export const LIMITER_ATTACK_MS = 5;
export const LIMITER_RELEASE_MS = 50;

/** The sample-peak ceiling of the limiter, dBFS. */
export function limiterCeilingDb(lossyEncode: boolean): number {
  return TRUE_PEAK_CEILING_DB - (lossyEncode ? LOSSY_HEADROOM_DB : 0) - INTERSAMPLE_MARGIN_DB;
}

export interface GainChoice {
  /** The gain applied, in dB (for an MP3 copy, steps x GAIN_STEP_DB). */
  gainDb: number;
  /** Whole global_gain steps, for an MP3 whose frames are copied. */
  steps?: number;
  /** The ceiling made the gain smaller than the target asked for. */
  limited: boolean;
  /** The whole gain is applied and a limiter keeps the peaks under the ceiling (never for MP3 steps). */
  limiter?: boolean;
}

export interface GainRules {
  /** The input's frames are copied: the gain moves in global_gain steps. */
  mp3Steps: boolean;
  /** The input goes through a lossy encoder after the gain. */
  lossyEncode: boolean;
}

/** The largest gain that keeps the true peak at or under the ceiling (Infinity with no peak). */
export function peakLimit(truePeakDb: number | null, lossyEncode: boolean): number {
  if (truePeakDb === null) return Infinity;
  return TRUE_PEAK_CEILING_DB - (lossyEncode ? LOSSY_HEADROOM_DB : 0) - truePeakDb;
}

/**
 * Whether a copied MP3 must be decoded to reach the target: the ceiling holds its steps back by
 * more than the slack (whole steps alone may fall short by half a step, which is within it).
 */
export function needsLimiter(m: LoudnessInput, targetLufs: number, lossyEncode: boolean): boolean {
  if (m.integratedLufs === null) return false;
  return targetLufs - m.integratedLufs > peakLimit(m.truePeakDb, lossyEncode) + LIMITER_SLACK_DB;
}

/** Gain for one input; digital silence (no gated loudness) is left alone. */
export function chooseGain(m: LoudnessInput, targetLufs: number, rules: GainRules): GainChoice {
  if (m.integratedLufs === null)
    return rules.mp3Steps ? { gainDb: 0, steps: 0, limited: false } : { gainDb: 0, limited: false };
  const wanted = targetLufs - m.integratedLufs;
  const limit = peakLimit(m.truePeakDb, rules.lossyEncode);
  if (!rules.mp3Steps) {
    if (wanted > limit + LIMITER_SLACK_DB) return { gainDb: round2(wanted), limited: false, limiter: true };
    const gainDb = Math.min(wanted, limit);
    return { gainDb: round2(gainDb), limited: gainDb < wanted };
  }
  const nearest = stepsFor(wanted);
  // A tiny tolerance, so a peak exactly on the ceiling after whole steps is not a step lower.
  const steps = nearest * GAIN_STEP_DB <= limit + 1e-9 ? nearest : Math.floor((limit + 1e-9) / GAIN_STEP_DB);
  return { gainDb: round2(steps * GAIN_STEP_DB), steps, limited: steps < nearest };
}

function round2(x: number): number {
  return Math.round(x * 100) / 100;
}

/** The line a person reads when the ceiling held an input back. */
export function limitedMessage(
  name: string,
  choice: GainChoice,
  targetLufs: number,
  measured: number,
): string {
  const short = targetLufs - measured - choice.gainDb;
  return `${name}: gain limited to ${choice.gainDb.toFixed(1)} dB (${short.toFixed(1)} dB short of ${targetLufs} LUFS) to keep peaks under ${TRUE_PEAK_CEILING_DB} dBTP`;
}
