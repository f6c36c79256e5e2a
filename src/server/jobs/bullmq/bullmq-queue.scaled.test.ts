// The BullMQ merge queue on a real Redis: producers and workers in different "processes" (separate
// connections, and a real child process where one must die), as web and worker processes use it.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { startRedis } from '../../../../test/support/services.js';
import { openBullQueue, type BullQueue, type QueueEvent } from './bullmq-queue.js';
import { startBullWorker, type BullWorker } from './bullmq-worker.js';
import type { MergeJobData, Processor as MergeProcessor } from '../queue.js';
import { inputFailure } from '../job-errors.js';
import { RedisPolicyError } from './redis-connection.js';
import { RefusingJobWrites } from '../../../../test/support/memory-store.js';
import { job, silentLog } from '../../../../test/support/job-kit.js';
import { nullBroadcaster } from '../../realtime/broadcaster.js';
import { createRunReporter } from './run-reporter.js';

const open: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
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
  requestId: 'req-1',
});

async function queueOn(redisUrl = inject('redisUrl'), name = `q${randomBytes(4).toString('hex')}`) {
  const queue = await openBullQueue({ redisUrl, names: { name } });
  open.push(queue);
  const events: QueueEvent[] = [];
  queue.onEvent((e) => events.push(e));
  const until = async (pred: (e: QueueEvent) => boolean, ms = 30_000) => {
    const end = Date.now() + ms;
    while (!events.some(pred)) {
      if (Date.now() > end) throw new Error(`no such event; got ${JSON.stringify(events)}`);
      await new Promise((r) => setTimeout(r, 20));
    }
  };
  return { queue, events, until, name };
}

