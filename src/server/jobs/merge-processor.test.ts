import { mkdir, readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { tempDir } from '../../../test/support/audio-fixtures.js';
import { diskStorage, fakeTools, item, job, scriptedMerge } from '../../../test/support/job-kit.js';
import { MemoryStore } from '../../../test/support/memory-store.js';
import { clockAt } from '../../../test/support/clock-at.js';
import { TrimError } from '../../engine/index.js';
import { JobFailure } from './job-errors.js';
import { createMergeProcessor } from './merge-processor.js';

let dir: { dir: string; cleanup: () => Promise<void> };
beforeEach(async () => {
  dir = await tempDir('merge-processor-');
});
afterEach(async () => {
  await dir.cleanup();
});

describe('the merge processor', () => {
  it('gives each result of a session its own download name, also for merges that end together', async () => {
    const store = new MemoryStore();
    const files = diskStorage(dir.dir);
    for (const sid of ['s1', 's2']) await store.createSession(`hash-${sid}`, sid, 'csrf', 0);
    const a = item('s1', 1, 'a.mp3');
    await store.addItemIfUnder(a, 10);
    await mkdir(path.join(dir.dir, 'uploads', 's1'), { recursive: true });
    await writeFile(path.join(dir.dir, 'uploads', 's1', 'stored1.mp3'), 'x');
    const { merge } = scriptedMerge();
    // Every merge ends in the same minute.
    const processor = createMergeProcessor({
      store,
      files,
      tools: fakeTools,
      merge,
      clock: clockAt(() => new Date(2026, 10, 22, 14, 30, 5).getTime()),
      engineConcurrency: 1,
    });
    for (const id of ['j1', 'j2', 'j3', 'j4']) await store.addJob(job(id, 's1', [a.id]));
    await store.addJob(job('k1', 's2', ['item-s2-1']));
    const run = (jobId: string) =>
      processor(
        { jobId, sid: 's1', appid: 'app', itemIds: [a.id], options: {}, requestId: null },
        () => {},
        new AbortController().signal,
      );
    await Promise.all([run('j1'), run('j2'), run('j3')]);
    await run('j4');
    const names = (await store.listResults('s1')).map((r) => r.downloadName).sort();
    expect(names).toEqual([
      'merged-2026-11-22-1430 (2).mp3',
      'merged-2026-11-22-1430 (3).mp3',
      'merged-2026-11-22-1430 (4).mp3',
      'merged-2026-11-22-1430.mp3',
    ]);
    // Another session may use the plain name.
    const b = item('s2', 1, 'b.mp3');
    await store.addItemIfUnder(b, 10);
    await mkdir(path.join(dir.dir, 'uploads', 's2'), { recursive: true });
    await writeFile(path.join(dir.dir, 'uploads', 's2', 'stored1.mp3'), 'x');
    await processor(
      { jobId: 'k1', sid: 's2', appid: 'app', itemIds: [b.id], options: {}, requestId: null },
      () => {},
      new AbortController().signal,
    );
    expect((await store.listResults('s2')).map((r) => r.downloadName)).toEqual([
      'merged-2026-11-22-1430.mp3',
    ]);
  });

  it('names the file whose kept span the engine finds outside it, and does not retry', async () => {
    const store = new MemoryStore();
    await store.createSession('hash-s1', 's1', 'csrf', 0);
    const [a, b] = [item('s1', 1, 'intro.mp3'), item('s1', 2, 'long book.flac')];
    for (const one of [a, b]) await store.addItemIfUnder(one, 10);
    await mkdir(path.join(dir.dir, 'uploads', 's1'), { recursive: true });
    for (const n of [1, 2]) await writeFile(path.join(dir.dir, 'uploads', 's1', `stored${n}.mp3`), 'x');
    await store.addJob(job('j1', 's1', [a.id, b.id]));
    // The engine's words name the stored path and the command line's trim: neither reaches the person.
    const { merge } = scriptedMerge({ failWith: () => new TrimError('--trim 1', 'ends past 1 s', 0, 1) });
    const processor = createMergeProcessor({
      store,
      files: diskStorage(dir.dir),
      tools: fakeTools,
      merge,
      engineConcurrency: 1,
    });
    const failed = await processor(
      { jobId: 'j1', sid: 's1', appid: 'app', itemIds: [a.id, b.id], options: {}, requestId: null },
      () => {},
      new AbortController().signal,
    ).catch((err: unknown) => err);
    expect(failed).toBeInstanceOf(JobFailure);
    expect(failed).toMatchObject({
      code: 'bad-trim',
      message: 'Could not merge: the kept span of long book.flac does not fit the file',
      file: 'long book.flac',
      retryable: false,
    });
  });

  it("leaves no cover behind when the result's file cannot be stored", async () => {
    const store = new MemoryStore();
    const disk = diskStorage(dir.dir);
    await store.createSession('hash-s1', 's1', 'csrf', 0);
    const a = item('s1', 1, 'a.mp3');
    await store.addItemIfUnder(a, 10);
    await mkdir(path.join(dir.dir, 'uploads', 's1'), { recursive: true });
    await writeFile(path.join(dir.dir, 'uploads', 's1', 'stored1.mp3'), 'x');
    await store.addJob(job('j1', 's1', [a.id]));
    // The engine embedded a cover and left its copy where it was asked to.
    const { merge } = scriptedMerge({ cover: true });
    // The bucket refuses the result's file (the cover went up just before it).
    const stored: string[] = [];
    const files = {
      ...disk,
      put: async (ref: Parameters<typeof disk.put>[0], local: string) => {
        stored.push(ref.name);
        if (ref.name.endsWith('.mp3')) throw new Error('the bucket is gone');
        return disk.put(ref, local);
      },
    };
    const processor = createMergeProcessor({ store, files, tools: fakeTools, merge, engineConcurrency: 1 });
    await expect(
      processor(
        { jobId: 'j1', sid: 's1', appid: 'app', itemIds: [a.id], options: {}, requestId: null },
        () => {},
        new AbortController().signal,
      ),
    ).rejects.toThrow('the bucket is gone');
    expect(stored).toEqual(['j1-cover.png', 'j1.mp3']);
    expect(await store.listResults('s1')).toEqual([]);
    expect(await readdir(path.join(dir.dir, 'results', 's1')).catch(() => [])).toEqual([]);
  });

  it('removes what a run killed between storing and recording left, once a later run records the result', async () => {
    const store = new MemoryStore();
    const files = diskStorage(dir.dir);
    await store.createSession('hash-s1', 's1', 'csrf', 0);
    const a = item('s1', 1, 'a.mp3');
    await store.addItemIfUnder(a, 10);
    await mkdir(path.join(dir.dir, 'uploads', 's1'), { recursive: true });
    await writeFile(path.join(dir.dir, 'uploads', 's1', 'stored1.mp3'), 'x');
    await store.addJob(job('j1', 's1', [a.id]));
    const { merge } = scriptedMerge({ cover: true });
    const data = { jobId: 'j1', sid: 's1', appid: 'app', itemIds: [a.id], options: {}, requestId: null };
    const processorWith = (s: MemoryStore) =>
      createMergeProcessor({
        store: s,
        files,
        tools: fakeTools,
        merge,
        engineConcurrency: 1,
        freshPerRun: true,
      });
    const resultsDir = path.join(dir.dir, 'results', 's1');

    // The first run stores its file and cover, and its process dies before the row is written.
    let stored!: () => void;
    const reachedRecord = new Promise<void>((resolve) => (stored = resolve));
    const dying = Object.assign(Object.create(store) as MemoryStore, {
      addResult: () => {
        stored();
        return new Promise<never>(() => {});
      },
    });
    void processorWith(dying)(data, () => {}, new AbortController().signal);
    await reachedRecord;
    const dead = await readdir(resultsDir);
    expect(dead).toHaveLength(2);
    // Another merge's unrecorded file in the same session is not this job's to remove.
    await writeFile(path.join(resultsDir, 'j10-0badf00d.mp3'), 'x');

    // BullMQ runs the merge again: it records its own file and cover, and the dead run's go.
    await processorWith(store)(data, () => {}, new AbortController().signal);
    const [result] = await store.listResults('s1');
    expect(result.cover).toBeTruthy();
    expect((await readdir(resultsDir)).sort()).toEqual(
      [result.file, result.cover!, 'j10-0badf00d.mp3'].sort(),
    );
    expect(dead).not.toContain(result.file);
  });
});
