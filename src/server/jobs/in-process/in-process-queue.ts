// The JobQueue in this process: a work pool of MERGE_CONCURRENCY over the store's job rows. Every
// change of a job is written to its row before the event that tells it goes out, so a restart,
// a late subscriber or a reloaded page finds the truth there. Progress is throttled; a waiting
// job repeats its place in line; a restart fails what a dead process left unfinished.
import { rm } from 'node:fs/promises';
import type { FastifyBaseLogger } from 'fastify';
import type { JobPatch, Store } from '../../data/store.js';
import { resultRef, type FileStorage } from '../../files/storage.js';
import { asJobFailure, fileOf, JobFailure, QueueClosedError } from '../job-errors.js';
import { endedRow, refOf, runningProgress, startedDetail, WAITING } from '../job-status.js';
import {
  CANCELLED_MESSAGE,
  DONE_TEXT,
  INTERRUPTED_MESSAGE,
  runningText,
  waitingText,
} from '../job-messages.js';
import { jobScratchName, resultFileNames } from '../merge-processor.js';
import { systemClock, type Clock } from '../../../shared/clock.js';
import { createProgressThrottle } from '../progress-throttle.js';
import type { ProgressDetail } from '../../../shared/types.js';
import {
  createJobEvents,
  type JobEvent,
  type JobOutcome,
  type JobQueue,
  type MergeJobData,
  type Processor,
} from '../queue.js';
import { WorkPool, type PoolTask } from './work-pool.js';
import { mergeEndOf, mergeEndReporter, secondsSince, type MergeEnds } from '../../ops/merge-end.js';
import { noMetrics } from '../../ops/metrics.js';

export interface InProcessQueueDeps {
  store: Store;
  files: FileStorage;
  processor: Processor;
  /** Jobs that run at once; more wait in order. */
  concurrency: number;
  log: Pick<FastifyBaseLogger, 'info' | 'warn' | 'error'>;
  /** Time and timers (tests drive their own). */
  clock?: Clock;
  /** Told when a merge that ran here ends: its log line and metrics (a line only, by default). */
  ended?: MergeEnds;
}

/**
 * A waiting job repeats its place this often: the browser subscribes while it posts the merge,
 * so the first "Waiting" may go out before anyone listens.
 */
export const WAITING_REPEAT_MS = 3000;
/** After aborting, how long to wait for a processor to let go before recording the failure anyway. */
const ABORT_WAIT_MS = 10_000;
const DRAINED = Symbol('drained');
const CANCELLED = Symbol('cancelled');

type Ending = { state: 'cancelled'; message: string } | { state: 'failed'; failure: JobFailure };

function settleWithin(p: Promise<unknown>, ms: number): Promise<boolean> {
  return new Promise((resolve) => {
    const t = setTimeout(() => resolve(false), ms);
    void p.then(() => {
      clearTimeout(t);
      resolve(true);
    });
  });
}

/**
 * Writes a change to the job's row, then tells it; a job's changes go through one, in order.
 * Resolves with the write's error, if any: the event goes out all the same (a database that
 * cannot write, a full disk, must not keep the browser from hearing why).
 */
type Report = (patch: JobPatch | null, event: JobEvent | null) => Promise<unknown>;

