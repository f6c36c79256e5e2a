// The merge queue's producer side on BullMQ (Redis): web processes enqueue merges, cancel them and
// hear how they went, wherever the worker that runs them is. A job carries ids and options only;
// the worker fetches the bytes. Events travel through BullMQ's event stream, so every process
// that listens hears every job's events, once each, in order.
import { Queue, QueueEvents } from 'bullmq';
import type { Redis } from 'ioredis';
import { ERRORS, isErrorCode, type ErrorCode } from '../../errors.js';
import { fileOf, type JobFailure } from '../job-errors.js';
import type { QueueCounts } from '../../ops/metrics.js';
import type { MergeJobData, MergeJobResult } from '../queue.js';
import type { ProgressDetail } from '../../../shared/types.js';
import { checkNoEviction, openRedis } from './redis-connection.js';

export const QUEUE_NAME = 'merges';
export const QUEUE_PREFIX = 'audio-merge';
/** A merge runs at most twice: once, and once more if its worker died or failed unexpectedly. */
export const MERGE_ATTEMPTS = 2;
/** failedReason of a merge stopped by cancel (never retried). */
export const CANCELLED_REASON = 'audio-merge:cancelled';
/** Finished jobs stay this long in Redis for late status questions; the database keeps the rest. */
const KEEP_SECONDS = 24 * 3600;

export interface QueueNames {
  prefix: string;
  name: string;
}
/** A final failure as BullMQ's failedReason: its code, the message for a person and the input at fault, as JSON. */
export const encodeFailure = (f: Pick<JobFailure, 'message' | 'code' | 'file'>) =>
  JSON.stringify({ code: f.code, message: f.message, ...fileOf(f) });

/** failedReason back to a failure; one BullMQ wrote itself (the merge's workers died twice) is told as an interruption. */
export function decodeFailure(reason: string): { code: ErrorCode; message: string; file?: string } {
  try {
    const f = JSON.parse(reason) as { code?: unknown; message?: unknown; file?: unknown };
    if (f && typeof f.message === 'string' && isErrorCode(f.code))
      return { code: f.code, message: f.message, ...(typeof f.file === 'string' ? { file: f.file } : {}) };
  } catch {
    // Not ours.
  }
  return { code: 'interrupted', message: ERRORS.interrupted.message };
}

export const cancelChannel = (q: QueueNames) => `${q.prefix}:${q.name}:cancel`;
export const cancelFlag = (q: QueueNames, jobId: string) => `${q.prefix}:${q.name}:cancelled:${jobId}`;

export type QueueEvent =
  | { type: 'progress'; jobId: string; percent: number; text?: string; detail?: ProgressDetail }
  | { type: 'completed'; jobId: string; result: MergeJobResult }
  | { type: 'failed'; jobId: string; message: string; code: ErrorCode; file?: string }
  | { type: 'cancelled'; jobId: string }
  /** Its worker stopped answering; the merge goes back in line for another worker. */
  | { type: 'stalled'; jobId: string };
/** How a merge BullMQ failed ended. */
export type QueueEnd = Extract<QueueEvent, { type: 'failed' | 'cancelled' }>;

const MAX_PRIORITY = 2 ** 21;

const failedEvent = (jobId: string, failedReason: string): QueueEnd =>
  failedReason === CANCELLED_REASON
    ? { type: 'cancelled', jobId }
    : { type: 'failed', jobId, ...decodeFailure(failedReason) };

export interface BullQueueOptions {
  redisUrl: string;
  /** Separate queues on one Redis (tests). */
  names?: Partial<QueueNames>;
}

export interface BullQueue {
  names: QueueNames;
  /**
   * `turn`: the job's place among its session's unfinished merges (1 for its only one). Jobs are
   * taken by turn, then in order, so one session's queued merges do not hold back another's first.
   */
  enqueue(data: MergeJobData, turn?: number): Promise<void>;
  /** Stop the merge wherever it is: out of the line if waiting ('removed'), aborted on its worker if running ('signalled'). */
  cancel(jobId: string): Promise<'removed' | 'signalled'>;
  /** Listen to every job's events; returns the unsubscribe. */
  onEvent(listener: (e: QueueEvent) => void): () => void;
  /** BullMQ's state of the job ('waiting', 'active', 'completed', ...), or 'unknown'. */
  state(jobId: string): Promise<string>;
  /** How a job BullMQ failed ended, as its 'failed' or 'cancelled' event told it; null for any other job. */
  failure(jobId: string): Promise<QueueEnd | null>;
  /** The merges waiting, in the order workers will take them, and how many are running now. */
  line(): Promise<{ running: number; waiting: string[] }>;
  /** Throws unless Redis answers (for /readyz). */
  ping(): Promise<void>;
  /** Merges by state, in one round trip (a length or a count per state, nothing listed). */
  counts(): Promise<QueueCounts>;
  close(): Promise<void>;
}

