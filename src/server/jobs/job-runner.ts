// Merge jobs: a worker pool of MERGE_CONCURRENCY, durable in the store, progress to realtime.
// STUB: the jobs/realtime engineer replaces the body; the signatures are fixed.
import type { FastifyBaseLogger } from 'fastify';
import type { Tools } from '../../engine/index.js';
import type { Realtime } from '../realtime.js';
import type { Storage } from '../storage.js';
import type { JobRow, Store } from '../store.js';

export interface JobRunnerDeps {
  store: Store;
  storage: Storage;
  realtime: Realtime;
  tools: Tools;
  concurrency: number;
  log: FastifyBaseLogger;
}

export interface JobRunner {
  /** Queue a recorded job; resolves with the finished row (succeeded or failed), never rejects for a failed merge. */
  run(job: JobRow): Promise<JobRow>;
  /** At start: jobs left queued/running by a dead process are marked failed, their temp files removed. */
  recoverInterrupted(): Promise<void>;
  /** Stop taking work; let running merges finish (or fail them after `graceMs`). */
  shutdown(graceMs?: number): Promise<void>;
}

export function createJobRunner(_deps: JobRunnerDeps): JobRunner {
  return {
    async run(job) {
      return { ...job, status: 'failed', error: 'Merging is not built yet' };
    },
    async recoverInterrupted() {},
    async shutdown() {},
  };
}
