// Moving an embedded installation: what a person had (session, uploads, a merged result) is all
// there afterwards, in PostgreSQL and in the bucket, byte for byte.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { makeTone, tempDir } from '../../../../test/support/audio-fixtures.js';
import { freshDatabase, type TestDatabase } from '../../../../test/support/pg-db.js';
import { listItems, openSession, postJson, startTestApp, upload } from '../../../../test/support/server-harness.js';
import { createDiskStorage } from '../../files/disk/disk-storage.js';
import { objectKey } from '../../files/s3/object-keys.js';
import { createS3Objects } from '../../files/s3/s3-objects.js';
import { resultRef, uploadRef } from '../../files/storage.js';
import { hashSecret } from '../../http/session.js';
import { migrateToPostgres } from './migrate-to-postgres.js';
import { openPgStore } from './pg-store.js';
import { openSqliteStore } from '../sqlite/sqlite-store.js';

let db: TestDatabase;
let data: { dir: string; cleanup(): Promise<void> };
beforeAll(async () => {
  db = await freshDatabase(inject('databaseUrl'));
  data = await tempDir('am-move-');
});
afterAll(async () => {
  await db?.drop();
  await data?.cleanup();
});

describe('migrate-to-postgres', () => {
  it("moves sessions, items in their order, merges and results, and their files, so the person's cookie still finds them", async () => {
    const dataDir = path.join(data.dir, 'data');
    const app = await startTestApp({ dataDir });
    const s = await openSession(app.app);
    const files = await Promise.all(
      ['a.mp3', 'b.mp3'].map((n, i) => makeTone(path.join(data.dir, n), { seconds: 1, frequency: 400 + 200 * i })),
    );
    expect((await upload(app.app, s, files.map((p) => ({ path: p })))).statusCode).toBe(200);
    const items = await listItems(app.app, s);
    const merged = await postJson(app.app, s, '/app/merge/mergemp3', { items: [items[1], items[0]].map((i) => ({ id: i.id })) });
    expect(merged.statusCode, merged.body).toBe(200);
    await app.close();
    // An earlier merge of the session that failed on one file: how it failed moves with it.
    const embedded = openSqliteStore(path.join(dataDir, 'audio-merge.sqlite'));
    const failed = 'Could not merge: a.mp3 is a damaged MP3 file';
    await embedded.addJob({
      ...(await embedded.latestJob(s.sid))!,
      id: 'failed-before', createdAt: 1, status: 'failed', resultId: null, error: failed, statusText: failed,
      errorCode: 'bad-mp3', errorFile: 'a.mp3',
    });
    await embedded.close();

    const s3 = { ...inject('s3'), forcePathStyle: true };
    const report = await migrateToPostgres({ dataDir, databaseUrl: db.url, s3, log: () => undefined });
    expect(report).toMatchObject({ sessions: 1, items: 2, jobs: 2, results: 1, objects: 3, missingFiles: [] });

    const store = await openPgStore(db.url);
    const objects = createS3Objects(s3);
    const disk = createDiskStorage(dataDir);
    try {
      expect((await store.sessionBySecretHash(hashSecret(s.secret)))?.sid).toBe(s.sid);
      const moved = await store.listItems(s.sid, s.appid);
      expect(moved.map((i) => i.id)).toEqual(items.map((i) => i.id));
      for (const item of moved) {
        const object = await objects.read(objectKey(uploadRef(item)));
        const chunks: Buffer[] = [];
        for await (const c of object!.body) chunks.push(c as Buffer);
        expect(Buffer.concat(chunks).equals(await readFile(disk.pathOf(uploadRef(item))))).toBe(true);
      }
      const [result] = await store.listResults(s.sid);
      expect(result.sources).toEqual([items[1].filename, items[0].filename]);
      expect((await objects.head(objectKey(resultRef(result))))?.size).toBe(result.size);
      expect((await store.latestJob(s.sid))?.status).toBe('succeeded');
      expect(await store.getJob('failed-before')).toMatchObject({
        status: 'failed', error: failed, errorCode: 'bad-mp3', errorFile: 'a.mp3',
      });
    } finally {
      objects.close();
      await store.close();
    }
  });

  it('running it again changes nothing', async () => {
    const s3 = { ...inject('s3'), forcePathStyle: true };
    const dataDir = path.join(data.dir, 'data');
    await migrateToPostgres({ dataDir, databaseUrl: db.url, s3, log: () => undefined });
    const store = await openPgStore(db.url);
    try {
      const { rows } = await store.pool.query('SELECT (SELECT COUNT(*) FROM items) AS items, (SELECT COUNT(*) FROM results) AS results');
      expect(rows[0]).toEqual({ items: 2, results: 1 });
    } finally {
      await store.close();
    }
  });
});