export async function openBullQueue(opts: BullQueueOptions): Promise<BullQueue> {
  const names: QueueNames = { prefix: QUEUE_PREFIX, name: QUEUE_NAME, ...opts.names };
  const connection: Redis = openRedis(opts.redisUrl, 'audio-merge-queue');
  const eventsConnection: Redis = openRedis(opts.redisUrl, 'audio-merge-events');
  const events = new QueueEvents(names.name, { connection: eventsConnection, prefix: names.prefix });
  const queue = new Queue<MergeJobData, MergeJobResult>(names.name, { connection, prefix: names.prefix });
  try {
    await checkNoEviction(connection);
    await Promise.all([queue.waitUntilReady(), events.waitUntilReady()]);
  } catch (err) {
    await Promise.allSettled([queue.close(), events.close()]);
    connection.disconnect();
    eventsConnection.disconnect();
    throw err;
  }
  // Reconnects are ioredis's business; an unheard 'error' would end the process instead.
  queue.on('error', () => undefined);
  events.on('error', () => undefined);

  const listeners = new Set<(e: QueueEvent) => void>();
  const emit = (e: QueueEvent) => listeners.forEach((l) => l(e));
  events.on('progress', ({ jobId, data }) => {
    const p = data as { percent?: number; text?: string; detail?: ProgressDetail };
    if (typeof p?.percent !== 'number') return;
    const detail = typeof p.detail?.stage === 'string' ? { detail: p.detail } : {};
    emit({ type: 'progress', jobId, percent: p.percent, text: p.text, ...detail });
  });
  events.on('completed', ({ jobId, returnvalue }) => {
    const result = (
      typeof returnvalue === 'string' ? JSON.parse(returnvalue) : returnvalue
    ) as MergeJobResult;
    emit({ type: 'completed', jobId, result });
  });
  events.on('failed', ({ jobId, failedReason }) => emit(failedEvent(jobId, failedReason)));
  // Only cancel removes a job before it ran.
  events.on('removed', ({ jobId }) => emit({ type: 'cancelled', jobId }));
  events.on('stalled', ({ jobId }) => emit({ type: 'stalled', jobId }));

  return {
    names,
    async enqueue(data, turn = 1) {
      await queue.add('merge', data, {
        jobId: data.jobId,
        // BullMQ runs lower numbers first, in order within one (1 to 2^21).
        priority: Math.min(MAX_PRIORITY, Math.max(1, Math.floor(turn))),
        attempts: MERGE_ATTEMPTS,
        removeOnComplete: { age: KEEP_SECONDS },
        removeOnFail: { age: KEEP_SECONDS },
      });
    },
    async cancel(jobId) {
      // The flag first: a worker that takes the job from now on sees it before it starts.
      await connection.set(cancelFlag(names, jobId), '1', 'EX', KEEP_SECONDS);
      if ((await queue.remove(jobId)) === 1) return 'removed';
      await connection.publish(cancelChannel(names), jobId);
      return 'signalled';
    },
    onEvent(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    async state(jobId) {
      return queue.getJobState(jobId);
    },
    async failure(jobId) {
      const job = await queue.getJob(jobId);
      if (!job || (await job.getState()) !== 'failed') return null;
      return failedEvent(jobId, job.failedReason ?? '');
    },
    async line() {
      const [running, listed, prioritized] = await Promise.all([
        queue.getActiveCount(),
        queue.getRanges(['waiting'], 0, -1, true),
        queue.getRanges(['prioritized'], 0, -1, true),
      ]);
      // Workers take from the plain list before the prioritized set (every merge is queued with a
      // priority; one whose worker stalled may come back to the list).
      return { running, waiting: [...listed, ...prioritized] };
    },
    async ping() {
      await connection.ping();
    },
    async counts() {
      const c = await queue.getJobCounts('waiting', 'prioritized', 'waiting-children', 'active', 'delayed');
      return {
        waiting: (c.waiting ?? 0) + (c.prioritized ?? 0) + (c['waiting-children'] ?? 0),
        active: c.active ?? 0,
        delayed: c.delayed ?? 0,
      };
    },
    async close() {
      listeners.clear();
      await Promise.allSettled([events.close(), queue.close()]);
      connection.disconnect();
      eventsConnection.disconnect();
    },
  };
}
