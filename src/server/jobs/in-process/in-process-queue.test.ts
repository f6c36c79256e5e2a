import { mkdir, readFile, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { InputError } from '../../../engine/index.js';
import { statusChannel } from '../../../shared/types.js';
import { tempDir } from '../../../../test/support/audio-fixtures.js';
import { MemoryStore } from '../../../../test/support/memory-store.js';
import type { JobRow } from '../../data/store.js';
import type { DiskStorage } from '../../files/disk/disk-storage.js';
import { broadcastJobStatus } from '../../realtime/status-broadcasts.js';
import { QueueClosedError } from '../job-errors.js';
import { CANCELLED_MESSAGE, INTERRUPTED_MESSAGE, SHUTDOWN_MESSAGE } from '../job-messages.js';
import { ERRORS } from '../../errors.js';
import { createInProcessQueue } from './in-process-queue.js';
import { createMergeProcessor, engineConcurrencyFor } from '../merge-processor.js';
import type { Clock } from '../../../shared/clock.js';
import type { JobEvent, JobQueue, MergeJobData } from '../queue.js';
import {
  diskStorage,
  fakeTools,
  filesUnder,
  item,
  job,
  RecordingBroadcaster,
  scriptedMerge,
  silentLog,
  type MergeCall,
} from '../../../../test/support/job-kit.js';
import { until } from '../../../../test/support/until.js';
import { pino } from 'pino';

/** Time jumps a second per reading, so the throttle never holds anything back. */
const racingClock: Clock = (() => {
  let t = 0;
  return {
    now: () => (t += 1000),
    setTimeout: (fn) => setTimeout(fn, 0),
    clearTimeout: (h) => clearTimeout(h as NodeJS.Timeout),
  };
})();

let root: string;
let cleanup: () => Promise<void>;
let store: MemoryStore;
let storage: DiskStorage;
let broadcaster: RecordingBroadcaster;
const chan = statusChannel('app', 'S1');
const tick = () => new Promise((r) => setImmediate(r));
/** Once the engine has been asked for a merge (in-process work: checked every turn of the event loop). */
const startedMerging = (calls: readonly MergeCall[]) =>
  until(() => calls.length > 0, { timeoutMs: 10_000, intervalMs: 0, what: 'the first merge call' });

beforeEach(async () => {
  ({ dir: root, cleanup } = await tempDir('jobs-'));
  store = new MemoryStore();
  storage = diskStorage(root);
  broadcaster = new RecordingBroadcaster();
  await store.createSession('h-S1', 'S1', 'csrf', 0);
  for (const [n, name] of ['intro.mp3', 'notes.txt', 'outro.wav'].entries())
    await store.addItemIfUnder(item('S1', n, name), 100);
});
afterEach(() => cleanup());

function queue(
  merge: ReturnType<typeof scriptedMerge>['merge'],
  concurrency = 1,
  clock: Clock = racingClock,
): JobQueue {
  const processor = createMergeProcessor({
    store,
    files: storage,
    tools: fakeTools,
    merge,
    engineConcurrency: engineConcurrencyFor(concurrency),
  });
  const q = createInProcessQueue({ store, files: storage, processor, concurrency, log: silentLog, clock });
  broadcastJobStatus(q.events, broadcaster);
  return q;
}

const dataOf = (j: JobRow): MergeJobData => ({
  jobId: j.id,
  sid: j.sid,
  appid: j.appid,
  itemIds: j.itemIds,
  options: j.options,
  requestId: j.requestId,
});

async function record(id: string, ids: string[], over: Partial<JobRow> = {}) {
  const j = job(id, 'S1', ids, 'app', over);
  await store.addJob(j);
  return j;
}

/** Record a job, queue it, and resolve with its row once it has ended. */
async function run(q: JobQueue, id: string, ids: string[], over: Partial<JobRow> = {}): Promise<JobRow> {
  const { finished } = await q.enqueue(dataOf(await record(id, ids, over)));
  await finished;
  return (await store.getJob(id))!;
}

function deferred() {
  let open!: () => void;
  const promise = new Promise<void>((r) => (open = r));
  return { promise, open };
}

describe('the in-process job queue', () => {
  it('merges the uploads in the job order, stores the result, and ends its events with "100"', async () => {
    const { merge, calls } = scriptedMerge();
    const done = await run(queue(merge), 'J1', ['item-S1-2', 'item-S1-0', 'item-S1-2']);

    expect(done).toMatchObject({ status: 'succeeded', percent: 100, attempts: 1, statusText: 'Done' });
    expect(store.jobHistory.map((h) => h.patch.status).filter(Boolean)).toEqual(['running', 'succeeded']);
    expect(calls[0].inputs).toEqual(
      ['stored2.mp3', 'stored0.mp3', 'stored2.mp3'].map((f) => path.join(root, 'uploads', 'S1', f)),
    );
    expect(calls[0].opts.displayNames).toEqual(['outro.wav', 'intro.mp3', 'outro.wav']);
    expect(calls[0].opts.concurrency).toBe(os.availableParallelism());
    const [result] = await store.listResults('S1');
    expect(result).toMatchObject({
      id: done.resultId,
      jobId: 'J1',
      sources: ['outro.wav', 'intro.mp3', 'outro.wav'],
      duration: 3,
      format: 'mp3',
    });
    expect(result.downloadName).toMatch(/^merged-\d{4}-\d\d-\d\d-\d{4}\.mp3$/);
    const bytes = await readFile(storage.resultPath(result));
    expect(bytes.length).toBe(result.size);
    expect(bytes.toString()).toBe(calls[0].inputs.join('\n'));
    // The same percentage again only where the merge moved on: from reading to encoding, from
    // writing the file to storing it.
    expect(broadcaster.dataOn(chan)).toEqual(['0', '0', '25', '50', '75', '99', '99', '100']);
    expect(broadcaster.payloadsOn(chan).map((p) => p.stage && `${p.stage} ${p.file}/${p.files}`)).toEqual([
      'reading 1/3',
      'encoding 1/3',
      'encoding 1/3',
      'encoding 2/3',
      'encoding 3/3',
      'writing 3/3',
      'storing 3/3',
      undefined,
    ]);
    expect(await filesUnder(storage.tmpDir)).toEqual([]);
  });

  it('persists progress on the job row and tells it with the request id, state and percent', async () => {
    const seen: Array<number | null> = [];
    const { merge } = scriptedMerge();
    const q = queue(merge);
    q.events.on((e) => {
      if (e.type === 'progress') void store.getJob('J1').then((row) => seen.push(row!.percent));
    });
    await run(q, 'J1', ['item-S1-0'], { requestId: 'req-1' });
    expect(store.jobHistory.filter((h) => h.patch.percent !== undefined).map((h) => h.patch.percent)).toEqual(
      [0, 0, 0, 25, 50, 75, 99, 99, 100],
    );
    expect(seen).toEqual([0, 0, 25, 50, 75, 99, 99]);
    expect(broadcaster.payloadsOn(chan).at(2)).toEqual({
      data: '25',
      requestId: 'req-1',
      state: 'running',
      percent: 25,
      stage: 'encoding',
      file: 1,
      files: 1,
      secondsLeft: null,
    });
    expect(broadcaster.payloadsOn(chan).at(-1)).toEqual({
      data: '100',
      requestId: 'req-1',
      state: 'succeeded',
      percent: 100,
    });
  });

  it('a second merge queued behind a first gets a "Waiting" status, then runs', async () => {
    const gate = deferred();
    const { merge, calls } = scriptedMerge({ gate: () => gate.promise });
    const q = queue(merge, 1);
    const first = run(q, 'J1', ['item-S1-0']);
    const second = run(q, 'J2', ['item-S1-2']);
    const third = run(q, 'J3', ['item-S1-0']);
    await startedMerging(calls);
    await tick();
    expect(calls).toHaveLength(1);
    expect(await store.getJob('J2')).toMatchObject({
      status: 'queued',
      percent: null,
      statusText: 'Waiting: 1 merge ahead of yours',
    });
    expect(broadcaster.dataOn(chan)).toContain('Waiting: 1 merge ahead of yours');
    expect(broadcaster.dataOn(chan)).toContain('Waiting: 2 merges ahead of yours');
    expect(
      broadcaster.payloadsOn(chan).find((p) => p.data === 'Waiting: 1 merge ahead of yours'),
    ).toMatchObject({ state: 'queued', percent: null });
    gate.open();
    expect((await Promise.all([first, second, third])).map((j) => j.status)).toEqual([
      'succeeded',
      'succeeded',
      'succeeded',
    ]);
    const data = broadcaster.dataOn(chan);
    // J3 moved up to one ahead once J1 finished, before it started itself.
    expect(data.lastIndexOf('Waiting: 1 merge ahead of yours')).toBeGreaterThan(
      data.indexOf('Waiting: 2 merges ahead of yours'),
    );
    expect(data.at(-1)).toBe('100');
  });

  it('a waiting job repeats its place, so a browser that subscribed late still learns it', async () => {
    const timers = new Map<number, () => void>();
    let next = 0;
    const handClock: Clock = {
      now: () => 0,
      setTimeout: (fn) => (timers.set(++next, fn), next),
      clearTimeout: (id) => timers.delete(id as number),
    };
    const gate = deferred();
    const { merge, calls } = scriptedMerge({ gate: () => gate.promise });
    const q = queue(merge, 1, handClock);
    const first = run(q, 'J1', ['item-S1-0']);
    const second = run(q, 'J2', ['item-S1-0']);
    await startedMerging(calls);
    const waiting = () => broadcaster.dataOn(chan).filter((d) => d.startsWith('Waiting'));
    const fireAll = async () => {
      const due = [...timers.entries()];
      timers.clear();
      for (const [, fn] of due) fn();
      await tick();
    };
    await tick();
    expect(waiting()).toEqual(['Waiting: 1 merge ahead of yours']);
    await fireAll();
    expect(waiting()).toEqual(['Waiting: 1 merge ahead of yours', 'Waiting: 1 merge ahead of yours']);
    gate.open();
    await Promise.all([first, second]);
    await fireAll();
    expect(waiting()).toHaveLength(2);
  });

  it('a refused input fails the job with a message naming the original file, leaving no result or temp file', async () => {
    const { merge } = scriptedMerge({
      failWith: (c: MergeCall) =>
        new InputError(c.opts.displayNames![1], 'not-audio', 'not audio (no audio stream)', 1),
    });
    const failures: JobEvent[] = [];
    const q = queue(merge);
    q.events.on((e) => e.type === 'failed' && failures.push(e));
    const done = await run(q, 'J1', ['item-S1-0', 'item-S1-1']);
    expect(done).toMatchObject({
      status: 'failed',
      error: 'Could not merge: notes.txt is not usable audio',
      percent: null,
    });
    expect(failures).toEqual([
      expect.objectContaining({ code: 'not-audio', retryable: false, message: done.error }),
    ]);
    expect(broadcaster.dataOn(chan).at(-1)).toBe(done.error);
    expect(broadcaster.payloadsOn(chan).at(-1)).toMatchObject({ state: 'failed', percent: null });
    expect(store.results).toEqual([]);
    expect(await filesUnder(path.join(root, 'results'))).toEqual([]);
    expect(await filesUnder(storage.tmpDir)).toEqual([]);
  });

  it('an internal failure is recorded without leaking details, and may be retried', async () => {
    const { merge } = scriptedMerge({ failWith: () => new Error('EACCES /secret/path') });
    const q = queue(merge);
    const failures: JobEvent[] = [];
    q.events.on((e) => e.type === 'failed' && failures.push(e));
    expect(await run(q, 'J1', ['item-S1-0'])).toMatchObject({
      status: 'failed',
      error: ERRORS.mergeFailed.message,
    });
    expect(failures).toEqual([expect.objectContaining({ code: 'mergeFailed', retryable: true })]);
  });

  it('a merge that fills the disk fails with "The server\'s disk is full" and leaves nothing behind', async () => {
    const enospc = Object.assign(new Error('write'), { code: 'ENOSPC' });
    const { merge } = scriptedMerge({ failWith: () => new Error('cannot write x', { cause: enospc }) });
    const failures: JobEvent[] = [];
    const q = queue(merge);
    q.events.on((e) => e.type === 'failed' && failures.push(e));
    const done = await run(q, 'J1', ['item-S1-0']);
    expect(done).toMatchObject({ status: 'failed', error: "The server's disk is full" });
    expect(failures).toEqual([expect.objectContaining({ code: 'disk-full', retryable: true })]);
    expect(broadcaster.dataOn(chan).at(-1)).toBe("The server's disk is full");
    expect(store.results).toEqual([]);
    expect(await filesUnder(path.join(root, 'results'))).toEqual([]);
    expect(await filesUnder(storage.tmpDir)).toEqual([]);
  });

  it('a database that cannot record the job (disk full) still tells the browser why, and answers', async () => {
    const { merge, calls } = scriptedMerge();
    store.updateJob = async () => {
      throw Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL' });
    };
    const q = queue(merge);
    const { finished } = await q.enqueue(dataOf(await record('J1', ['item-S1-0'])));
    expect(await finished).toEqual({
      state: 'failed',
      message: "The server's disk is full",
      code: 'disk-full',
    });
    expect(calls).toHaveLength(0);
    expect(broadcaster.dataOn(chan)).toEqual(["The server's disk is full"]);
  });

  it('an item deleted before the job starts fails it without calling the engine', async () => {
    const { merge, calls } = scriptedMerge();
    expect(await run(queue(merge), 'J1', ['item-S1-0', 'gone'])).toMatchObject({
      status: 'failed',
      error: ERRORS.itemGone.message,
    });
    expect(calls).toHaveLength(0);
  });

  it('cancel stops a running merge: the job ends cancelled, with no result and no temp file', async () => {
    const { merge, calls } = scriptedMerge({ gate: () => new Promise(() => {}) });
    const q = queue(merge);
    const { finished } = await q.enqueue(dataOf(await record('J1', ['item-S1-0'], { requestId: 'r1' })));
    await startedMerging(calls);
    expect(await q.cancel('J1')).toBe(true);
    expect(await finished).toEqual({ state: 'cancelled', message: CANCELLED_MESSAGE });
    expect(calls[0].opts.signal!.aborted).toBe(true);
    expect(await store.getJob('J1')).toMatchObject({ status: 'cancelled', error: CANCELLED_MESSAGE });
    expect(broadcaster.payloadsOn(chan).at(-1)).toEqual({
      data: CANCELLED_MESSAGE,
      requestId: 'r1',
      state: 'cancelled',
      percent: null,
      code: 'cancelled',
    });
    expect(store.results).toEqual([]);
    expect(await filesUnder(storage.tmpDir)).toEqual([]);
    expect(await q.cancel('J1')).toBe(false);
  });

  it('cancel takes a waiting merge out of line: it never starts, and the one behind moves up', async () => {
    const gate = deferred();
    const { merge, calls } = scriptedMerge({ gate: () => gate.promise });
    const q = queue(merge, 1);
    const first = run(q, 'J1', ['item-S1-0']);
    const second = run(q, 'J2', ['item-S1-1']);
    const third = run(q, 'J3', ['item-S1-2']);
    await startedMerging(calls);
    await tick();
    expect(await q.cancel('J2')).toBe(true);
    expect((await second).status).toBe('cancelled');
    await tick();
    const data = broadcaster.dataOn(chan);
    expect(data.slice(data.indexOf('Waiting: 2 merges ahead of yours') + 1)).toContain(
      'Waiting: 1 merge ahead of yours',
    );
    // The place in line also goes as a number, for a client that words it in its own language.
    expect(broadcaster.payloadsOn(chan)).toContainEqual(
      expect.objectContaining({ state: 'queued', code: 'queued', ahead: 1 }),
    );
    expect(broadcaster.payloadsOn(chan)).toContainEqual({
      data: CANCELLED_MESSAGE,
      requestId: null,
      state: 'cancelled',
      percent: null,
      code: 'cancelled',
    });
    gate.open();
    expect((await Promise.all([first, third])).map((j) => j.status)).toEqual(['succeeded', 'succeeded']);
    expect(calls.map((c) => c.opts.displayNames)).toEqual([['intro.mp3'], ['outro.wav']]);
    expect(await q.cancel('nope')).toBe(false);
  });

  it("a job's changes land in order even when the store is slow: a cancelled waiting job stays cancelled", async () => {
    // A store (on the network, say) that is slow to write the waiting text.
    const write = store.updateJob.bind(store);
    const writes: Promise<void>[] = [];
    store.updateJob = (id, patch) => {
      const slow = patch.statusText?.startsWith('Waiting')
        ? new Promise((r) => setTimeout(r, 20))
        : Promise.resolve();
      const done = slow.then(() => write(id, patch));
      writes.push(done);
      return done;
    };
    const gate = deferred();
    const { merge, calls } = scriptedMerge({ gate: () => gate.promise });
    const q = queue(merge, 1);
    const first = run(q, 'J1', ['item-S1-0']);
    await startedMerging(calls);
    const { finished } = await q.enqueue(dataOf(await record('J2', ['item-S1-1'])));
    expect(await q.cancel('J2')).toBe(true);
    await finished;
    await Promise.all(writes);
    expect(await store.getJob('J2')).toMatchObject({ status: 'cancelled', statusText: CANCELLED_MESSAGE });
    expect(broadcaster.payloadsOn(chan).at(-1)).toMatchObject({ state: 'cancelled' });
    gate.open();
    await first;
  });

  it('recover fails jobs a dead process left running and removes their files', async () => {
    await record('J1', ['item-S1-0'], { status: 'running', startedAt: 1 });
    await record('J2', ['item-S1-0']);
    await mkdir(path.join(storage.tmpDir, 'job-J1'), { recursive: true });
    await writeFile(path.join(storage.tmpDir, 'job-J1', 'merged.mp3'), 'half');
    await mkdir(path.join(storage.tmpDir, 'job-old'), { recursive: true });
    await mkdir(storage.resultsDir('S1'), { recursive: true });
    await writeFile(path.join(storage.resultsDir('S1'), 'J1.mp3'), 'moved but never recorded');
    await writeFile(path.join(storage.resultsDir('S1'), 'J2.m4b'), 'in any format');
    await writeFile(path.join(storage.resultsDir('S1'), 'J1-cover.png'), 'and its cover');
    // J3 had its result stored just before the crash: it is complete.
    await record('J3', ['item-S1-0'], { status: 'running' });
    await store.addResult({
      id: 'J3',
      sid: 'S1',
      jobId: 'J3',
      file: 'J3.mp3',
      downloadName: 'm.mp3',
      format: 'mp3',
      duration: 1,
      size: 1,
      sources: ['intro.mp3'],
      chapters: [],
      details: {},
      cover: null,
      createdAt: 1,
    });
    await writeFile(path.join(storage.resultsDir('S1'), 'J3.mp3'), 'x');

    await queue(scriptedMerge().merge).recover();
    expect(await store.getJob('J1')).toMatchObject({
      status: 'failed',
      error: INTERRUPTED_MESSAGE,
      statusText: INTERRUPTED_MESSAGE,
    });
    expect(await store.getJob('J2')).toMatchObject({ status: 'failed', error: INTERRUPTED_MESSAGE });
    expect(await store.getJob('J3')).toMatchObject({ status: 'succeeded', resultId: 'J3' });
    expect(await filesUnder(storage.tmpDir)).toEqual([]);
    expect(await filesUnder(storage.resultsDir('S1'))).toEqual(['J3.mp3']);
  });

  it('shutdown lets a running merge finish, fails the waiting one, and refuses new work', async () => {
    const gate = deferred();
    const { merge } = scriptedMerge({ gate: () => gate.promise });
    const q = queue(merge, 1);
    const first = run(q, 'J1', ['item-S1-0']);
    const second = run(q, 'J2', ['item-S1-0']);
    await tick();
    const stopping = q.shutdown(60_000);
    expect(await second).toMatchObject({ status: 'failed', error: SHUTDOWN_MESSAGE });
    await expect(q.enqueue(dataOf(await record('J3', ['item-S1-0'])))).rejects.toBeInstanceOf(
      QueueClosedError,
    );
    expect(await store.getJob('J3')).toMatchObject({ status: 'failed', error: SHUTDOWN_MESSAGE });
    gate.open();
    await stopping;
    expect((await first).status).toBe('succeeded');
  });

  it('shutdown aborts a merge that outlives the grace period and records why', async () => {
    const { merge, calls } = scriptedMerge({ gate: () => new Promise(() => {}) });
    const q = queue(merge, 1);
    const running = run(q, 'J1', ['item-S1-0']);
    await startedMerging(calls);
    await q.shutdown(0);
    expect(calls[0].opts.signal!.aborted).toBe(true);
    expect(await running).toMatchObject({ status: 'failed', error: SHUTDOWN_MESSAGE });
    expect(store.results).toEqual([]);
    expect(await filesUnder(storage.tmpDir)).toEqual([]);
  });

  it("says in the end-of-merge line which of the engine's fast paths fell back", async () => {
    const lines: Array<Record<string, unknown>> = [];
    const log = pino({ level: 'info' }, { write: (line: string) => lines.push(JSON.parse(line)) });
    const { merge } = scriptedMerge();
    const fallback = { stage: 'aac-copy' as const, reason: 'the output holds 9 packets of 10' };
    const processor = createMergeProcessor({
      store,
      files: storage,
      tools: fakeTools,
      merge: async (inputs, output, opts) => ({
        ...(await merge(inputs, output, opts)),
        fallbacks: [fallback],
      }),
      engineConcurrency: 1,
    });
    const q = createInProcessQueue({
      store,
      files: storage,
      processor,
      concurrency: 1,
      log,
      clock: racingClock,
    });
    expect((await run(q, 'J1', ['item-S1-0'])).status).toBe('succeeded');
    const ended = lines.find((l) => l.msg === 'merge succeeded');
    expect(ended).toMatchObject({ job: 'J1', fallbacks: [fallback] });
    await q.shutdown();
  });
});
