// Merges from the BullMQ queue, in a worker process (ROLE=worker) or beside the web side
// (ROLE=all with REDIS_URL): each run in a fresh scratch folder, its course written to the job's
// row and told through Redis to whichever web process the browser is connected to.
import type { FastifyBaseLogger } from 'fastify';
import type { Tools } from '../../../engine/index.js';
import type { Clock } from '../../../shared/clock.js';
import type { AppConfig } from '../../config.js';
import type { Store } from '../../data/store.js';
import type { FileStorage } from '../../files/storage.js';
import { emitterBroadcaster } from '../../realtime/redis/redis-fanout.js';
import { startBullWorker } from './bullmq-worker.js';
import { createDiskBudget, type DiskBudget } from '../../files/disk-budget.js';
import { statfsFreeSpace } from '../../files/disk-space.js';
import {
  createMergeProcessor,
  engineConcurrencyFor,
  outputCapsOf,
  type MergeFn,
} from '../merge-processor.js';
import { createRunReporter } from './run-reporter.js';
import type { RunReporter } from './bullmq-worker.js';
import { mergeEndOf, mergeEndReporter, secondsSince, type MergeEnds } from '../../ops/merge-end.js';
import { noMetrics, type Metrics } from '../../ops/metrics.js';

export interface MergeWorkerDeps {
  config: AppConfig & { redisUrl: string };
  store: Store;
  files: FileStorage;
  tools: Tools;
  log: FastifyBaseLogger;
  merge?: MergeFn;
  clock?: Clock;
  /** DATA_DIR's disk as this process shares it; one of its own unless given. */
  disk?: DiskBudget;
  /** Where each merge's end is counted (its log line is written either way). */
  metrics?: Metrics;
}

export interface MergeWorker {
  /** Stop taking merges; running ones finish within `graceMs` or go back to the queue. */
  close(graceMs?: number): Promise<void>;
}

export async function startMergeWorker(deps: MergeWorkerDeps): Promise<MergeWorker> {
  const { config, store, files, log } = deps;
  const broadcaster = emitterBroadcaster(config.redisUrl);
  const reporter = observeEnds(
    createRunReporter({ store, files, broadcaster, log, clock: deps.clock }),
    mergeEndReporter({ log, metrics: deps.metrics ?? noMetrics }),
  );
  const processor = createMergeProcessor({
    store,
    files,
    tools: deps.tools,
    merge: deps.merge,
    clock: deps.clock,
    engineConcurrency: engineConcurrencyFor(config.mergeConcurrency),
    outputCaps: outputCapsOf(config),
    maxMergeHours: config.maxMergeHours,
    disk:
      deps.disk ??
      createDiskBudget({
        dir: config.dataDir,
        minFreeBytes: config.minFreeBytes,
        freeSpace: statfsFreeSpace,
      }),
    copiesInputs: Boolean(config.s3),
    freshPerRun: true,
  });
  let worker;
  try {
    worker = await startBullWorker(processor, {
      redisUrl: config.redisUrl,
      concurrency: config.mergeConcurrency,
      lockMs: config.mergeStallMs,
      stalledCheckMs: Math.max(500, Math.floor(config.mergeStallMs / 2)),
      reporter,
      onError: (err) => log.warn({ err }, 'merge worker: queue error'),
    });
  } catch (err) {
    reporter.close();
    broadcaster.close();
    throw err;
  }
  return {
    async close(graceMs = 10_000) {
      await worker.close(graceMs);
      reporter.close();
      broadcaster.close();
    },
  };
}

/**
 * The run reporter, also telling each merge's end (not a run's: a run that is retried or taken
 * over elsewhere ends nothing) to `ended`, timed from the run's start on this process.
 */
export function observeEnds<R extends RunReporter>(reporter: R, ended: MergeEnds): R {
  const began = new Map<string, number>();
  const since = (jobId: string) => {
    const start = began.get(jobId);
    began.delete(jobId);
    return start === undefined ? 0 : secondsSince(start);
  };
  return {
    ...reporter,
    started(data, attempt) {
      began.set(data.jobId, performance.now());
      return reporter.started(data, attempt);
    },
    async succeeded(data, result) {
      await reporter.succeeded(data, result);
      ended(mergeEndOf(data, { outcome: 'succeeded', result }, since(data.jobId)));
    },
    async interrupted(data) {
      began.delete(data.jobId);
      await reporter.interrupted(data);
    },
    async ended(data, ending) {
      await reporter.ended(data, ending);
      const end =
        ending.state === 'cancelled'
          ? { outcome: 'cancelled' as const }
          : { outcome: 'failed' as const, code: ending.failure.code };
      ended(mergeEndOf(data, end, since(data.jobId)));
    },
  };
}
