// The merge queue's worker side on BullMQ: takes merges from Redis, runs the processor, reports
// progress, and lets go of a merge in three ways that each keep the promise "at most 2 runs, no
// partial result": cancel (never retried), a lost lock (another worker has it now), shutdown
// (handed back to the line without counting a run).
//
// The processor runs on this thread. Lock renewal is a timer on the same event loop, so a merge
// must never hold the loop for long: the frame join awaits a thread-pool write every MiB and
// the transcodes are ffmpeg processes, so renewal runs every few milliseconds at worst.
import os from 'node:os';
import { UnrecoverableError, WaitingError, Worker, type Job } from 'bullmq';
import type { Redis } from 'ioredis';
import { asJobFailure, type JobFailure } from '../job-errors.js';
import { CANCELLED_MESSAGE } from '../job-messages.js';
import type { MergeJobData, MergeJobResult, ProgressFn, Processor as MergeProcessor } from '../queue.js';
import type { ProgressDetail } from '../../../shared/types.js';
import {
  CANCELLED_REASON,
  MERGE_ATTEMPTS,
  QUEUE_NAME,
  QUEUE_PREFIX,
  cancelChannel,
  cancelFlag,
  encodeFailure,
  type QueueNames,
} from './bullmq-queue.js';
import { checkNoEviction, openRedis } from './redis-connection.js';

const LOCK_LOST = 'audio-merge:lock-lost';
const HAND_BACK = 'audio-merge:hand-back';

export interface BullWorkerOptions {
  redisUrl: string;
  names?: Partial<QueueNames>;
  /** Merges this process runs at once. */
  concurrency: number;
  /** A worker silent this long has its merge taken back (BullMQ lockDuration). */
  lockMs?: number;
  /** How often workers look for such merges. */
  stalledCheckMs?: number;
  /** Records and tells each run's course (the job's row, the session's channel); nothing when omitted. */
  reporter?: RunReporter;
  onError?: (err: Error) => void;
}

export type RunEnding = { state: 'cancelled'; message: string } | { state: 'failed'; failure: JobFailure };

/** What the worker tells about a run, at each step; each promise settles before the step after it. */
export interface RunReporter {
  started(data: MergeJobData, attempt: number): Promise<void>;
  progress(data: MergeJobData, percent: number, text?: string, detail?: ProgressDetail): void;
  succeeded(data: MergeJobData, result: MergeJobResult): Promise<void>;
  /** This run stopped and the merge goes on elsewhere (retried, handed back, taken over). */
  interrupted(data: MergeJobData): Promise<void>;
  /** The merge's final end, not one run's: a run that will be retried is not reported. */
  ended(data: MergeJobData, ending: RunEnding): Promise<void>;
}

const silentReporter: RunReporter = {
  started: async () => undefined,
  progress: () => undefined,
  succeeded: async () => undefined,
  interrupted: async () => undefined,
  ended: async () => undefined,
};

export interface BullWorker {
  /** Job ids running here now. */
  running(): string[];
  /** Stop taking merges; let running ones finish for up to `graceMs`, then hand them back. */
  close(graceMs?: number): Promise<void>;
}

/**
 * Calls `report` only when the whole percentage, the text, the stage or the file changes: each call
 * is a Redis write.
 */
function progressReporter(job: Job<MergeJobData>): ProgressFn {
  let last = '';
  return (percent, text, detail) => {
    const key = `${Math.floor(percent)}|${text ?? ''}|${detail?.stage ?? ''}|${detail?.file ?? ''}`;
    if (key === last) return;
    last = key;
    void job
      .updateProgress({
        percent: Math.floor(percent),
        ...(text === undefined ? {} : { text }),
        ...(detail === undefined ? {} : { detail }),
      })
      .catch(() => undefined);
  };
}

export async function startBullWorker(
  processor: MergeProcessor,
  opts: BullWorkerOptions,
): Promise<BullWorker> {
  const names: QueueNames = { prefix: QUEUE_PREFIX, name: QUEUE_NAME, ...opts.names };
  const reporter = opts.reporter ?? silentReporter;
  const connection: Redis = openRedis(opts.redisUrl, 'audio-merge-worker');
  const subscriber: Redis = openRedis(opts.redisUrl, 'audio-merge-cancel');
  const running = new Set<string>();

  const cancelled = async (data: MergeJobData): Promise<never> => {
    await reporter.ended(data, { state: 'cancelled', message: CANCELLED_MESSAGE });
    throw new UnrecoverableError(CANCELLED_REASON);
  };

  const run = async (job: Job<MergeJobData, MergeJobResult>, token?: string, signal?: AbortSignal) => {
    const id = job.id as string;
    const abort = signal ?? new AbortController().signal;
    if (await connection.exists(cancelFlag(names, id))) return cancelled(job.data);
    const attempt = job.attemptsStarted;
    running.add(id);
    try {
      await reporter.started(job.data, attempt);
      const tell = progressReporter(job);
      const result = await processor(
        job.data,
        (percent, text, detail) => {
          reporter.progress(job.data, percent, text, detail);
          tell(percent, text, detail);
        },
        abort,
      );
      await reporter.succeeded(job.data, result);
      return result;
    } catch (err) {
      if (abort.aborted && abort.reason === CANCELLED_REASON) return cancelled(job.data);
      if (abort.aborted && abort.reason === HAND_BACK) {
        await reporter.interrupted(job.data);
        await job.moveToWait(token);
        throw new WaitingError();
      }
      const failure = asJobFailure(err, false);
      // Another worker has the merge now (it tells what happens next), or it runs once more.
      if ((abort.aborted && abort.reason === LOCK_LOST) || (failure.retryable && attempt < MERGE_ATTEMPTS)) {
        await reporter.interrupted(job.data);
        throw err;
      }
      await reporter.ended(job.data, { state: 'failed', failure });
      throw new UnrecoverableError(encodeFailure(failure));
    } finally {
      running.delete(id);
    }
  };

  const worker = new Worker<MergeJobData, MergeJobResult>(names.name, run, {
    connection,
    prefix: names.prefix,
    concurrency: Math.max(1, Math.floor(opts.concurrency)),
    // Stored on each job it takes (processedBy): which process runs a merge, for people and tests.
    name: `${os.hostname()}:${process.pid}`,
    lockDuration: opts.lockMs ?? 30_000,
    stalledInterval: opts.stalledCheckMs ?? 30_000,
    maxStalledCount: 1,
    // Stalls and failures together: a merge starts twice at most.
    maxStartedAttempts: MERGE_ATTEMPTS,
    autorun: false,
  });
  worker.on('error', (err) => opts.onError?.(err));
  // Another worker may already be running it: stop here, so one merge is not done twice at once.
  worker.on('lockRenewalFailed', (ids) => ids.forEach((id) => worker.cancelJob(id, LOCK_LOST)));

  subscriber.on('message', (_channel: string, jobId: string) => worker.cancelJob(jobId, CANCELLED_REASON));
  try {
    await checkNoEviction(connection);
    await subscriber.subscribe(cancelChannel(names));
    await worker.waitUntilReady();
  } catch (err) {
    await worker.close(true).catch(() => undefined);
    connection.disconnect();
    subscriber.disconnect();
    throw err;
  }
  void worker.run().catch((err: Error) => opts.onError?.(err));

  return {
    running: () => [...running],
    async close(graceMs = 10_000) {
      const closing = worker.close();
      const handBack = setTimeout(() => worker.cancelAllJobs(HAND_BACK), graceMs);
      try {
        await closing;
      } finally {
        clearTimeout(handBack);
        subscriber.disconnect();
        connection.disconnect();
      }
    },
  };
}
