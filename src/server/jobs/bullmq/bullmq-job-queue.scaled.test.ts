// Merges whose end no worker wrote, settled by the web processes that are left: two web-side
// queues (separate Redis connections, one shared store, as two web processes share a database)
// and workers in child processes that are killed mid-merge, on a real Redis.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { MemoryStore } from '../../../../test/support/memory-store.js';
import { job, RecordingBroadcaster, silentLog } from '../../../../test/support/job-kit.js';
import { until } from '../../../../test/support/until.js';
import { ERRORS } from '../../errors.js';
import { statusChannel } from '../../../shared/types.js';
import { inputFailure } from '../job-errors.js';
import type { MergeJobData } from '../queue.js';
import { createBullJobQueue } from './bullmq-job-queue.js';
import { openBullQueue } from './bullmq-queue.js';
import { startBullWorker } from './bullmq-worker.js';

const LOCK_MS = 1500;
const open: Array<{ close(): Promise<void> }> = [];
const children: ChildProcess[] = [];
afterEach(async () => {
  children.splice(0).forEach((c) => c.kill('SIGKILL'));
  await Promise.allSettled(
    open
      .splice(0)
      .reverse()
      .map((o) => o.close()),
  );
});

const data = (jobId: string): MergeJobData => ({
  jobId,
  sid: 'sid1',
  appid: 'app',
  itemIds: ['i1', 'i2'],
  options: { format: 'mp3' },
  requestId: `req-${jobId}`,
});
const channel = statusChannel('app', 'sid1');

/** The shared database, noting how each conditional end of a job came out. */
class EndsNoted extends MemoryStore {
  ends: Array<{ id: string; won: boolean }> = [];
  override async endJob(id: string, patch: Parameters<MemoryStore['endJob']>[1]) {
    const won = await super.endJob(id, patch);
    this.ends.push({ id, won });
    return won;
  }
}

/** A web process's queue over its own Redis connections, sharing `store`; what it tells is recorded. */
async function webProcess(store: MemoryStore, name: string) {
  const broadcaster = new RecordingBroadcaster();
  const jobs = createBullJobQueue({
    queue: await openBullQueue({ redisUrl: inject('redisUrl'), names: { name } }),
    store,
    broadcaster,
    log: silentLog,
  });
  open.push({ close: () => jobs.shutdown(0) });
  return { jobs, broadcaster };
}

/** A worker process that takes the next merge and holds it until killed. */
async function childWorkerTaking(name: string, jobId: string): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'test/support/bull-worker-child.ts'], {
    env: { ...process.env, REDIS_URL: inject('redisUrl'), AM_QUEUE: name, AM_LOCK_MS: String(LOCK_MS) },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  children.push(child);
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  await until(() => out.includes(`started ${jobId}`), {
    timeoutMs: 30_000,
    intervalMs: 50,
    what: `a child worker starting ${jobId}`,
  });
  return child;
}

const killed = (child: ChildProcess) =>
  new Promise<void>((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGKILL');
  });

/** What the session's channel was told, on every web process together. */
const toldOn = (...webs: Array<{ broadcaster: RecordingBroadcaster }>) =>
  webs.flatMap((w) => w.broadcaster.payloadsOn(channel));

