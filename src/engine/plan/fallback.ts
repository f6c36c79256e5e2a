// Pure: the checks each fast path runs on what it made, and how a failed one is told. A fast path
// (frames joined or spliced, packets copied or spliced, chunks encoded in parallel, gain changed in
// frames) that fails its check, or throws an error of its own, is made again the plain way (every
// input decoded, one encode: merge/merge.ts); the report names each such case.
import { EngineError } from '../errors.js';
import type { InputSoundPlan, SoundPlan } from './sound-plan.js';

/** The fast paths that check themselves, by the stable word a report, a log and a metric use. */
export const FALLBACK_STAGES = [
  'mp3-join',
  'mp3-splice',
  'mp3-gain',
  'aac-copy',
  'aac-splice',
  'chunked-encode',
] as const;

export type FallbackStage = (typeof FALLBACK_STAGES)[number];

export const isFallbackStage = (s: unknown): s is FallbackStage =>
  (FALLBACK_STAGES as readonly unknown[]).includes(s);

/** One fast path given up: which, and why (a sentence). */
export interface Fallback {
  stage: FallbackStage;
  reason: string;
}

/** Stages whose checks fail on purpose (tests): the engine's `failChecks` option. */
export type FailChecks = ReadonlySet<FallbackStage> | readonly FallbackStage[] | undefined;

/** A fast path's check failed, or the fast path failed inside: make it again the plain way. */
export class FastPathError extends Error {
  override name = 'FastPathError';
  constructor(
    readonly stage: FallbackStage,
    readonly reason: string,
  ) {
    super(`${stage}: ${reason}`);
  }
}

const forced = (fail: FailChecks, stage: FallbackStage) =>
  fail !== undefined && ('has' in fail ? fail.has(stage) : fail.includes(stage));

/**
 * Run `stage`'s check: throws FastPathError with its reason when it finds one (or when the stage is
 * one of `fail`, the test's injected fault, without running the check).
 */
export function checkStage(fail: FailChecks, stage: FallbackStage, check: () => string | undefined): void {
  if (forced(fail, stage)) throw new FastPathError(stage, 'its check was made to fail (injected fault)');
  const reason = check();
  if (reason !== undefined) throw new FastPathError(stage, reason);
}

/**
 * The fallback an error of a fast path asks for (`stage`: the path's, for an error it threw inside);
 * undefined for an error that is not the path's own: an input's fault, the output's (a full disk),
 * a cancel, a bad trim or chapter, all coded EngineErrors, fail the merge as they are.
 */
export function fallbackOf(err: unknown, stage: FallbackStage): Fallback | undefined {
  if (err instanceof FastPathError) return { stage: err.stage, reason: err.reason };
  if (err instanceof EngineError || !(err instanceof Error)) return undefined;
  if ((err as NodeJS.ErrnoException).syscall !== undefined) return undefined;
  // One line for stderr and the log, whatever a tool's message held.
  return { stage, reason: err.message.replace(/^internal: /, '').replace(/\s*\n\s*/g, ' ') };
}

/** What a person reads on stderr for one fallback. */
export function fallbackLine(f: Fallback): string {
  return `audio-merge: fell back to decoding and one encode for ${f.stage}: ${f.reason}`;
}

/** Whether `got` samples are `want` within `tolerance` samples; else why not. */
export function lengthReason(
  what: string,
  got: number,
  want: number,
  tolerance: number,
  rate: number,
): string | undefined {
  if (Math.abs(got - want) <= tolerance) return undefined;
  const s = (n: number) => (n / rate).toFixed(3);
  return `${what} is ${s(got)} s long where ${s(want)} s was planned`;
}

/**
 * The frames a join wrote of each part, against what each part's scan counted: the join drops only
 * junk (a stray or cut-short frame), so more than `slack` frames fewer, or any more, is a lost part.
 */
export function joinedFramesReason(
  scanned: readonly number[],
  written: readonly number[],
  slack: number,
): string | undefined {
  if (scanned.length !== written.length) return `the join wrote ${written.length} parts of ${scanned.length}`;
  const k = scanned.findIndex((n, i) => written[i] > n || written[i] < n - slack);
  if (k < 0) return undefined;
  return `the join wrote ${written[k]} frames of part ${k + 1}, whose scan counted ${scanned[k]}`;
}

/** Frames given their gain against the frames written, per part with a gain. */
export function gainedFramesReason(
  steps: ReadonlyArray<number | undefined>,
  gained: readonly number[],
  written: readonly number[],
): string | undefined {
  const k = steps.findIndex((s, i) => s !== undefined && s !== 0 && gained[i] !== written[i]);
  if (k < 0) return undefined;
  return `the gain reached ${gained[k]} of the ${written[k]} frames of part ${k + 1}`;
}

/** What an MP4 holds, as its index states it. */
export interface Mp4Shape {
  packets: number;
  priming: number;
  audioSamples: number;
}

/** The written MP4 read back against what its parts add up to. */
export function mp4ShapeReason(got: Mp4Shape, want: Mp4Shape): string | undefined {
  if (got.packets !== want.packets) return `the output holds ${got.packets} packets of ${want.packets}`;
  if (got.priming !== want.priming)
    return `the output's edit list skips ${got.priming} samples, not ${want.priming}`;
  if (got.audioSamples !== want.audioSamples)
    return `the output presents ${got.audioSamples} samples, not ${want.audioSamples}`;
  return undefined;
}

/**
 * The AAC packets a part presents: its edit list must lie inside its packets (priming and audio no
 * more than the packets hold), or the copy would promise samples it has not got.
 */
export function aacPartReason(
  parts: ReadonlyArray<{ packets: number; priming: number; audioSamples: number }>,
  frame: number,
): string | undefined {
  const k = parts.findIndex(
    (p) => p.priming < 0 || p.audioSamples <= 0 || p.priming + p.audioSamples > p.packets * frame,
  );
  if (k < 0) return undefined;
  const p = parts[k];
  return `part ${k + 1} presents ${p.priming} + ${p.audioSamples} samples from ${p.packets} packets`;
}

/** What the plain way needs of a copied MP3 to cut it where its whole-frame trim did. */
export interface CopiedMp3 {
  samplesPerFrame: number;
  sampleRate: number;
  /** Samples a decoder skips at its start (encoder delay and the decoder's own), when it knows them. */
  skipped: number;
}

/**
 * The sound plan for the plain way: every input decoded, each with the gain, span, gap and fade the
 * fast path planned (a copied MP3's whole-frame span as seconds of its decode).
 */
export function plainSound(sound: SoundPlan, copied: ReadonlyArray<CopiedMp3 | undefined>): SoundPlan {
  const inputs = sound.inputs.map((p, i): InputSoundPlan => {
    const { keepFrames, ...rest } = p;
    const mp3 = copied[i];
    if (!keepFrames || !mp3 || p.keep) return { ...rest, copy: false };
    const at = (frame: number) => Math.max(0, (frame * mp3.samplesPerFrame - mp3.skipped) / mp3.sampleRate);
    return { ...rest, copy: false, keep: { start: at(keepFrames.first), end: at(keepFrames.end) } };
  });
  return { ...sound, inputs };
}
