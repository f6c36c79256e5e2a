import { mkdir, readFile, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { InputError } from '../../engine/errors.js';
import { statusChannel } from '../../shared/types.js';
import { tempDir } from '../../../test/support/audio-fixtures.js';
import { MemoryStore } from '../../../test/support/memory-store.js';
import { AppError } from '../http/errors.js';
import type { Storage } from '../files/storage.js';
import { createJobRunner, type JobRunner } from './job-runner.js';
import { DISK_FULL_MESSAGE, INTERNAL_MESSAGE, INTERRUPTED_MESSAGE, MISSING_MESSAGE, SHUTDOWN_MESSAGE } from './job-messages.js';
import type { Clock } from './progress-throttle.js';
import {
  diskStorage, fakeTools, filesUnder, item, job, RecordingRealtime, scriptedMerge, silentLog, until, type MergeCall,
} from '../../../test/support/job-kit.js';

/** Time jumps a second per reading, so the throttle never holds anything back. */
const racingClock: Clock = (() => {
  let t = 0;
  return { now: () => (t += 1000), setTimeout: (fn) => setTimeout(fn, 0), clearTimeout: (h) => clearTimeout(h as NodeJS.Timeout) };
})();

let root: string;
let cleanup: () => Promise<void>;
let store: MemoryStore;
let storage: Storage;
let realtime: RecordingRealtime;
const chan = statusChannel('app', 'S1');

beforeEach(async () => {
  ({ dir: root, cleanup } = await tempDir('jobs-'));
  store = new MemoryStore();
  storage = diskStorage(root);
  realtime = new RecordingRealtime();
  ['intro.mp3', 'notes.txt', 'outro.wav'].forEach((name, n) => store.addItem(item('S1', n, name)));
});
afterEach(() => cleanup());

function runner(merge: ReturnType<typeof scriptedMerge>['merge'], concurrency = 1): JobRunner {
  return createJobRunner({ store, storage, realtime, tools: fakeTools, concurrency, log: silentLog, merge, clock: racingClock });
}

function record(id: string, ids: string[]) {
  const j = job(id, 'S1', ids);
  store.addJob(j);
  return j;
}

function deferred() {
  let open!: () => void;
  const promise = new Promise<void>((r) => (open = r));
  return { promise, open };
}

describe('job runner', () => {
  it('merges the uploads in the job order, stores the result, and ends its events with "100"', async () => {
    const { merge, calls } = scriptedMerge();
    const j = record('J1', ['item-S1-2', 'item-S1-0', 'item-S1-2']);
    const done = await runner(merge).run(j);

    expect(done.status).toBe('succeeded');
    expect(store.jobHistory.map((h) => h.patch.status)).toEqual(['running', 'succeeded']);
    expect(calls[0].inputs).toEqual(['stored2.mp3', 'stored0.mp3', 'stored2.mp3'].map((f) => path.join(root, 'uploads', 'S1', f)));
    expect(calls[0].opts.displayNames).toEqual(['outro.wav', 'intro.mp3', 'outro.wav']);
    expect(calls[0].opts.concurrency).toBe(os.availableParallelism());
    const [result] = store.listResults('S1');
    expect(result).toMatchObject({ id: done.resultId, jobId: 'J1', sources: ['outro.wav', 'intro.mp3', 'outro.wav'], duration: 3 });
    expect(result.downloadName).toMatch(/^merged-\d{4}-\d\d-\d\d-\d{4}\.mp3$/);
    const bytes = await readFile(storage.resultPath(result));
    expect(bytes.length).toBe(result.size);
    expect(bytes.toString()).toBe(calls[0].inputs.join('\n'));
    expect(realtime.dataOn(chan)).toEqual(['0', '25', '50', '75', '99', '100']);
    expect(await filesUnder(storage.tmpDir)).toEqual([]);
  });

  it('a second merge queued behind a first gets a "Waiting" status, then runs', async () => {
    const gate = deferred();
    const { merge, calls } = scriptedMerge({ gate: () => gate.promise });
    const jobs = runner(merge, 1);
    const first = jobs.run(record('J1', ['item-S1-0']));
    const second = jobs.run(record('J2', ['item-S1-2']));
    const third = jobs.run(record('J3', ['item-S1-0']));
    await until(() => calls.length > 0);
    await new Promise((r) => setImmediate(r));
    expect(calls).toHaveLength(1);
    expect(store.getJob('J2')!.status).toBe('queued');
    expect(realtime.dataOn(chan)).toContain('Waiting: 1 merge ahead of yours');
    expect(realtime.dataOn(chan)).toContain('Waiting: 2 merges ahead of yours');
    gate.open();
    expect((await Promise.all([first, second, third])).map((j) => j.status)).toEqual(['succeeded', 'succeeded', 'succeeded']);
    const data = realtime.dataOn(chan);
    // J3 moved up to one ahead once J1 finished, before it started itself.
    expect(data.lastIndexOf('Waiting: 1 merge ahead of yours')).toBeGreaterThan(data.indexOf('Waiting: 2 merges ahead of yours'));
    expect(data.at(-1)).toBe('100');
  });

  it('a merge that fills the disk fails with "The server\'s disk is full" and leaves nothing behind', async () => {
    const { merge } = scriptedMerge({ failWith: () => new Error('cannot write x', { cause: Object.assign(new Error('w'), { code: 'ENOSPC' }) }) });
    const done = await runner(merge).run(record('J1', ['item-S1-0']));
    expect(done).toMatchObject({ status: 'failed', error: DISK_FULL_MESSAGE });
    expect(realtime.dataOn(chan).at(-1)).toBe("The server's disk is full");
    expect(await filesUnder(storage.tmpDir)).toEqual([]);
    expect(await filesUnder(storage.resultsDir('S1'))).toEqual([]);
  });

  it('a database that cannot record the job (disk full) still tells the browser why, and answers', async () => {
    const { merge, calls } = scriptedMerge();
    const full = () => {
      throw Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL' });
    };
    store.updateJob = full;
    const done = await runner(merge).run(record('J1', ['item-S1-0']));
    expect(calls).toHaveLength(0);
    expect(done).toMatchObject({ status: 'failed', error: DISK_FULL_MESSAGE });
    expect(realtime.dataOn(chan)).toEqual([DISK_FULL_MESSAGE]);
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
    const jobs = createJobRunner({ store, storage, realtime, tools: fakeTools, concurrency: 1, log: silentLog, merge, clock: handClock });
    const first = jobs.run(record('J1', ['item-S1-0']));
    const second = jobs.run(record('J2', ['item-S1-0']));
    await until(() => calls.length > 0);
    const waiting = () => realtime.dataOn(chan).filter((d) => d.startsWith('Waiting'));
    const fireAll = () => {
      const due = [...timers.entries()];
      timers.clear();
      for (const [, fn] of due) fn();
    };
    expect(waiting()).toEqual(['Waiting: 1 merge ahead of yours']);
    fireAll();
    expect(waiting()).toEqual(['Waiting: 1 merge ahead of yours', 'Waiting: 1 merge ahead of yours']);
    gate.open();
    await Promise.all([first, second]);
    fireAll();
    expect(waiting()).toHaveLength(2);
  });

  it('a refused input fails the job with a message naming the original file, leaving no result or temp file', async () => {
    const { merge } = scriptedMerge({
      failWith: (c: MergeCall) => new InputError(c.opts.displayNames![1], 'not audio (no audio stream)', 1),
    });
    const done = await runner(merge).run(record('J1', ['item-S1-0', 'item-S1-1']));
    expect(done.status).toBe('failed');
    expect(done.error).toBe('Could not merge: notes.txt is not audio (no audio stream)');
    expect(realtime.dataOn(chan).at(-1)).toBe(done.error);
    expect(store.results).toEqual([]);
    expect(await filesUnder(path.join(root, 'results'))).toEqual([]);
    expect(await filesUnder(storage.tmpDir)).toEqual([]);
  });

  it('an internal failure is recorded without leaking details', async () => {
    const { merge } = scriptedMerge({ failWith: () => new Error('EACCES /secret/path') });
    const done = await runner(merge).run(record('J1', ['item-S1-0']));
    expect(done).toMatchObject({ status: 'failed', error: INTERNAL_MESSAGE });
  });

  it('an item deleted before the job starts fails it without calling the engine', async () => {
    const { merge, calls } = scriptedMerge();
    const done = await runner(merge).run(record('J1', ['item-S1-0', 'gone']));
    expect(done).toMatchObject({ status: 'failed', error: MISSING_MESSAGE });
    expect(calls).toHaveLength(0);
  });

  it('recoverInterrupted fails jobs a dead process left running and removes their files', async () => {
    record('J1', ['item-S1-0']);
    store.updateJob('J1', { status: 'running', startedAt: 1 });
    record('J2', ['item-S1-0']);
    await mkdir(path.join(storage.tmpDir, 'job-J1'), { recursive: true });
    await writeFile(path.join(storage.tmpDir, 'job-J1', 'merged.mp3'), 'half');
    await mkdir(path.join(storage.tmpDir, 'job-old'), { recursive: true });
    await mkdir(storage.resultsDir('S1'), { recursive: true });
    await writeFile(path.join(storage.resultsDir('S1'), 'J1.mp3'), 'moved but never recorded');
    // J3 had its result stored just before the crash: it is complete.
    record('J3', ['item-S1-0']);
    store.updateJob('J3', { status: 'running' });
    store.addResult({ id: 'J3', sid: 'S1', jobId: 'J3', file: 'J3.mp3', downloadName: 'm.mp3', duration: 1, size: 1, sources: ['intro.mp3'], createdAt: 1 });
    await writeFile(path.join(storage.resultsDir('S1'), 'J3.mp3'), 'x');

    await runner(scriptedMerge().merge).recoverInterrupted();
    expect(store.getJob('J1')).toMatchObject({ status: 'failed', error: INTERRUPTED_MESSAGE });
    expect(store.getJob('J2')).toMatchObject({ status: 'failed', error: INTERRUPTED_MESSAGE });
    expect(store.getJob('J3')).toMatchObject({ status: 'succeeded', resultId: 'J3' });
    expect(await filesUnder(storage.tmpDir)).toEqual([]);
    expect(await filesUnder(storage.resultsDir('S1'))).toEqual(['J3.mp3']);
  });

  it('shutdown lets a running merge finish, fails the waiting one, and refuses new work', async () => {
    const gate = deferred();
    const { merge } = scriptedMerge({ gate: () => gate.promise });
    const jobs = runner(merge, 1);
    const first = jobs.run(record('J1', ['item-S1-0']));
    const second = jobs.run(record('J2', ['item-S1-0']));
    await new Promise((r) => setImmediate(r));
    const stopping = jobs.shutdown(60_000);
    expect(await second).toMatchObject({ status: 'failed', error: SHUTDOWN_MESSAGE });
    await expect(jobs.run(record('J3', ['item-S1-0']))).rejects.toBeInstanceOf(AppError);
    expect(store.getJob('J3')).toMatchObject({ status: 'failed', error: SHUTDOWN_MESSAGE });
    gate.open();
    await stopping;
    expect((await first).status).toBe('succeeded');
  });

  it('shutdown aborts a merge that outlives the grace period and records why', async () => {
    const { merge, calls } = scriptedMerge({ gate: () => new Promise(() => {}) });
    const jobs = runner(merge, 1);
    const running = jobs.run(record('J1', ['item-S1-0']));
    await until(() => calls.length > 0);
    await jobs.shutdown(0);
    expect(calls[0].opts.signal!.aborted).toBe(true);
    expect(await running).toMatchObject({ status: 'failed', error: SHUTDOWN_MESSAGE });
    expect(store.results).toEqual([]);
    expect(await filesUnder(storage.tmpDir)).toEqual([]);
  });
});
