// Every request ends: a web process's mergemp3 waits for its merge's end, and gets an answer
// whatever the database does when that end comes (down for a moment: the end recorded on a later
// try; down for good: a 503 with a code), and a sweep that settles a merge, or finds it ended by
// its worker, answers whoever waits for it. The queue is a fake that plays BullMQ's events.
import { describe, expect, it } from 'vitest';
import { job, RecordingBroadcaster, silentLog } from '../../../../test/support/job-kit.js';
import { MemoryStore } from '../../../../test/support/memory-store.js';
import { systemClock } from '../../../shared/clock.js';
import type { JobPatch } from '../../data/store.js';
import type { MergeJobData } from '../queue.js';
import { createBullJobQueue } from './bullmq-job-queue.js';
import type { BullQueue, QueueEnd, QueueEvent } from './bullmq-queue.js';

/** BullMQ as far as the web side sees it: the test says what state a job is in and plays its events. */
class FakeBullQueue implements BullQueue {
  names = { prefix: 'test', name: 'merges' };
  states = new Map<string, string>();
  failures = new Map<string, QueueEnd>();
  private listeners = new Set<(e: QueueEvent) => void>();
  async enqueue(data: MergeJobData) {
    this.states.set(data.jobId, 'waiting');
  }
  async cancel() {
    return 'signalled' as const;
  }
  onEvent(listener: (e: QueueEvent) => void) {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
  async state(jobId: string) {
    return this.states.get(jobId) ?? 'unknown';
  }
  async failure(jobId: string) {
    return this.failures.get(jobId) ?? null;
  }
  async line() {
    return { running: 0, waiting: [] };
  }
  async counts() {
    return { waiting: 0, active: 0, delayed: 0 };
  }
  async ping() {}
  async close() {}
  /** BullMQ failed the job: its state, and its event to every listener. */
  fail(end: QueueEnd, heard = true) {
    this.states.set(end.jobId, 'failed');
    this.failures.set(end.jobId, end);
    if (heard) for (const l of this.listeners) l(end);
  }
}

/** A database that refuses job ends (as PostgreSQL does while it is down) `failures` times. */
class RefusingEnds extends MemoryStore {
  endTries = 0;
  constructor(public failures: number) {
    super();
  }
  override async endJob(id: string, patch: JobPatch) {
    this.endTries++;
    if (this.failures-- > 0) throw new Error('connection terminated unexpectedly');
    return super.endJob(id, patch);
  }
}

const data = (jobId: string): MergeJobData => ({
  jobId,
  sid: 's1',
  appid: 'app',
  itemIds: ['i1'],
  options: {},
  requestId: `req-${jobId}`,
});

async function webQueue(failures: number) {
  const store = new RefusingEnds(failures);
  await store.createSession('h', 's1', 'c', 1);
  const queue = new FakeBullQueue();
  const jobs = createBullJobQueue({
    queue,
    store,
    broadcaster: new RecordingBroadcaster(),
    log: silentLog,
    clock: systemClock,
    settleRetryDelaysMs: [1, 1, 1],
  });
  const start = async (id: string) => {
    await store.addJob({ ...job(id, 's1', ['i1']), createdAt: 0 });
    return jobs.enqueue(data(id));
  };
  return { store, queue, jobs, start };
}

const failedEnd = (jobId: string): QueueEnd => ({
  type: 'failed',
  jobId,
  message: 'The merge failed on the server; please try again',
  code: 'mergeFailed',
});

describe("a merge's end when the database fails", () => {
  it('records the end on a later try when the database is down a moment, and answers as the merge ended', async () => {
    const { store, queue, jobs, start } = await webQueue(2);
    const { finished } = await start('j1');
    queue.fail(failedEnd('j1'));
    expect(await finished).toMatchObject({ state: 'failed', code: 'mergeFailed' });
    expect(store.endTries).toBe(3);
    expect(await store.getJob('j1')).toMatchObject({ status: 'failed', errorCode: 'mergeFailed' });
    await jobs.shutdown(0);
  });

  it('answers 503 with a code when the end cannot be recorded at all, and keeps nothing waiting', async () => {
    const { store, queue, jobs, start } = await webQueue(Infinity);
    const { finished } = await start('j1');
    queue.fail(failedEnd('j1'));
    expect(await finished).toMatchObject({ state: 'failed', code: 'endNotRecorded' });
    expect(await store.getJob('j1')).toMatchObject({ status: 'queued' });
    // Once the database is back, the sweep records the end BullMQ keeps.
    store.failures = 0;
    await jobs.recover();
    expect(await store.getJob('j1')).toMatchObject({ status: 'failed', errorCode: 'mergeFailed' });
    // Nothing was left waiting: a shutdown with no grace has no request to end.
    await jobs.shutdown(0);
  });

  it('a sweep that settles a merge whose end was never heard answers the request waiting for it', async () => {
    const { store, queue, jobs, start } = await webQueue(0);
    const { finished } = await start('j1');
    queue.fail(failedEnd('j1'), false);
    let answered = false;
    void finished.then(() => (answered = true));
    await jobs.recover();
    expect(await finished).toMatchObject({ state: 'failed', code: 'mergeFailed' });
    expect(answered).toBe(true);
    expect(await store.getJob('j1')).toMatchObject({ status: 'failed' });
    await jobs.shutdown(0);
  });

  it('a sweep answers a request whose merge its worker recorded as ended, its event never heard', async () => {
    const { store, queue, jobs, start } = await webQueue(0);
    const done = await start('done');
    const failed = await start('failed');
    await store.endJob('done', { status: 'succeeded', resultId: 'r1', percent: 100 });
    queue.states.set('done', 'completed');
    await store.endJob('failed', {
      status: 'failed',
      error: 'Could not merge: a.wav is not usable audio',
      errorCode: 'not-audio',
      errorFile: 'a.wav',
    });
    queue.states.set('failed', 'failed');
    await jobs.recover();
    expect(await done.finished).toEqual({ state: 'succeeded', resultId: 'r1' });
    expect(await failed.finished).toEqual({
      state: 'failed',
      code: 'not-audio',
      message: 'Could not merge: a.wav is not usable audio',
      file: 'a.wav',
    });
    await jobs.shutdown(0);
  });
});