async function worker(
  queue: BullQueue,
  processor: MergeProcessor,
  extra: { lockMs?: number } = {},
): Promise<BullWorker> {
  const w = await startBullWorker(processor, {
    redisUrl: inject('redisUrl'),
    names: queue.names,
    concurrency: 1,
    lockMs: extra.lockMs ?? 2000,
    stalledCheckMs: (extra.lockMs ?? 2000) / 2,
  });
  open.push({ close: () => w.close(0) });
  return w;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('BullMQ merge queue', () => {
  it('runs a merge on a worker and reports its progress, in order, and its result to another process', async () => {
    const { queue, name } = await queueOn();
    const web = await queueOn(inject('redisUrl'), name);
    const seen: MergeJobData[] = [];
    await worker(queue, async (d, progress) => {
      seen.push(d);
      for (const p of [0, 10, 10.4, 55, 100]) {
        progress(p);
        await sleep(5);
      }
      return { resultId: `result-of-${d.jobId}`, durationSeconds: 1, inputs: 2 };
    });
    await queue.enqueue(data('job-a'));
    await web.until((e) => e.type === 'completed');

    expect(seen).toEqual([data('job-a')]);
    expect(
      web.events.filter((e) => e.type === 'progress').map((e) => (e as { percent: number }).percent),
    ).toEqual([0, 10, 55, 100]);
    expect(web.events.at(-1)).toEqual({
      type: 'completed',
      jobId: 'job-a',
      result: { resultId: 'result-of-job-a', durationSeconds: 1, inputs: 2 },
    });
  });

  it('stores only ids and options in Redis, never file contents or paths', async () => {
    const { queue } = await queueOn();
    await queue.enqueue(data('job-ids'));
    const redis = new Redis(inject('redisUrl'));
    try {
      const stored = await redis.hget(`${queue.names.prefix}:${queue.names.name}:job-ids`, 'data');
      expect(JSON.parse(stored as string)).toEqual(data('job-ids'));
    } finally {
      redis.disconnect();
    }
  });

  it('cancel stops a merge running on a worker: its signal aborts and it never runs again', async () => {
    const { queue, until } = await queueOn();
    let starts = 0;
    await worker(queue, async (_d, progress, signal) => {
      starts++;
      progress(1);
      await new Promise((_res, rej) => signal.addEventListener('abort', () => rej(new Error('stopped'))));
      return { resultId: 'x', durationSeconds: 1, inputs: 2 };
    });
    await queue.enqueue(data('job-c'));
    await until((e) => e.type === 'progress');
    await queue.cancel('job-c');
    await until((e) => e.type === 'cancelled');
    await sleep(500);
    expect(starts).toBe(1);
    expect(await queue.state('job-c')).toBe('failed');
  });

  it('cancel takes a waiting merge out of the line before any worker starts it', async () => {
    const { queue, until } = await queueOn();
    await queue.enqueue(data('job-w'));
    await queue.cancel('job-w');
    await until((e) => e.type === 'cancelled' && e.jobId === 'job-w');
    let starts = 0;
    await worker(queue, async () => {
      starts++;
      return { resultId: 'x', durationSeconds: 1, inputs: 2 };
    });
    await queue.enqueue(data('job-after'));
    await until((e) => e.type === 'completed' && e.jobId === 'job-after');
    expect(starts).toBe(1);
  });

  it('a merge whose worker process is killed runs again on another worker, and only twice at most', async () => {
    const { queue, until, name } = await queueOn();
    const child = spawn(process.execPath, ['--import', 'tsx', 'test/support/bull-worker-child.ts'], {
      env: { ...process.env, REDIS_URL: inject('redisUrl'), AM_QUEUE: name, AM_LOCK_MS: '1500' },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout!.on('data', (d) => (out += d));
    try {
      await queue.enqueue(data('job-k'));
      for (let i = 0; !out.includes('started job-k'); i++) {
        if (i > 600) throw new Error(`the child worker never started the job: ${out}`);
        await sleep(50);
      }
    } finally {
      child.kill('SIGKILL');
    }
    const runs: string[] = [];
    await worker(
      queue,
      async (d) => {
        runs.push(d.jobId);
        return { resultId: 'done-elsewhere', durationSeconds: 1, inputs: 2 };
      },
      { lockMs: 1500 },
    );
    await until((e) => e.type === 'completed' && e.jobId === 'job-k');
    expect(runs).toEqual(['job-k']);
  });

  it('retries a merge that failed unexpectedly once, and not one that failed for a reason worded for a person', async () => {
    const { queue, events, until } = await queueOn();
    const starts: string[] = [];
    await worker(queue, async (d) => {
      starts.push(d.jobId);
      if (d.jobId === 'job-bad') throw inputFailure('not-audio', '"b.mp3" is not audio');
      throw new Error('disk vanished');
    });
    await queue.enqueue(data('job-bad'));
    await until((e) => e.type === 'failed' && e.jobId === 'job-bad');
    await queue.enqueue(data('job-flaky'));
    await until((e) => e.type === 'failed' && e.jobId === 'job-flaky');
    expect(starts).toEqual(['job-bad', 'job-flaky', 'job-flaky']);
    expect(events.find((e) => e.type === 'failed' && e.jobId === 'job-bad')).toMatchObject({
      message: '"b.mp3" is not audio',
    });
  });

  it('a merge whose "running" status cannot be written does not start: it runs again, and fails after its second run', async () => {
    const { queue, until } = await queueOn();
    // Attempt 1's three tries are refused, attempt 2's first try gets through (job "job-db").
    const store = new RefusingJobWrites(3);
    await store.createSession('h', 'sid1', 'c', 1);
    for (const id of ['job-db', 'job-db-down']) await store.addJob(job(id, 'sid1', ['i1', 'i2']));
    const reporter = createRunReporter({
      store,
      broadcaster: nullBroadcaster,
      log: silentLog,
      startRetryDelaysMs: [10, 10],
    });
    open.push({ close: async () => reporter.close() });
    const ran: string[] = [];
    const w = await startBullWorker(
      async (d) => {
        ran.push(d.jobId);
        return { resultId: `result-of-${d.jobId}`, durationSeconds: 1, inputs: 2 };
      },
      { redisUrl: inject('redisUrl'), names: queue.names, concurrency: 1, reporter },
    );
    open.push({ close: () => w.close(0) });
    await queue.enqueue(data('job-db'));
    await until((e) => e.type === 'completed' && e.jobId === 'job-db');
    expect(ran).toEqual(['job-db']);
    expect(await store.getJob('job-db')).toMatchObject({
      status: 'succeeded',
      attempts: 2,
      resultId: 'result-of-job-db',
    });

    // The database stays away: both runs fail before the merge, which never runs.
    store.refuseNext(Infinity);
    await queue.enqueue(data('job-db-down'));
    await until((e) => e.type === 'failed' && e.jobId === 'job-db-down');
    expect(ran).toEqual(['job-db']);
  });

  it('a long merge that yields keeps its lock: it runs once, never taken back as stalled', async () => {
    const { queue, events, until } = await queueOn();
    let starts = 0;
    await worker(
      queue,
      async () => {
        starts++;
        // ~3 s of CPU work in 20 ms slices, like the join between its writes, against a 1 s lock.
        const end = Date.now() + 3000;
        while (Date.now() < end) {
          const slice = Date.now() + 20;
          while (Date.now() < slice);
          await new Promise((r) => setImmediate(r));
        }
        return { resultId: 'long', durationSeconds: 1, inputs: 2 };
      },
      { lockMs: 1000 },
    );
    await queue.enqueue(data('job-long'));
    await until((e) => e.type === 'completed');
    expect(starts).toBe(1);
    expect(events.some((e) => e.type === 'stalled')).toBe(false);
  });

  it('hands a running merge back on shutdown, and another worker finishes it', async () => {
    const { queue, until } = await queueOn();
    const first = await worker(queue, async (_d, progress, signal) => {
      progress(3);
      await new Promise((_res, rej) => signal.addEventListener('abort', () => rej(new Error('stopped'))));
      return { resultId: 'x', durationSeconds: 1, inputs: 2 };
    });
    await queue.enqueue(data('job-h'));
    await until((e) => e.type === 'progress');
    await first.close(100);
    await worker(queue, async () => ({ resultId: 'second', durationSeconds: 1, inputs: 2 }));
    await until((e) => e.type === 'completed' && e.jobId === 'job-h');
  });
});

describe('Redis for the merge queue', () => {
  it('refuses to start on a Redis that may evict keys, saying which setting to change', async () => {
    const redis = await startRedis();
    const admin = new Redis(redis.url);
    try {
      await admin.config('SET', 'maxmemory-policy', 'allkeys-lru');
      const err = await openBullQueue({ redisUrl: redis.url }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(RedisPolicyError);
      expect((err as Error).message).toMatch(/maxmemory-policy is "allkeys-lru".*noeviction/);
    } finally {
      admin.disconnect();
      await redis.stop();
    }
  });

  it('a running merge and a waiting one survive kill -9 of Redis (appendonly, appendfsync everysec): each completes once', async () => {
    const redis = await startRedis({ persistent: true });
    try {
      const { queue, events, until } = await queueOn(redis.url);
      const runs: string[] = [];
      const w = await startBullWorker(
        async (d, progress) => {
          runs.push(d.jobId);
          progress(1);
          await sleep(3000);
          progress(99);
          return { resultId: `survived-${d.jobId}`, durationSeconds: 1, inputs: 2 };
        },
        { redisUrl: redis.url, names: queue.names, concurrency: 1 },
      );
      open.push({ close: () => w.close(0) });
      await queue.enqueue(data('job-r'));
      await until((e) => e.type === 'progress');
      // Waiting behind it: only Redis knows of this one.
      await queue.enqueue(data('job-waiting'));
      await redis.crash();
      await until((e) => e.type === 'completed' && e.jobId === 'job-r', 60_000);
      await until((e) => e.type === 'completed' && e.jobId === 'job-waiting', 60_000);
      expect(
        events
          .filter((e) => e.type === 'completed')
          .map((e) => e.jobId)
          .sort(),
      ).toEqual(['job-r', 'job-waiting']);
      expect(runs.sort()).toEqual(['job-r', 'job-waiting']);
    } finally {
      await Promise.allSettled(
        open
          .splice(0)
          .reverse()
          .map((o) => o.close()),
      );
      await redis.stop();
    }
  });
});