export function createInProcessQueue(deps: InProcessQueueDeps): JobQueue {
  const { store, files, log } = deps;
  const clock = deps.clock ?? systemClock;
  const events = createJobEvents((err) => log.error({ err }, 'a job event listener failed'));
  const ended = deps.ended ?? mergeEndReporter({ log, metrics: noMetrics });
  const pool = new WorkPool(Math.max(1, Math.floor(deps.concurrency) || 1));
  /** Jobs of this process not yet ended: their data, their place in line while waiting, and their end. */
  const jobs = new Map<
    string,
    { data: MergeJobData; report: Report; task: PoolTask<JobOutcome>; finished: Promise<JobOutcome> }
  >();
  const running = new Map<
    string,
    { controller: AbortController; cancelled: boolean; done: Promise<JobOutcome> }
  >();
  let closing = false;

  function reporter(jobId: string): Report {
    let last: Promise<unknown> = Promise.resolve();
    return (patch, event) => {
      last = last
        .then(() => (patch ? store.updateJob(jobId, patch) : undefined))
        .then(
          () => undefined,
          (err: unknown) => {
            log.error({ err, job: jobId }, 'could not record a job change');
            return err;
          },
        )
        .then((unrecorded) => {
          if (event) events.emit(event);
          return unrecorded;
        });
      return last;
    };
  }

  async function end(data: MergeJobData, ending: Ending, report: Report): Promise<JobOutcome> {
    const ref = refOf(data);
    const finishedAt = clock.now();
    if (ending.state === 'cancelled') {
      const message = ending.message;
      await report(
        { ...endedRow('cancelled', { message, code: 'cancelled' }), finishedAt },
        { ...ref, type: 'cancelled', message },
      );
      return { state: 'cancelled', message };
    }
    const f = ending.failure;
    await report(
      { ...endedRow('failed', { message: f.message, code: f.code, ...fileOf(f) }), finishedAt },
      { ...ref, type: 'failed', message: f.message, code: f.code, retryable: f.retryable, ...fileOf(f) },
    );
    return { state: 'failed', message: f.message, code: f.code, ...fileOf(f) };
  }

  async function execute(
    data: MergeJobData,
    run: { controller: AbortController; cancelled: boolean },
    report: Report,
  ): Promise<JobOutcome> {
    let text: string | undefined;
    const sendProgress = (percent: number, detail?: ProgressDetail) => {
      const told = runningProgress(data, percent, text, detail);
      void report(told.patch, told.event);
    };
    const throttle = createProgressThrottle(sendProgress, 20, clock);
    const began = performance.now();
    try {
      const attempts = ((await store.getJob(data.jobId))?.attempts ?? 0) + 1;
      const unrecorded = await report(
        { status: 'running', startedAt: clock.now(), attempts, percent: 0, statusText: runningText(0) },
        null,
      );
      // A job the database cannot mark as running (a full disk) is not started: it fails, saying why.
      if (unrecorded !== undefined) throw unrecorded;
      throttle.update(0, startedDetail(data));
      const result = await deps.processor(
        data,
        (percent, words, detail) => {
          text = words;
          // 100 is kept back until the result is stored: the last event of a success is "completed".
          throttle.update(Math.min(percent, 99), detail);
        },
        run.controller.signal,
      );
      throttle.cancel();
      await report(
        {
          status: 'succeeded',
          resultId: result.resultId,
          error: null,
          percent: 100,
          statusText: DONE_TEXT,
          finishedAt: clock.now(),
        },
        { ...refOf(data), type: 'completed', resultId: result.resultId, text: DONE_TEXT },
      );
      ended(mergeEndOf(data, { outcome: 'succeeded', result }, secondsSince(began)));
      return { state: 'succeeded', resultId: result.resultId };
    } catch (err) {
      throttle.cancel();
      if (run.cancelled) {
        ended(mergeEndOf(data, { outcome: 'cancelled' }, secondsSince(began)));
        return end(data, { state: 'cancelled', message: CANCELLED_MESSAGE }, report);
      }
      const failure = asJobFailure(err, run.controller.signal.aborted);
      // An input refused is the person's business (the end line has its code); anything else has a stack to read.
      if (failure.retryable) log.error({ job: data.jobId, err }, 'merge error');
      ended(mergeEndOf(data, { outcome: 'failed', code: failure.code }, secondsSince(began)));
      return end(data, { state: 'failed', failure }, report);
    }
  }

  function start(data: MergeJobData, report: Report): Promise<JobOutcome> {
    const run = {
      controller: new AbortController(),
      cancelled: false,
      done: undefined as unknown as Promise<JobOutcome>,
    };
    run.done = execute(data, run, report).finally(() => running.delete(data.jobId));
    running.set(data.jobId, run);
    return run.done;
  }

  /** The pool's task for a job: tell its place while it waits (again every few seconds), then run it. */
  function taskFor(data: MergeJobData, report: Report): PoolTask<JobOutcome> & { stopRepeat(): void } {
    let text = '';
    let place: number | undefined;
    let repeat: unknown = null;
    const tell = (patch: JobPatch | null) =>
      report(patch, {
        ...refOf(data),
        type: 'progress',
        state: 'queued',
        percent: null,
        text,
        ahead: place,
        detail: WAITING,
      });
    const stopRepeat = () => {
      if (repeat !== null) clock.clearTimeout(repeat);
      repeat = null;
    };
    return {
      key: data.sid,
      onWait(ahead) {
        text = waitingText(ahead);
        place = ahead;
        void tell({ statusText: text, percent: null });
        repeat ??= clock.setTimeout(function again() {
          void tell(null);
          repeat = clock.setTimeout(again, WAITING_REPEAT_MS);
        }, WAITING_REPEAT_MS);
      },
      start() {
        stopRepeat();
        return start(data, report);
      },
      stopRepeat,
    };
  }

  return {
    events,

    async enqueue(data) {
      if (closing) {
        await end(data, { state: 'failed', failure: new JobFailure('mergeStopped') }, reporter(data.jobId));
        throw new QueueClosedError();
      }
      const report = reporter(data.jobId);
      const task = taskFor(data, report);
      const finished = pool
        .submit(task)
        .catch((reason: unknown) => {
          // Out of line before it started: no more reminders of its place.
          task.stopRepeat();
          if (reason === CANCELLED)
            return end(data, { state: 'cancelled', message: CANCELLED_MESSAGE }, report);
          const failure = reason === DRAINED ? new JobFailure('mergeStopped') : asJobFailure(reason, false);
          return end(data, { state: 'failed', failure }, report);
        })
        .finally(() => {
          task.stopRepeat();
          jobs.delete(data.jobId);
        });
      jobs.set(data.jobId, { data, report, task, finished });
      return { jobId: data.jobId, finished };
    },

    async cancel(jobId) {
      const job = jobs.get(jobId);
      if (!job) return false;
      const run = running.get(jobId);
      if (run) {
        run.cancelled = true;
        run.controller.abort();
      } else if (!pool.withdraw(job.task, CANCELLED)) {
        return false;
      }
      return (await job.finished).state === 'cancelled';
    },

    async recover() {
      const left = [...(await store.jobsWithStatus('queued')), ...(await store.jobsWithStatus('running'))];
      for (const job of left) {
        if (jobs.has(job.id)) continue;
        await rm(files.scratchPath(jobScratchName(job.id)), { recursive: true, force: true });
        // A crash between storing the result and marking the job leaves a complete, listed result.
        const result = await store.getResult(job.sid, job.id);
        if (result) {
          await store.updateJob(job.id, {
            status: 'succeeded',
            resultId: result.id,
            error: null,
            percent: 100,
            statusText: DONE_TEXT,
            finishedAt: clock.now(),
          });
          continue;
        }
        for (const file of resultFileNames(job.id)) await files.remove(resultRef({ sid: job.sid, file }));
        await store.updateJob(job.id, {
          ...endedRow('failed', { message: INTERRUPTED_MESSAGE, code: 'interrupted' }),
          finishedAt: clock.now(),
        });
        log.warn({ job: job.id }, 'merge interrupted by a restart: marked failed');
      }
      // Work folders of jobs no longer in the store at all (none of this process's own is running yet).
      if (jobs.size === 0) await files.clearScratch('job-');
    },

    async counts() {
      return { waiting: pool.waiting, active: pool.active, delayed: 0 };
    },

    async shutdown(graceMs = 30_000) {
      closing = true;
      for (const waiting of pool.drain()) waiting.cancel(DRAINED);
      const all = () => Promise.allSettled([...running.values()].map((r) => r.done));
      if (await settleWithin(all(), graceMs)) return;
      for (const r of running.values()) r.controller.abort();
      if (await settleWithin(all(), ABORT_WAIT_MS)) return;
      for (const id of running.keys()) {
        const job = jobs.get(id);
        if (job)
          await end(job.data, { state: 'failed', failure: new JobFailure('mergeStopped') }, job.report);
      }
    },
  };
}
