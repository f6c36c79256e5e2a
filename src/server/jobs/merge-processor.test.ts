import { mkdir, readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { tempDir } from '../../../test/support/audio-fixtures.js';
import { diskStorage, fakeTools, item, job, scriptedMerge } from '../../../test/support/job-kit.js';
import type { ItemRow } from '../data/store.js';
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

/** Session `sid` holding uploads of these names (stored as stored1.mp3, stored2.mp3, ...): its items. */
async function sessionHolding(store: MemoryStore, sid: string, names: string[]): Promise<ItemRow[]> {
  await store.createSession(`hash-${sid}`, sid, 'csrf', 0);
  await mkdir(path.join(dir.dir, 'uploads', sid), { recursive: true });
  const items = names.map((name, i) => item(sid, i + 1, name));
  for (const one of items) {
    await store.addItemIfUnder(one, 10);
    await writeFile(path.join(dir.dir, 'uploads', sid, `${one.newfilename}.mp3`), 'x');
  }
  return items;
}

const jobData = (jobId: string, sid: string, itemIds: string[]) => ({
  jobId,
  sid,
  appid: 'app',
  itemIds,
  options: {},
  requestId: null,
});

/** One run of the processor on that job, unwatched and never aborted. */
const runOn = (processor: ReturnType<typeof createMergeProcessor>, data: ReturnType<typeof jobData>) =>
  processor(data, () => {}, new AbortController().signal);

describe('the merge processor', () => {
  it('gives each result of a session its own download name, also for merges that end together', async () => {
    const store = new MemoryStore();
    const files = diskStorage(dir.dir);
    const [a] = await sessionHolding(store, 's1', ['a.mp3']);
    const [b] = await sessionHolding(store, 's2', ['b.mp3']);
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
    await store.addJob(job('k1', 's2', [b.id]));
    const run = (jobId: string) => runOn(processor, jobData(jobId, 's1', [a.id]));
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
    await runOn(processor, jobData('k1', 's2', [b.id]));
    expect((await store.listResults('s2')).map((r) => r.downloadName)).toEqual([
      'merged-2026-11-22-1430.mp3',
    ]);
  });

  it('names the file whose kept span the engine finds outside it, and does not retry', async () => {
    const store = new MemoryStore();
    const [a, b] = await sessionHolding(store, 's1', ['intro.mp3', 'long book.flac']);
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
    const failed = await runOn(processor, jobData('j1', 's1', [a.id, b.id])).catch((err: unknown) => err);
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
    const [a] = await sessionHolding(store, 's1', ['a.mp3']);
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
    await expect(runOn(processor, jobData('j1', 's1', [a.id]))).rejects.toThrow('the bucket is gone');
    expect(stored).toEqual(['j1-cover.png', 'j1.mp3']);
    expect(await store.listResults('s1')).toEqual([]);
    expect(await readdir(path.join(dir.dir, 'results', 's1')).catch(() => [])).toEqual([]);
  });

  it('removes what a run killed between storing and recording left, once a later run records the result', async () => {
    const store = new MemoryStore();
    const files = diskStorage(dir.dir);
    const [a] = await sessionHolding(store, 's1', ['a.mp3']);
    await store.addJob(job('j1', 's1', [a.id]));
    const { merge } = scriptedMerge({ cover: true });
    const data = jobData('j1', 's1', [a.id]);
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
    void runOn(processorWith(dying), data);
    await reachedRecord;
    const dead = await readdir(resultsDir);
    expect(dead).toHaveLength(2);
    // Another merge's unrecorded file in the same session is not this job's to remove.
    await writeFile(path.join(resultsDir, 'j10-0badf00d.mp3'), 'x');

    // BullMQ runs the merge again: it records its own file and cover, and the dead run's go.
    await runOn(processorWith(store), data);
    const [result] = await store.listResults('s1');
    expect(result.cover).toBeTruthy();
    expect((await readdir(resultsDir)).sort()).toEqual(
      [result.file, result.cover!, 'j10-0badf00d.mp3'].sort(),
    );
    expect(dead).not.toContain(result.file);
  });
});

describe('where a merge stands, as the processor tells it', () => {
  it('passes the engine stage and file on, adds a time left that falls at a steady pace, then stores', async () => {
    const store = new MemoryStore();
    const files = diskStorage(dir.dir);
    const items = await sessionHolding(store, 's1', ['a.mp3', 'b.mp3', 'c.mp3', 'd.mp3']);
    const { merge } = scriptedMerge({ steps: [0, 10, 20, 30, 40, 50, 60, 70, 80, 90, 100] });
    // Each reading of the clock is a second later: the engine's steps come at 10 % a second.
    let now = 0;
    const processor = createMergeProcessor({
      store,
      files,
      tools: fakeTools,
      merge,
      clock: clockAt(() => (now += 1000)),
      engineConcurrency: 1,
    });
    await store.addJob(
      job(
        'J1',
        's1',
        items.map((i) => i.id),
      ),
    );
    const told: string[] = [];
    const lefts: Array<number | null> = [];
    await processor(
      jobData(
        'J1',
        's1',
        items.map((i) => i.id),
      ),
      (percent, _text, d) => {
        told.push(`${percent} ${d?.stage} ${d?.file}/${d?.files}`);
        if (d?.stage === 'encoding') lefts.push(d.secondsLeft);
      },
      new AbortController().signal,
    );
    expect(told[0]).toBe('0 encoding 1/4');
    expect(told.at(-2)).toBe('100 writing 4/4');
    expect(told.at(-1)).toBe('100 storing 4/4');
    // Unknown at the first reading; then at 10 % a second, 9, 8, ... seconds left.
    expect(lefts[0]).toBeNull();
    const known = lefts.slice(1) as number[];
    expect(known.length).toBeGreaterThan(5);
    for (let i = 1; i < known.length; i++) expect(known[i]).toBeLessThan(known[i - 1]);
    expect(known.at(-1)).toBeLessThanOrEqual(2);
  });
});
