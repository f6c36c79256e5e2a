// A merge's end as an operator reads it: one log line on the process that ran it (grep its id
// across web and worker logs) and the counters beside it. Both queues call the same reporter, so
// the embedded server and a worker say it alike.
import { OUTPUT_FORMATS } from '../../shared/output-formats.js';
import type { MergeJobData, MergeJobResult } from '../jobs/queue.js';
import type { MergeEnd, MergeFallback, Metrics } from './metrics.js';

export type MergeEnds = (end: MergeEnd) => void;

/**
 * THE ONE PLACE the engine's fallbacks are read from its report. The report gains
 * `fallbacks: {stage, reason}[]` on another branch; until then this finds none.
 */
export function reportedFallbacks(report: object): MergeFallback[] {
  const listed = (report as { fallbacks?: MergeFallback[] }).fallbacks ?? [];
  return listed.map((f) => ({ stage: String(f.stage), reason: String(f.reason) }));
}

/** A format as a metric label: never a value the client made up (each label value is a series). */
export const formatLabel = (format: unknown): string =>
  typeof format === 'string' && (OUTPUT_FORMATS as readonly string[]).includes(format) ? format : 'other';

export type RunEnd =
  | { outcome: 'succeeded'; result: MergeJobResult }
  | { outcome: 'failed'; code: string }
  | { outcome: 'cancelled' };

/** What ended, from the job's data and how its run ended. */
export function mergeEndOf(data: MergeJobData, end: RunEnd, seconds: number): MergeEnd {
  const result = end.outcome === 'succeeded' ? end.result : undefined;
  return {
    jobId: data.jobId,
    requestId: data.requestId,
    outcome: end.outcome,
    format: formatLabel(result?.format ?? data.options.format ?? 'mp3'),
    inputs: result?.inputs ?? data.itemIds.length,
    lengthSeconds: result?.durationSeconds ?? null,
    seconds,
    engineSeconds: result?.engineSeconds ?? null,
    fallbacks: result?.fallbacks ?? [],
    code: end.outcome === 'failed' ? end.code : null,
  };
}

const ms = (s: number | null) => (s === null ? null : Math.round(s * 1000) / 1000);

/** The log line's fields: `job` as every other line about a merge names it. */
export function mergeEndFields(end: MergeEnd): Record<string, unknown> {
  return {
    job: end.jobId,
    requestId: end.requestId,
    outcome: end.outcome,
    format: end.format,
    inputs: end.inputs,
    length: ms(end.lengthSeconds),
    seconds: ms(end.seconds),
    engineSeconds: ms(end.engineSeconds),
    fallbacks: end.fallbacks,
    code: end.code,
  };
}

/** Logs a merge's one line and counts it (its fallbacks too). */
export function mergeEndReporter(deps: {
  log: { info(obj: object, msg: string): void };
  metrics: Metrics;
}): MergeEnds {
  return (end) => {
    deps.log.info(mergeEndFields(end), `merge ${end.outcome}`);
    deps.metrics.mergeEnded(end);
    for (const f of end.fallbacks) deps.metrics.fallback(f.stage);
  };
}

/** Seconds since `start` (performance.now()): durations never follow a test's or the wall's clock. */
export const secondsSince = (start: number) => (performance.now() - start) / 1000;
