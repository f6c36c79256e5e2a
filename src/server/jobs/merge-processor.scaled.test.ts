// A merge that runs twice at once (a worker that lost touch and the one that took over) on the
// scaled backends: each run works in its own scratch folder and uploads its own objects (its file
// and its cover); the first to record its result wins, the other deletes its objects, and one
// result is listed.
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { ListObjectsV2Command } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { tempDir } from '../../../test/support/audio-fixtures.js';
import { fakeTools, item, job, scriptedMerge } from '../../../test/support/job-kit.js';
import { freshDatabase, type TestDatabase } from '../../../test/support/pg-db.js';
import { until } from '../../../test/support/until.js';
import { openPgStore } from '../data/postgres/pg-store.js';
import { createS3Client, createS3Objects } from '../files/s3/s3-objects.js';
import { createS3Storage } from '../files/s3/s3-storage.js';
import { createMergeProcessor } from './merge-processor.js';

let db: TestDatabase;
let dir: { dir: string; cleanup(): Promise<void> };
beforeAll(async () => {
  [db, dir] = await Promise.all([freshDatabase(inject('databaseUrl')), tempDir('am-twice-')]);
});
afterAll(async () => {
  await Promise.allSettled([db?.drop(), dir?.cleanup()]);
});

describe('a merge that ran twice', () => {
  it('lists one result, keeps its file and cover only, and both runs report that result', async () => {
    const s3 = { ...inject('s3'), forcePathStyle: true };
    const store = await openPgStore(db.url);
    const objects = createS3Objects(s3);
    const client = createS3Client(s3);
    const sid = `twice${Date.now()}`;
    try {
      await store.createSession(`h-${sid}`, sid, 'c', 1);
      const items = [item(sid, 1, 'a.mp3'), item(sid, 2, 'b.mp3')];
      for (const i of items) {
        await store.addItemIfUnder(i, 10);
        const local = path.join(dir.dir, `${i.id}.mp3`);
        await writeFile(local, `audio of ${i.filename}`);
        await objects.putFile(`${sid}/uploads/${i.newfilename}.mp3`, local);
      }
      await store.addJob(
        job(
          'job-2x',
          sid,
          items.map((i) => i.id),
        ),
      );

      let open!: () => void;
      const gate = new Promise<void>((r) => (open = r));
      const { merge, calls } = scriptedMerge({ gate: () => gate, cover: true });
      const runs = ['worker-1', 'worker-2'].map((name) =>
        createMergeProcessor({
          store,
          files: createS3Storage(objects, path.join(dir.dir, name)),
          tools: fakeTools,
          merge,
          engineConcurrency: 1,
          freshPerRun: true,
        }),
      );
      const data = {
        jobId: 'job-2x',
        sid,
        appid: 'app',
        itemIds: items.map((i) => i.id),
        options: {},
        requestId: null,
      };
      const both = runs.map((run) => run(data, () => undefined, new AbortController().signal));
      await until(() => calls.length >= 2, { timeoutMs: 10_000, what: 'both runs calling the engine' });
      expect(new Set(calls.map((c) => path.dirname(c.output))).size).toBe(2);
      open();

      const outcomes = await Promise.all(both);
      expect(outcomes.map((o) => o.resultId)).toEqual(['job-2x', 'job-2x']);
      const results = await store.listResults(sid);
      expect(results).toHaveLength(1);
      const listed = await client.send(
        new ListObjectsV2Command({ Bucket: s3.bucket, Prefix: `${sid}/results/` }),
      );
      expect(results[0].cover).toMatch(/^job-2x-[0-9a-f]+-cover\.png$/);
      expect((listed.Contents ?? []).map((o) => o.Key).sort()).toEqual(
        [results[0].cover, results[0].file].map((name) => `${sid}/results/${name}`).sort(),
      );
      expect(await objects.head(`${sid}/uploads/${items[0].newfilename}.mp3`)).toBeDefined();
    } finally {
      client.destroy();
      objects.close();
      await store.close();
    }
  });
});
