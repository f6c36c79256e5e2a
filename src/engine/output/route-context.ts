// What every route (MP3 frames, MP4 packets, one PCM encode) is given, and what it hands back.
import { inputChain, type LimiterSettings } from '../ffmpeg/sound-filters.js';
import { isLossy } from '../plan/formats.js';
import { LIMITER_ATTACK_MS, LIMITER_RELEASE_MS, limiterCeilingDb } from '../plan/loudness-plan.js';
import { trustsDuration, type TranscodeJob } from '../ffmpeg/transcode.js';
import type { Runner } from '../ffmpeg/runner.js';
import type { Tools } from '../types.js';
import type { Chapter } from '../plan/chapters.js';
import type { OutputMeta } from '../inputs/meta.js';
import type { OutputPlan } from '../plan/output-plan.js';
import { runPool } from '../io/pool.js';
import type { Probed } from '../inputs/probe.js';
import type { ProgressTracker } from '../plan/progress.js';
import type { SoundPlan } from '../plan/sound-plan.js';
import type { FailChecks } from '../plan/fallback.js';

export interface RouteContext {
  inputs: string[];
  /** Names for messages, index-aligned with inputs. */
  names: string[];
  probed: Probed[];
  plan: OutputPlan;
  /** The output as the caller named it (for messages). */
  output: string;
  /** The hidden file the output is written to before its rename. */
  partial: string;
  /** Makes (once) the job's temporary folder. */
  scratch: () => Promise<string>;
  tools: Tools;
  runner?: Runner;
  signal: AbortSignal;
  /** Stops every other task of the job. */
  abort: () => void;
  concurrency: number;
  tracker: ProgressTracker;
  meta: OutputMeta;
  /** The chapters to write, given where each input starts and the total (seconds); [] when off. */
  chapters: (starts: number[], total: number) => Chapter[];
  /** What the sound options do to each input and join (absent when none is on). */
  sound?: SoundPlan;
  /** The route puts each gap inside the decode before it (the MP3 and MP4 routes add parts of silence instead). */
  gapInDecode?: boolean;
  /** Fast paths whose checks fail on purpose (tests' injected faults, plan/fallback.ts). */
  failChecks?: FailChecks;
  /** The plain way: no fast path, every input decoded and the output encoded in one run. */
  plain?: boolean;
}

export interface RouteResult {
  durationSeconds: number;
  chapters: Chapter[];
}

/** Run `task` for each index, one per core, stopping the rest at the first failure. */
export function perInput<T>(
  ctx: RouteContext,
  indexes: number[],
  task: (i: number) => Promise<T>,
): Promise<Map<number, T>> {
  return runPool(indexes, ctx.concurrency, task, () => ctx.abort());
}

/** The fields every per-input ffmpeg job shares. */
export function partJob<T>(ctx: RouteContext, i: number, output: string, target: T): TranscodeJob<T> {
  const p = ctx.probed[i].result;
  const trustedEnd = trustsDuration(p.format) ? p.durationSeconds : undefined;
  return {
    filters: ctx.sound && soundChain(ctx.sound, i, ctx.plan, trustedEnd, ctx.gapInDecode ?? false),
    input: ctx.inputs[i],
    output,
    target,
    durationSeconds: p.durationSeconds,
    trimToDuration: trustsDuration(p.format),
    tools: ctx.tools,
    runner: ctx.runner,
    signal: ctx.signal,
    onProgress: (f) => ctx.tracker.transcode(i, f),
    displayName: ctx.names[i],
    index: i,
  };
}

/**
 * The -af chain of decoded input `i`: its gain, the kept range (and the cut at a trusted end),
 * and, where the route puts gaps inside the decodes, the gap after it. Undefined when it needs none.
 */
export function soundChain(
  sound: SoundPlan,
  i: number,
  plan: OutputPlan,
  trustedEnd: number | undefined,
  gapInDecode: boolean,
): string | undefined {
  const p = sound.inputs[i];
  let keep = p.keep;
  if (trustedEnd !== undefined)
    keep = { start: keep?.start ?? 0, end: Math.min(keep?.end ?? trustedEnd, trustedEnd) };
  const last = i === sound.inputs.length - 1;
  const padSamples = gapInDecode && !last ? Math.round(sound.gap * plan.sampleRate) : 0;
  const gainDb = p.copy ? undefined : p.gain?.gainDb;
  const limit = !p.copy && p.gain?.limiter ? limiterFor(plan) : undefined;
  if (!keep && !gainDb && !padSamples && !limit) return undefined;
  return inputChain({
    sampleRate: plan.sampleRate,
    channels: plan.channels,
    gainDb,
    keep,
    padSamples,
    limit,
  });
}

/** The limiter of a decoded input whose gain would otherwise pass the ceiling. */
export function limiterFor(plan: OutputPlan): LimiterSettings {
  return {
    ceilingDb: limiterCeilingDb(isLossy(plan.format)),
    attackMs: LIMITER_ATTACK_MS,
    releaseMs: LIMITER_RELEASE_MS,
  };
}
