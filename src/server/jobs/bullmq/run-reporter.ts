// The worker's half of a scaled merge's story: each step is written to the job's row first and
// then told on the session's channel (through Redis to every web process), the same discipline
// as the in-process queue, so a late subscriber reading the row never sees the past. Progress is
// throttled, 100 is kept back until the result is stored, and a run that retries a merge starts
// from the percentage the runs before it reached (progress never goes back).
//
// A run starts only once its row says "running": a database that cannot take that write would
// leave browsers reading "waiting" through the whole merge, and would refuse the result at the
// end anyway. So the write is tried a few times, then the run fails as retryable (BullMQ runs it
// once more, as for any fault). Later progress writes only log when they fail: the next one or
// the final status puts the row right.
import type { FastifyBaseLogger } from 'fastify';
import type { JobPatch, Store } from '../../data/store.js';
import type { Broadcaster } from '../../realtime/broadcaster.js';
import { broadcastJobStatus } from '../../realtime/status-broadcasts.js';
import type { RunReporter } from './bullmq-worker.js';
import { DONE_TEXT, runningText } from '../job-messages.js';
import { systemClock, type Clock } from '../../../shared/clock.js';
import { createProgressThrottle, type ProgressThrottle } from '../progress-throttle.js';
import { createJobEvents, type JobEvent, type MergeJobData } from '../queue.js';
import { fileOf, JobFailure } from '../job-errors.js';
import { endedRow, refOf, runningProgress, startedDetail } from '../job-status.js';
import type { ProgressDetail } from '../../../shared/types.js';
import type { FileStorage } from '../../files/storage.js';
import { forgetDeadRuns } from '../merge-processor.js';

export interface RunReporterDeps {
  store: Store;
  broadcaster: Broadcaster;
  log: Pick<FastifyBaseLogger, 'error' | 'warn'>;
  clock?: Clock;
  /** Where runs store results: a merge's end removes what its dead runs stored unrecorded. */
  files?: FileStorage;
  /** Pauses before the second, third... try of the "running" write, ms. */
  startRetryDelaysMs?: number[];
}

const START_RETRY_DELAYS_MS = [200, 1000];

interface Run {
  /** Writes and tells of this run, one after another. */
  last: Promise<void>;
  throttle: ProgressThrottle;
  text?: string;
  /** The highest percentage an earlier run of this merge told: a retry never tells less. */
  floor: number;
}

export function createRunReporter(deps: RunReporterDeps): RunReporter & { close(): void } {
  const { store, log } = deps;
  const clock = deps.clock ?? systemClock;
  const events = createJobEvents((err) => log.error({ err }, 'a job event listener failed'));
  const stopBroadcasts = broadcastJobStatus(events, deps.broadcaster);
  const runs = new Map<string, Run>();
  const retryDelays = deps.startRetryDelaysMs ?? START_RETRY_DELAYS_MS;

  /** The "running" row, or a retryable JobFailure once every try has failed. */
  async function recordStart(data: MergeJobData, patch: JobPatch): Promise<void> {
    for (let tried = 0; ; tried++) {
      try {
        return await store.updateJob(data.jobId, patch);
      } catch (err) {
        if (tried >= retryDelays.length) {
          log.error(
            { err, job: data.jobId },
            'could not record that a merge started: this run fails and may run again',
          );
          throw new JobFailure('mergeFailed', undefined, true);
        }
        log.warn({ err, job: data.jobId }, 'could not record that a merge started; trying again');
        await new Promise((r) => setTimeout(r, retryDelays[tried]));
      }
    }
  }

  function report(run: Run, data: MergeJobData, patch: JobPatch, event: JobEvent | null): Promise<void> {
    run.last = run.last
      .then(() => store.updateJob(data.jobId, patch))
      .then(() => {
        if (event) events.emit(event);
      })
      .catch((err: unknown) => log.error({ err, job: data.jobId }, 'could not record a job change'));
    return run.last;
  }

  /**
   * How far earlier runs of the merge got, as its row says (0 for a first run, or a row that
   * cannot be read: the "running" write that follows tries the database again).
   */
  async function highestSoFar(data: MergeJobData, attempt: number): Promise<number> {
    if (attempt <= 1) return 0;
    const row = await store.getJob(data.jobId).catch(() => undefined);
    return Math.min(row?.percent ?? 0, 99);
  }

  /** What earlier runs of an ended merge stored and never recorded (their process died) goes. */
  const forgetDeadRunsOf = (data: MergeJobData) => forgetDeadRuns({ store, files: deps.files, log }, data);

  /** The run's pending progress is dropped and its writes settled; the run is forgotten. */
  async function finish(data: MergeJobData): Promise<Run> {
    const run = runs.get(data.jobId) ?? {
      last: Promise.resolve(),
      throttle: createProgressThrottle(() => undefined, 1, clock),
      floor: 0,
    };
    run.throttle.cancel();
    runs.delete(data.jobId);
    await run.last;
    return run;
  }

  return {
    async started(data, attempt) {
      await finish(data);
      const floor = await highestSoFar(data, attempt);
      const run: Run = { last: Promise.resolve(), throttle: createProgressThrottle(send, 20, clock), floor };
      runs.set(data.jobId, run);
      function send(percent: number, detail?: ProgressDetail) {
        const told = runningProgress(data, percent, run.text, detail);
        void report(run, data, told.patch, told.event);
      }
      const starting = recordStart(data, {
        status: 'running',
        startedAt: clock.now(),
        attempts: attempt,
        percent: floor,
        statusText: runningText(floor),
      });
      run.last = starting.catch(() => undefined);
      try {
        await starting;
      } catch (err) {
        run.throttle.cancel();
        runs.delete(data.jobId);
        throw err;
      }
      run.throttle.update(floor, startedDetail(data));
    },
    progress(data, percent, text, detail) {
      const run = runs.get(data.jobId);
      if (!run) return;
      run.text = text;
      run.throttle.update(Math.max(run.floor, Math.min(percent, 99)), detail);
    },
    async succeeded(data, result) {
      const run = await finish(data);
      // A worker's end of a merge: the fast paths that fell back, the in-process queue's log says them likewise.
      if (result.fallbacks?.length)
        log.warn({ job: data.jobId, fallbacks: result.fallbacks }, 'merge fell back to the plain way');
      await report(
        run,
        data,
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
    },
    async interrupted(data) {
      await finish(data);
    },
    async ended(data, ending) {
      const run = await finish(data);
      const message = ending.state === 'cancelled' ? ending.message : ending.failure.message;
      const end =
        ending.state === 'cancelled'
          ? { message, code: 'cancelled' as const }
          : { message, code: ending.failure.code, ...fileOf(ending.failure) };
      const patch: JobPatch = { ...endedRow(ending.state, end), finishedAt: clock.now() };
      const event: JobEvent =
        ending.state === 'cancelled'
          ? { ...refOf(data), type: 'cancelled', message }
          : {
              ...refOf(data),
              type: 'failed',
              message,
              code: ending.failure.code,
              retryable: ending.failure.retryable,
              ...fileOf(ending.failure),
            };
      await report(run, data, patch, event);
      await forgetDeadRunsOf(data);
    },
    close() {
      for (const run of runs.values()) run.throttle.cancel();
      stopBroadcasts();
    },
  };
}