describe('a merge whose end no worker wrote', () => {
  it('whose web process is gone and whose workers both died is settled once by the web processes left', async () => {
    const name = `q${randomBytes(4).toString('hex')}`;
    const store = new EndsNoted();
    await store.createSession('h', 'sid1', 'c', 1);
    // As its last worker left it: running, 5% done.
    await store.addJob(
      job('job-s', 'sid1', ['i1', 'i2'], 'app', {
        createdAt: Date.now(),
        requestId: 'req-job-s',
        status: 'running',
        attempts: 2,
        percent: 5,
        statusText: 'Merging: 5%',
      }),
    );
    // The web process that queued it: gone once it has (no one waits for this merge in any process left).
    const gone = await openBullQueue({ redisUrl: inject('redisUrl'), names: { name } });
    await gone.enqueue(data('job-s'));
    await gone.close();
    const [webB, webC] = [await webProcess(store, name), await webProcess(store, name)];

    // Its worker dies mid-merge; the next one takes it (its last run) and dies too, so the
    // worker that comes next finds it stalled past the limit and BullMQ fails it, running nothing.
    await killed(await childWorkerTaking(name, 'job-s'));
    await killed(await childWorkerTaking(name, 'job-s'));
    const runs: string[] = [];
    const last = await startBullWorker(
      async (d) => {
        runs.push(d.jobId);
        return { resultId: 'never', durationSeconds: 1, inputs: 2 };
      },
      {
        redisUrl: inject('redisUrl'),
        names: { name },
        concurrency: 1,
        lockMs: LOCK_MS,
        stalledCheckMs: LOCK_MS / 2,
      },
    );
    open.push({ close: () => last.close(0) });

    // Both web processes hear BullMQ's end and try to write it; one does, and tells the session.
    await until(() => store.ends.filter((e) => e.id === 'job-s').length === 2, {
      timeoutMs: 60_000,
      intervalMs: 50,
      what: 'both web processes settling the merge',
    });
    expect(store.ends.map((e) => e.won).sort()).toEqual([false, true]);
    expect(await store.getJob('job-s')).toMatchObject({
      status: 'failed',
      errorCode: 'interrupted',
      error: ERRORS.interrupted.message,
      percent: null,
    });
    expect(runs).toEqual([]);
    const told = toldOn(webB, webC);
    expect(told).toEqual([
      expect.objectContaining({ state: 'failed', code: 'interrupted', requestId: 'req-job-s' }),
    ]);
    expect(store.jobHistory.filter((h) => h.id === 'job-s' && h.patch.status === 'failed')).toHaveLength(1);
    // The session's place is free again.
    expect(await store.addJobIfUnder(job('job-next', 'sid1', ['i1']), 1)).toBe(true);
  });

  it('a web process starting settles the rows BullMQ ended unheard or no longer has, once between two, and leaves open merges alone', async () => {
    const name = `q${randomBytes(4).toString('hex')}`;
    const store = new MemoryStore();
    await store.createSession('h', 'sid1', 'c', 1);
    const producer = await openBullQueue({ redisUrl: inject('redisUrl'), names: { name } });
    open.push(producer);
    // Failed for good on a worker that could not write the row (no web process listening).
    await store.addJob(job('job-bad', 'sid1', ['i1'], 'app', { status: 'running', attempts: 1 }));
    const w = await startBullWorker(
      async () => {
        throw inputFailure('not-audio', '"b.mp3" is not usable audio', 'b.mp3');
      },
      { redisUrl: inject('redisUrl'), names: { name }, concurrency: 1 },
    );
    open.push({ close: () => w.close(0) });
    await producer.enqueue(data('job-bad'));
    await until(async () => (await producer.state('job-bad')) === 'failed', {
      timeoutMs: 30_000,
      intervalMs: 50,
      what: 'the merge failing in BullMQ',
    });
    await w.close(0);
    // Running, with no job in Redis at all (removed once old, or Redis emptied).
    await store.addJob(job('job-lost', 'sid1', ['i1'], 'app', { status: 'running', createdAt: 1 }));
    // Waiting in line with no worker yet: open, left alone.
    await store.addJob(job('job-waits', 'sid1', ['i1'], 'app', { createdAt: 2 }));
    await producer.enqueue(data('job-waits'));
    // Just recorded, maybe not yet in Redis: left alone.
    await store.addJob(job('job-new', 'sid1', ['i1'], 'app', { createdAt: Date.now() }));

    const [webB, webC] = [await webProcess(store, name), await webProcess(store, name)];
    await Promise.all([webB.jobs.recover(), webC.jobs.recover()]);

    expect(await store.getJob('job-bad')).toMatchObject({
      status: 'failed',
      errorCode: 'not-audio',
      errorFile: 'b.mp3',
      error: '"b.mp3" is not usable audio',
    });
    expect(await store.getJob('job-lost')).toMatchObject({
      status: 'failed',
      errorCode: 'interrupted',
      error: ERRORS.interrupted.message,
    });
    expect((await store.getJob('job-waits'))?.status).toBe('queued');
    expect((await store.getJob('job-new'))?.status).toBe('queued');
    const told = toldOn(webB, webC);
    expect(told).toHaveLength(2);
    expect(told).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ state: 'failed', code: 'not-audio', file: 'b.mp3', requestId: null }),
        expect.objectContaining({ state: 'failed', code: 'interrupted' }),
      ]),
    );
  });
});
