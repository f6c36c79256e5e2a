// The JobQueue of a web process when merges run on workers (BullMQ): enqueue, cancel and wait
// for the end here; run, record and tell progress on the worker (run-reporter.ts). This side
// writes a job's row only where no worker will: a merge's place in line while no worker has it,
// a merge cancelled before any worker took it, and one BullMQ itself gave up on (its workers died
// twice). Those ends are settled by whichever web process hears of them, the one that queued the
// merge or any other (it may be gone): the store's conditional write lets one of them win, and
// only that one tells the session. A sweep (at start, then every few minutes) settles rows whose
// job BullMQ ended unheard or no longer has. Its `events` are this process's own jobs' events; a
// running merge's are broadcast by its worker, once.
import type { FastifyBaseLogger } from 'fastify';
import { systemClock, type Clock } from '../../../shared/clock.js';
import type { JobPatch, JobRow, Store } from '../../data/store.js';
import type { Broadcaster } from '../../realtime/broadcaster.js';
import { broadcastJobStatus } from '../../realtime/status-broadcasts.js';
import type { BullQueue, QueueEnd, QueueEvent } from './bullmq-queue.js';
import { ERRORS, isErrorCode } from '../../errors.js';
import { fileOf, JobFailure, QueueClosedError } from '../job-errors.js';
import { detailOf, endedRow, refOf, WAITING } from '../job-status.js';
import type { FileStorage } from '../../files/storage.js';
import { forgetDeadRuns } from '../merge-processor.js';
import {
  CANCELLED_MESSAGE,
  DONE_TEXT,
  INTERRUPTED_MESSAGE,
  SHUTDOWN_MESSAGE,
  waitingText,
} from '../job-messages.js';
import {
  createJobEvents,
  type JobEvent,
  type JobOutcome,
  type JobQueue,
  type MergeJobData,
} from '../queue.js';

export interface BullJobQueueDeps {
  queue: BullQueue;
  store: Store;
  /** For the rows this side writes (see above). */
  broadcaster: Broadcaster;
  log: Pick<FastifyBaseLogger, 'info' | 'warn' | 'error'>;
  clock?: Clock;
  /** Where runs store results: a merge that ends here without one loses what dead runs stored. */
  files?: FileStorage;
  /** Pauses before the second, third... try of recording a merge's end, ms. */
  settleRetryDelaysMs?: number[];
}

/** A database down for a moment when a merge ends: its end is tried again after these pauses. */
const SETTLE_RETRY_DELAYS_MS = [200, 1000, 5000];

/** A queued row younger than this may still be on its way into Redis: the sweep leaves it alone. */
const RECOVER_AFTER_MS = 60_000;
/** How often each web process looks for unfinished rows BullMQ has ended or lost. */
const SWEEP_EVERY_MS = 5 * 60_000;
/** Rows a periodic sweep looks at (one Redis call each), on from where the last one stopped. */
const SWEEP_LIMIT = 200;
/** How long cancel() waits to hear that the merge stopped. */
const CANCEL_WAIT_MS = 30_000;
/** How often waiting merges are told their place in line. */
const PLACE_EVERY_MS = 3000;

const OPEN_STATES = new Set(['waiting', 'active', 'delayed', 'prioritized', 'waiting-children']);
/** How a request waiting for a merge is answered, from how the merge ended as told. */
function outcomeOfEvent(event: JobEvent): JobOutcome | undefined {
  if (event.type === 'cancelled') return { state: 'cancelled', message: event.message };
  if (event.type !== 'failed') return undefined;
  return { state: 'failed', message: event.message, code: event.code, ...fileOf(event) };
}

/** How a request waiting for a merge is answered, from the merge's row once it has ended. */
function outcomeOfRow(row: JobRow): JobOutcome | undefined {
  if (row.status === 'succeeded' && row.resultId) return { state: 'succeeded', resultId: row.resultId };
  if (row.status === 'cancelled') return { state: 'cancelled', message: row.error ?? CANCELLED_MESSAGE };
  if (row.status !== 'failed') return undefined;
  const code = isErrorCode(row.errorCode) ? row.errorCode : 'mergeFailed';
  return {
    state: 'failed',
    message: row.error ?? ERRORS[code].message,
    code,
    ...(row.errorFile === null ? {} : { file: row.errorFile }),
  };
}

