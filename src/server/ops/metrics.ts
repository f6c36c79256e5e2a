// The metrics port: what the server tells an operator's Prometheus, recorded where it happens
// (a merge ends, an upload is kept or refused). The processes hold one recorder each: Prometheus
// when METRICS_PORT is set (prometheus.ts), else noMetrics, so the code that records never asks.
export type UploadOutcome = 'accepted' | 'refused';

export type MergeOutcome = 'succeeded' | 'failed' | 'cancelled';

/** A fast path that fell back to the plain way, as the engine's report lists it. */
export interface MergeFallback {
  stage: string;
  reason: string;
}

export interface MergeEnd {
  jobId: string;
  requestId: string | null;
  outcome: MergeOutcome;
  /** The output format asked for (a label: one of the output formats, else "other"). */
  format: string;
  inputs: number;
  /** The output's length in seconds; null when none was made. */
  lengthSeconds: number | null;
  /** From the run's start on this process to its end. */
  seconds: number;
  /** The engine's share of `seconds`; null when it did not finish. */
  engineSeconds: number | null;
  fallbacks: MergeFallback[];
  /** The failure's code; null unless failed. */
  code: string | null;
}

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
