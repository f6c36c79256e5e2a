// The metrics port: what the server tells an operator's Prometheus, recorded where it happens
// (a merge ends, an upload is kept or refused). The processes hold one recorder each: Prometheus
// when METRICS_PORT is set (prometheus.ts), else noMetrics, so the code that records never asks.
import type { MergeEnd } from './merge-end.js';

export type UploadOutcome = 'accepted' | 'refused';

/** The events the server counts. Gauges (queue, disk, connections) are read at scrape time instead. */
export interface Metrics {
  /** A merge has ended here, whichever way (its one log line is written beside it). */
  mergeEnded(end: MergeEnd): void;
  /** A fast path fell back to the plain way (the engine's report names the stage). */
  fallback(stage: string): void;
  /** An upload's fate: kept as an item, or refused; `bytes` are the kept file's. */
  upload(outcome: UploadOutcome, bytes: number): void;
}

export const noMetrics: Metrics = {
  mergeEnded() {},
  fallback() {},
  upload() {},
};

/** Merges counted by the queue's state, for audio_merge_queue_jobs. */
export interface QueueCounts {
  waiting: number;
  active: number;
  delayed: number;
}

/** What a scrape reads on the spot. Each is optional: a worker has no realtime connections. */
export interface MetricSources {
  queueCounts?: () => Promise<QueueCounts>;
  diskFree?: () => Promise<number>;
  connections?: () => number;
}
