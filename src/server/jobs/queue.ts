// The shape of merge jobs, the BullMQ way: serialisable job data, a processor that turns it into
// a result, and a queue that runs processors and tells what happened through events kept apart
// from the worker. Implementations: in this process (in-process/in-process-queue.ts), or BullMQ on
// Redis with worker processes (bullmq/), chosen by start-jobs.ts.
import type { JobRow } from '../data/store.js';
import type { ErrorCode } from '../errors.js';
import { QUEUED_TEXT } from './job-messages.js';

/** Everything a worker needs to run one merge; plain JSON, so it can cross a process boundary. */
export interface MergeJobData {
  jobId: string;
  sid: string;
  appid: string;
  /** Item ids in merge order (an id may repeat). */
  itemIds: string[];
  /** The merge options as the client gave them. */
  options: Record<string, unknown>;
  requestId: string | null;
}

/** The row a job starts as, recorded before it is enqueued. */
export function queuedJobRow(data: MergeJobData, createdAt: number): JobRow {
  return {
    id: data.jobId,
    sid: data.sid,
    appid: data.appid,
    itemIds: [...data.itemIds],
    status: 'queued',
    error: null,
    errorCode: null,
    errorFile: null,
    resultId: null,
    createdAt,
    startedAt: null,
    finishedAt: null,
    requestId: data.requestId,
    options: data.options,
    percent: null,
    statusText: QUEUED_TEXT,
    attempts: 0,
  };
}

export interface MergeJobResult {
  resultId: string;
  durationSeconds: number;
  inputs: number;
  /** The engine's fast paths that fell back to the plain way (stage and reason), for the end-of-merge log. */
  fallbacks?: { stage: string; reason: string }[];
}

/** Reports progress: a percentage (0-100, any number), and optionally words for a person. */
export type ProgressFn = (percent: number, text?: string) => void;

/** Runs one merge. Throws a JobFailure for a reason a person should read, an AbortError when stopped. */
export type Processor = (
  data: MergeJobData,
  progress: ProgressFn,
  signal: AbortSignal,
) => Promise<MergeJobResult>;

/** Which job an event is about, with what the status channel needs. */
export type JobRef = Pick<MergeJobData, 'jobId' | 'sid' | 'appid' | 'requestId'>;

export type JobEvent = JobRef &
  (
    | {
        type: 'progress';
        state: 'queued' | 'running';
        percent: number | null;
        text: string;
        /** While queued: merges ahead of this one, when the queue knows. */
        ahead?: number;
      }
    | { type: 'completed'; resultId: string; text: string }
    | {
        type: 'failed';
        message: string;
        code: ErrorCode;
        retryable: boolean;
        /** The person's name of the one input at fault, for a failure about one input. */
        file?: string;
      }
    | { type: 'cancelled'; message: string }
  );

/** How a job ended, for whoever waits on it (the mergemp3 request). */
export type JobOutcome =
  | { state: 'succeeded'; resultId: string }
  | { state: 'failed'; message: string; code: ErrorCode; file?: string }
  | { state: 'cancelled'; message: string };

export interface JobEvents {
  /** Calls `listener` with every event from now on; returns the function that stops it. */
  on(listener: (event: JobEvent) => void): () => void;
}

export interface Enqueued {
  jobId: string;
  /** Resolves when the job has ended, whichever way; never rejects. */
  finished: Promise<JobOutcome>;
}

export interface JobQueue {
  readonly events: JobEvents;
  /**
   * Queue a job whose row is already in the store (status 'queued'). Throws QueueClosedError
   * (after recording the job as failed) when the queue is shutting down.
   */
  enqueue(data: MergeJobData): Promise<Enqueued>;
  /** Stop a queued or running job: it ends 'cancelled' and leaves nothing behind. False when it is not queued or running here. */
  cancel(jobId: string): Promise<boolean>;
  /** At start: settle what a dead process left queued or running, and clear its scratch files. */
  recover(): Promise<void>;
  /** Stop taking work; let running jobs finish, or stop them after `graceMs`. */
  shutdown(graceMs?: number): Promise<void>;
}

/** A tiny event hub for JobEvents: a throwing listener does not stop the others. */
export function createJobEvents(
  onListenerError: (err: unknown) => void,
): JobEvents & { emit(event: JobEvent): void } {
  const listeners = new Set<(event: JobEvent) => void>();
  return {
    on(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    emit(event) {
      for (const l of listeners) {
        try {
          l(event);
        } catch (err) {
          onListenerError(err);
        }
      }
    },
  };
}