/** The answer when a merge's end could not be recorded however often it was tried. */
const NOT_RECORDED: JobOutcome = {
  state: 'failed',
  message: ERRORS.endNotRecorded.message,
  code: 'endNotRecorded',
};

/** A merge's data as its row keeps it: for merges another process queued. */
const dataOfRow = (row: JobRow): MergeJobData => ({
  jobId: row.id,
  sid: row.sid,
  appid: row.appid,
  itemIds: row.itemIds,
  options: row.options,
  requestId: row.requestId,
});

export function createBullJobQueue(deps: BullJobQueueDeps): JobQueue & { ping(): Promise<void> } {
  const { queue, store, log } = deps;
  const now = () => (deps.clock ?? systemClock).now();
  const events = createJobEvents((err) => log.error({ err }, 'a job event listener failed'));
  const told = createJobEvents((err) => log.error({ err }, 'a job status broadcast failed'));
  const stopBroadcasts = broadcastJobStatus(told, deps.broadcaster);
  const pending = new Map<
    string,
    { data: MergeJobData; resolve: (o: JobOutcome) => void; finished: Promise<JobOutcome> }
  >();
  /** Waiters for any job's end, this process's or not (cancel from another web process). */
  const endWaiters = new Map<string, Set<(e: QueueEvent) => void>>();
  let closing = false;

  /**
   * Write the row's end only if no one has (the worker usually has, another web process may
   * have), and tell it then: true when this call wrote it.
   */
  async function settleRow(data: MergeJobData, patch: JobPatch, event: JobEvent): Promise<boolean> {
    if (!(await store.endJob(data.jobId, { ...patch, finishedAt: now() }))) return false;
    told.emit(event);
    if (pending.has(data.jobId)) events.emit(event);
    // Whoever settles it (an end heard, a sweep) answers the request waiting for it here.
    const outcome = outcomeOfEvent(event);
    if (outcome) answer(data.jobId, outcome);
    await forgetDeadRunsOf(data);
    return true;
  }

  /** Answer this process's request waiting for the merge, if there is one (its entry goes with it). */
  function answer(jobId: string, outcome: JobOutcome): void {
    pending.get(jobId)?.resolve(outcome);
  }

  /**
   * settleEnd, tried again while the database refuses it: false when it never took the write
   * (the sweep records it later, from what BullMQ keeps).
   */
  async function settleEndRetrying(e: QueueEnd, data: MergeJobData): Promise<boolean> {
    const delays = deps.settleRetryDelaysMs ?? SETTLE_RETRY_DELAYS_MS;
    for (let tried = 0; ; tried++) {
      try {
        await settleEnd(e, data);
        return true;
      } catch (err) {
        if (tried >= delays.length) {
          log.error(
            { err, job: e.jobId },
            'could not record the end of a merge: its request is answered 503',
          );
          return false;
        }
        log.warn({ err, job: e.jobId }, 'could not record the end of a merge; trying again');
        await new Promise((r) => setTimeout(r, delays[tried]));
      }
    }
  }

  /** Settle the row of a merge BullMQ ended, whichever process queued it; its data from its row if not given. */
  async function settleEnd(e: QueueEnd, known?: MergeJobData): Promise<boolean> {
    const row = known ? undefined : await store.getJob(e.jobId);
    if (!known && !row) return false;
    // Whether it is still open is the conditional write's to say, for every process alike.
    const data = known ?? dataOfRow(row!);
    if (e.type === 'cancelled') {
      const end = { message: CANCELLED_MESSAGE, code: 'cancelled' as const };
      return settleRow(data, endedRow('cancelled', end), {
        ...refOf(data),
        type: 'cancelled',
        message: end.message,
      });
    }
    const { message, code } = e;
    return settleRow(data, endedRow('failed', { message, code, ...fileOf(e) }), {
      ...refOf(data),
      type: 'failed',
      message,
      code,
      retryable: false,
      ...fileOf(e),
    });
  }

  /** A run whose worker died after storing its file and before recording it left objects behind. */
  const forgetDeadRunsOf = (job: Pick<MergeJobData, 'sid' | 'jobId'>) =>
    forgetDeadRuns({ store, files: deps.files, log }, job);

  async function onQueueEvent(e: QueueEvent): Promise<void> {
    for (const w of endWaiters.get(e.jobId) ?? []) w(e);
    const own = pending.get(e.jobId);
    // The process that queued it may be gone: any process settles an end no worker wrote.
    if (!own) {
      if (e.type === 'failed' || e.type === 'cancelled') await settleEnd(e);
      return;
    }
    const ref = refOf(own.data);
    if (e.type === 'progress') {
      events.emit({
        ...ref,
        type: 'progress',
        state: 'running',
        percent: Math.min(e.percent, 99),
        text: e.text ?? '',
        ...detailOf(e.detail),
      });
    } else if (e.type === 'completed') {
      events.emit({ ...ref, type: 'completed', resultId: e.result.resultId, text: DONE_TEXT });
      own.resolve({ state: 'succeeded', resultId: e.result.resultId });
    } else if (e.type === 'failed' || e.type === 'cancelled') {
      // The request is answered however the database behaves: as the merge ended once that is
      // recorded (here or by another process), else a 503 that says the end went unrecorded.
      const recorded = await settleEndRetrying(e, own.data);
      own.resolve(
        !recorded
          ? NOT_RECORDED
          : e.type === 'failed'
            ? { state: 'failed', message: e.message, code: e.code, ...fileOf(e) }
            : { state: 'cancelled', message: CANCELLED_MESSAGE },
      );
    }
  }

  /** What each of this process's waiting merges was last told. */
  const placeTold = new Map<string, string>();
  let telling: Promise<void> | null = null;

  /**
   * Tell this process's waiting merges how many merges are ahead of each (its row when that
   * changed, its channel every time: a page that just subscribed hears it too).
   */
  async function tellPlaces(): Promise<void> {
    if (pending.size === 0) return;
    const { running, waiting } = await queue.line();
    for (const [i, jobId] of waiting.entries()) {
      const own = pending.get(jobId);
      if (!own) continue;
      const text = waitingText(running + i);
      if (placeTold.get(jobId) !== text) {
        // A worker that took it meanwhile tells its progress instead.
        if ((await store.getJob(jobId))?.status !== 'queued') continue;
        placeTold.set(jobId, text);
        await store.updateJob(jobId, { statusText: text, percent: null });
      }
      told.emit({
        ...refOf(own.data),
        type: 'progress',
        state: 'queued',
        percent: null,
        text,
        detail: WAITING,
      });
    }
  }
  const tellPlacesNow = () => {
    telling ??= tellPlaces()
      .catch((err: unknown) => log.warn({ err }, 'could not tell waiting merges their place'))
      .finally(() => (telling = null));
  };
  const placeTimer = setInterval(tellPlacesNow, PLACE_EVERY_MS);
  placeTimer.unref();

  const stopListening = queue.onEvent((e) => {
    onQueueEvent(e).catch((err: unknown) => log.error({ err, job: e.jobId }, 'could not settle a merge'));
  });

  /**
   * Settle the unfinished rows BullMQ has ended while no web process listened (all were down), or
   * no longer has at all (removed once old, Redis emptied). Stalled merges are BullMQ's to recover.
   */
  async function sweep(limit = Infinity): Promise<void> {
    const open = [...(await store.jobsWithStatus('queued')), ...(await store.jobsWithStatus('running'))];
    const old = open.filter((row) => row.createdAt <= now() - RECOVER_AFTER_MS);
    // Round the list, so rows behind many long-open ones are reached too.
    if (sweepFrom >= old.length) sweepFrom = 0;
    const batch = old.slice(sweepFrom, sweepFrom + limit);
    sweepFrom += batch.length;
    for (const row of batch) {
      const state = await queue.state(row.id);
      const end: QueueEnd | null =
        state === 'unknown'
          ? { type: 'failed', jobId: row.id, message: INTERRUPTED_MESSAGE, code: 'interrupted' }
          : state === 'failed'
            ? await queue.failure(row.id)
            : null;
      if (end && (await settleEnd(end, dataOfRow(row))))
        log.warn({ job: row.id, state }, 'merge ended in the queue with its row unfinished: settled');
    }
    await answerEnded();
  }

  /**
   * The requests waiting here for merges whose rows have ended with no end heard here (the event
   * lost, or the end recorded by a worker while this process could not hear it): answered from
   * the row, so none waits for an event that will not come.
   */
  async function answerEnded(): Promise<void> {
    for (const jobId of [...pending.keys()]) {
      const row = await store.getJob(jobId);
      const outcome = row && outcomeOfRow(row);
      if (outcome) answer(jobId, outcome);
    }
  }
  let sweepFrom = 0;
  let sweeping: Promise<void> | null = null;
  const sweepTimer = setInterval(() => {
    sweeping ??= sweep(SWEEP_LIMIT)
      .catch((err: unknown) => log.warn({ err }, 'could not look for merges the queue ended or lost'))
      .finally(() => (sweeping = null));
  }, SWEEP_EVERY_MS);
  sweepTimer.unref();

  /** The job's place among its session's merges still queued or running (its own row included). */
  async function turnOf(s: Store, data: MergeJobData): Promise<number> {
    const unfinished = [...(await s.jobsWithStatus('queued')), ...(await s.jobsWithStatus('running'))];
    return Math.max(1, unfinished.filter((j) => j.sid === data.sid).length);
  }

  function waitForEnd(jobId: string, ms: number): Promise<QueueEvent | null> {
    return new Promise((resolve) => {
      const set = endWaiters.get(jobId) ?? new Set();
      endWaiters.set(jobId, set);
      const done = (e: QueueEvent | null) => {
        if (e && e.type !== 'completed' && e.type !== 'failed' && e.type !== 'cancelled') return;
        clearTimeout(timer);
        set.delete(done);
        if (set.size === 0) endWaiters.delete(jobId);
        resolve(e);
      };
      const timer = setTimeout(() => done(null), ms);
      set.add(done);
    });
  }

  return {
    events,

    async enqueue(data) {
      if (closing) {
        await store.updateJob(data.jobId, {
          ...endedRow('failed', { message: SHUTDOWN_MESSAGE, code: 'mergeStopped' }),
          finishedAt: now(),
        });
        throw new QueueClosedError();
      }
      let resolve!: (o: JobOutcome) => void;
      const finished = new Promise<JobOutcome>((r) => (resolve = r)).finally(() => {
        pending.delete(data.jobId);
        placeTold.delete(data.jobId);
      });
      pending.set(data.jobId, { data, resolve, finished });
      try {
        await queue.enqueue(data, await turnOf(store, data));
        tellPlacesNow();
      } catch (err) {
        const failure = new JobFailure('mergeStopped');
        await settleRow(data, endedRow('failed', failure), {
          ...refOf(data),
          type: 'failed',
          message: failure.message,
          code: failure.code,
          retryable: true,
        }).catch((e: unknown) =>
          log.error({ err: e, job: data.jobId }, 'could not record a merge not queued'),
        );
        resolve({ state: 'failed', message: failure.message, code: failure.code });
        log.error({ err, job: data.jobId }, 'could not queue a merge');
      }
      return { jobId: data.jobId, finished };
    },

    async cancel(jobId) {
      if (!OPEN_STATES.has(await queue.state(jobId))) return false;
      const ended = waitForEnd(jobId, CANCEL_WAIT_MS);
      if ((await queue.cancel(jobId)) === 'removed') {
        // No worker ever had it: this side records and tells the end.
        await settleEnd({ type: 'cancelled', jobId });
      }
      return (await ended)?.type === 'cancelled';
    },

    async recover() {
      await sweep();
    },

    async shutdown(graceMs = 30_000) {
      closing = true;
      clearInterval(placeTimer);
      clearInterval(sweepTimer);
      // Merges go on on their workers; a request still waiting gets an answer before this process goes.
      const all = Promise.allSettled([...pending.values()].map((p) => p.finished));
      await Promise.race([all, new Promise((r) => setTimeout(r, graceMs).unref())]);
      for (const p of pending.values())
        p.resolve({ state: 'failed', message: SHUTDOWN_MESSAGE, code: 'mergeStopped' });
      stopListening();
      stopBroadcasts();
      await queue.close();
    },

    ping: () => queue.ping(),
    counts: () => queue.counts(),
  };
}
