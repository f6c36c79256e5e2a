// The merge queue a web process uses, chosen by configuration: in this process by default; with
// REDIS_URL, BullMQ, plus this process's own worker when ROLE=all. There the workers tell
// progress to the browsers; here, the in-process queue's events are broadcast by this process.
import type { FastifyBaseLogger } from 'fastify';
import type { Tools } from '../../engine/index.js';
import type { Clock } from '../../shared/clock.js';
import type { Backends } from '../backends.js';
import type { AppConfig } from '../config.js';
import type { ReadinessCheck } from '../http/routes/health.js';
import type { Broadcaster } from '../realtime/broadcaster.js';
import { broadcastJobStatus } from '../realtime/status-broadcasts.js';
import { openBullQueue } from './bullmq/bullmq-queue.js';
import { createBullJobQueue } from './bullmq/bullmq-job-queue.js';
import { createInProcessQueue } from './in-process/in-process-queue.js';
import type { DiskBudget } from '../files/disk-budget.js';
import { createMergeProcessor, engineConcurrencyFor, outputCapsOf, type MergeFn } from './merge-processor.js';
import { startMergeWorker, type MergeWorker } from './bullmq/merge-worker.js';
import type { JobQueue } from './queue.js';
import { mergeEndReporter } from '../ops/merge-end.js';
import { noMetrics, type Metrics } from '../ops/metrics.js';

/** What has been started, filled in as it starts, so a failed start can stop it again. */
export interface StartedJobs {
  jobs?: JobQueue;
  worker?: MergeWorker;
  /** For /readyz when the queue is elsewhere (Redis). */
  queueCheck?: ReadinessCheck;
  stopBroadcasts?: () => void;
}

export interface StartJobsDeps {
  config: AppConfig;
  backends: Pick<Backends, 'store' | 'files'>;
  broadcaster: Broadcaster;
  log: FastifyBaseLogger;
  tools: Tools;
  clock: Clock;
  merge?: MergeFn;
  /** DATA_DIR's disk, shared with uploads: each merge reserves what it will write before it starts. */
  disk?: DiskBudget;
  /** Where merges' ends are counted. */
  metrics?: Metrics;
}

export async function startJobs(deps: StartJobsDeps, started: StartedJobs): Promise<JobQueue> {
  const { config, tools, clock, merge, log } = deps;
  const { store, files } = deps.backends;
  if (!config.redisUrl) {
    const jobs = (started.jobs = createInProcessQueue({
      store,
      files,
      processor: createMergeProcessor({
        store,
        files,
        tools,
        merge,
        clock,
        engineConcurrency: engineConcurrencyFor(config.mergeConcurrency),
        outputCaps: outputCapsOf(config),
        maxMergeHours: config.maxMergeHours,
        disk: deps.disk,
        copiesInputs: Boolean(config.s3),
      }),
      concurrency: config.mergeConcurrency,
      log,
      clock,
      ended: mergeEndReporter({ log, metrics: deps.metrics ?? noMetrics }),
    }));
    started.stopBroadcasts = broadcastJobStatus(jobs.events, deps.broadcaster);
    return jobs;
  }
  const redisUrl = config.redisUrl;
  const jobs = createBullJobQueue({
    queue: await openBullQueue({ redisUrl }),
    store,
    files,
    broadcaster: deps.broadcaster,
    log,
    clock,
  });
  started.queueCheck = { name: 'queue', check: () => jobs.ping() };
  started.jobs = jobs;
  if (config.role === 'all')
    started.worker = await startMergeWorker({
      config: { ...config, redisUrl },
      store,
      files,
      tools,
      log,
      merge,
      clock,
      disk: deps.disk,
      metrics: deps.metrics,
    });
  return jobs;
}
