// Merge jobs: a worker pool of MERGE_CONCURRENCY, durable in the store, progress to realtime.
// Each state change is written to the store before it is announced, so a restart finds the truth.
import { readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import { InputError } from '../../engine/errors.js';
import type { Tools } from '../../engine/index.js';
import { STATUS_EVENT, statusChannel } from '../../shared/types.js';
import { AppError } from '../http/errors.js';
import type { Realtime } from '../realtime/server.js';
import type { Storage } from '../files/storage.js';
import type { JobRow, Store } from '../data/store.js';
import { failureMessage, INTERRUPTED_MESSAGE, SHUTDOWN_MESSAGE, waitingText } from './job-messages.js';
import { JobFailure, jobTempDir, orderedItems, resultFileName, runMergeJob, type MergeFn } from './merge-job.js';
import { createProgressThrottle, realClock, type Clock } from './progress-throttle.js';
import { WorkPool } from './work-pool.js';

export interface JobRunnerDeps {
  store: Store;
  storage: Storage;
  realtime: Realtime;
  tools: Tools;
  concurrency: number;
  log: FastifyBaseLogger;
  /** The engine's mergeFiles unless a test injects its own. */
  merge?: MergeFn;
  /** Timers for the progress throttle (tests drive their own). */
  clock?: Clock;
}

export interface JobRunner {
  /** Queue a recorded job; resolves with the finished row (succeeded or failed), never rejects for a failed merge. */
  run(job: JobRow): Promise<JobRow>;
  /** At start: jobs left queued/running by a dead process are marked failed, their temp files removed. */
  recoverInterrupted(): Promise<void>;
  /** Stop taking work; let running merges finish (or fail them after `graceMs`). */
  shutdown(graceMs?: number): Promise<void>;
}

const DRAINED = Symbol('drained');
/**
 * A waiting job repeats its place this often: the browser subscribes while it posts the merge,
 * so the first "Waiting" may go out before anyone listens.
 */
export const WAITING_REPEAT_MS = 3000;
/** After aborting, how long to wait for the engine to let go before recording the failure anyway. */
const ABORT_WAIT_MS = 10_000;

function settleWithin(p: Promise<unknown>, ms: number): Promise<boolean> {
  return new Promise((resolve) => {
    const t = setTimeout(() => resolve(false), ms);
    void p.then(() => {
      clearTimeout(t);
      resolve(true);
    });
  });
}

export function createJobRunner(deps: JobRunnerDeps): JobRunner {
  const { store, storage, log } = deps;
  const clock = deps.clock ?? realClock;
  // Loaded on first use, so the runner (and its tests) do not pull in the whole engine up front.
  const merge: MergeFn =
    deps.merge ?? (async (inputs, output, opts) => (await import('../../engine/index.js')).mergeFiles(inputs, output, opts));
  const workers = Math.max(1, Math.floor(deps.concurrency) || 1);
  const pool = new WorkPool(workers);
  // Merges share the cores: each may run this many transcodes at once.
  const engineConcurrency = Math.max(1, Math.floor(os.availableParallelism() / workers));
  const known = new Set<string>();
  const running = new Map<string, { controller: AbortController; done: Promise<JobRow> }>();
  let closing = false;

  const announce = (job: JobRow, data: string) =>
    deps.realtime.broadcast(statusChannel(job.appid, job.sid), STATUS_EVENT, { data });

  function fail(job: JobRow, message: string): JobRow {
    const patch = { status: 'failed' as const, error: message, finishedAt: Date.now() };
    try {
      store.updateJob(job.id, patch);
    } catch (err) {
      // A database that cannot write (a full disk) must not keep the browser from hearing why.
      log.error({ job: job.id, err }, 'could not record a failed merge');
    }
    announce(job, message);
    return { ...(store.getJob(job.id) ?? job), ...patch };
  }

  async function execute(job: JobRow, controller: AbortController): Promise<JobRow> {
    const throttle = createProgressThrottle((p) => announce(job, String(p)), 20, clock);
    let names: string[] = [];
    try {
      store.updateJob(job.id, { status: 'running', startedAt: Date.now() });
      throttle.update(0);
      const items = orderedItems(store, job);
      names = items.map((i) => i.filename);
      // 100 is kept back until the result is stored: the last event of a success is "100".
      const result = await runMergeJob(job, items, { store, storage, tools: deps.tools, merge, now: () => new Date(), engineConcurrency }, {
        onProgress: (p) => throttle.update(Math.min(p, 99)),
        signal: controller.signal,
      });
      store.updateJob(job.id, { status: 'succeeded', resultId: result.id, error: null, finishedAt: Date.now() });
      throttle.finish(100);
      log.info({ job: job.id, inputs: items.length, seconds: result.duration }, 'merge succeeded');
      return store.getJob(job.id) ?? { ...job, status: 'succeeded', resultId: result.id };
    } catch (err) {
      throttle.cancel();
      const message = err instanceof JobFailure ? err.message : failureMessage(err, names, controller.signal.aborted);
      if (err instanceof InputError || err instanceof JobFailure) log.info({ job: job.id, reason: message }, 'merge refused an input');
      else log.error({ job: job.id, err }, 'merge failed');
      return fail(job, message);
    }
  }

  function start(job: JobRow): Promise<JobRow> {
    const controller = new AbortController();
    const done = execute(job, controller).finally(() => running.delete(job.id));
    running.set(job.id, { controller, done });
    return done;
  }

  return {
    async run(job) {
      if (closing) {
        fail(job, SHUTDOWN_MESSAGE);
        throw new AppError('unavailable');
      }
      known.add(job.id);
      let waitingAs = '';
      let repeat: unknown = null;
      const stopRepeat = () => {
        if (repeat !== null) clock.clearTimeout(repeat);
        repeat = null;
      };
      try {
        return await pool.submit({
          onWait: (ahead) => {
            waitingAs = waitingText(ahead);
            announce(job, waitingAs);
            repeat ??= clock.setTimeout(function again() {
              announce(job, waitingAs);
              repeat = clock.setTimeout(again, WAITING_REPEAT_MS);
            }, WAITING_REPEAT_MS);
          },
          start: () => {
            stopRepeat();
            return start(job);
          },
        });
      } catch (err) {
        if (err === DRAINED) return fail(job, SHUTDOWN_MESSAGE);
        throw err;
      } finally {
        stopRepeat();
        known.delete(job.id);
      }
    },

    async recoverInterrupted() {
      for (const job of [...store.jobsWithStatus('queued'), ...store.jobsWithStatus('running')]) {
        if (known.has(job.id)) continue;
        await rm(jobTempDir(storage, job.id), { recursive: true, force: true });
        // A crash between storing the result and marking the job leaves a complete, listed result.
        const result = store.getResult(job.sid, job.id);
        if (result) {
          store.updateJob(job.id, { status: 'succeeded', resultId: result.id, error: null, finishedAt: Date.now() });
          continue;
        }
        await rm(path.join(storage.resultsDir(job.sid), resultFileName(job.id)), { force: true });
        store.updateJob(job.id, { status: 'failed', error: INTERRUPTED_MESSAGE, finishedAt: Date.now() });
        log.warn({ job: job.id }, 'merge interrupted by a restart: marked failed');
      }
      // Work folders of jobs no longer in the store at all.
      const entries = await readdir(storage.tmpDir).catch(() => [] as string[]);
      for (const name of entries) {
        if (name.startsWith('job-') && !known.has(name.slice(4))) {
          await rm(path.join(storage.tmpDir, name), { recursive: true, force: true });
        }
      }
    },

    async shutdown(graceMs = 30_000) {
      closing = true;
      for (const waiting of pool.drain()) waiting.cancel(DRAINED);
      const all = () => Promise.allSettled([...running.values()].map((r) => r.done));
      if (await settleWithin(all(), graceMs)) return;
      for (const r of running.values()) r.controller.abort();
      if (await settleWithin(all(), ABORT_WAIT_MS)) return;
      for (const id of running.keys()) {
        const job = store.getJob(id);
        if (job) fail(job, SHUTDOWN_MESSAGE);
      }
    },
  };
}
