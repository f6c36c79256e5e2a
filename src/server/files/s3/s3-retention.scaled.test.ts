// Retention on the scaled backends: an idle session's rows go from PostgreSQL and its objects
// from the bucket (results of runs that never recorded one included); a live session keeps both.
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { tempDir } from '../../../../test/support/audio-fixtures.js';
import { freshDatabase, type TestDatabase } from '../../../../test/support/pg-db.js';
import { openPgStore } from '../../data/postgres/pg-store.js';
import { contractItem } from '../../data/store.contract.js';
import { createS3Objects } from './s3-objects.js';
import { createS3Storage } from './s3-storage.js';
import { uploadRef, type FileRef } from '../storage.js';
import { createSweeper } from '../sweep.js';

let db: TestDatabase;
let dir: { dir: string; cleanup(): Promise<void> };
beforeAll(async () => {
  [db, dir] = await Promise.all([freshDatabase(inject('databaseUrl')), tempDir('am-retention-')]);
});
afterAll(async () => {
  await Promise.allSettled([db?.drop(), dir?.cleanup()]);
});

describe('retention with PostgreSQL and a bucket', () => {
  it("deletes an idle session's objects with its rows, and keeps a live session's", async () => {
    const store = await openPgStore(db.url);
    const objects = createS3Objects({ ...inject('s3'), forcePathStyle: true });
    const files = createS3Storage(objects, dir.dir);
    const HOUR = 3600_000;
    const now = 100 * HOUR;
    const sids = [`idle${Date.now()}`, `live${Date.now()}`];
    try {
      const refs: FileRef[] = [];
      for (const [n, sid] of sids.entries()) {
        await store.createSession(`hash-${sid}`, sid, 'csrf', n === 0 ? now - 30 * HOUR : now - HOUR);
        const item = contractItem(`item-${sid}`, { sid, newfilename: `stored${n}`, format: 'mp3' });
        await store.addItemIfUnder(item, 10);
        // An upload and a result file no row names (a run that died before recording it).
        for (const ref of [
          uploadRef(item),
          { area: 'results' as const, sid, name: `job-${n}-deadbeef.mp3` },
        ]) {
          const local = path.join(dir.dir, `${sid}-${ref.name}`);
          await writeFile(local, `bytes of ${ref.name}`);
          await files.put(ref, local);
          refs.push(ref);
        }
      }
      const sweeper = createSweeper({
        store,
        files,
        retentionHours: 24,
        intervalMs: 0,
        clock: { now: () => now },
        log: pino({ level: 'silent' }),
      });
      expect(await sweeper.sweepOnce()).toEqual([sids[0]]);

      expect(await store.sessionBySid(sids[0])).toBeUndefined();
      expect(await store.listItems(sids[0], 'app')).toEqual([]);
      for (const ref of refs)
        expect(await files.stat(ref), ref.sid + ref.name).toEqual(
          ref.sid === sids[0] ? undefined : expect.anything(),
        );
      expect((await store.listItems(sids[1], 'app')).map((i) => i.id)).toEqual([`item-${sids[1]}`]);
    } finally {
      objects.close();
      await store.close();
    }
  });
});
