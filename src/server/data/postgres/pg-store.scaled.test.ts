// The Postgres store on a real server: what only several processes sharing one database can
// break (migrations racing, limits under concurrent uploads). The Store contract suite covers
// the rest.
import pg from 'pg';
import { afterEach, beforeEach, describe, expect, inject, it } from 'vitest';
import { freshDatabase, type TestDatabase } from '../../../../test/support/pg-db.js';
import { migratePg, PG_MIGRATIONS } from './pg-migrations.js';
import { openPgStore } from './pg-store.js';
import type { ItemRow, JobRow, ResultRow } from '../store.js';

let db: TestDatabase;
beforeEach(async () => {
  db = await freshDatabase(inject('databaseUrl'));
});
afterEach(async () => {
  await db.drop();
});

const item = (sid: string, n: number): ItemRow => ({
  id: `${sid}-item-${n}`, sid, appid: 'app', newfilename: `stored${n}`, format: 'mp3', filename: `file ${n}.mp3`,
  size: 1000 + n, duration: 1.5, codec: 'mp3', sampleRate: 44100, channels: 2, createdAt: 1000 + n,
});

const job = (sid: string, id: string): JobRow => ({
  id, sid, appid: 'app', itemIds: [`${sid}-item-1`], status: 'queued', error: null, errorCode: null, errorFile: null, resultId: null, requestId: 'r1',
  options: { format: 'mp3' }, percent: null, statusText: null, attempts: 0, createdAt: 5, startedAt: null, finishedAt: null,
});

describe('Postgres migrations', () => {
  it('four processes starting at once each migrate without error, and every migration is applied once', async () => {
    const pools = Array.from({ length: 4 }, () => new pg.Pool({ connectionString: db.url, max: 2 }));
    try {
      const applied = await Promise.all(pools.map((p) => migratePg(p)));
      expect(applied.flat().sort()).toEqual(PG_MIGRATIONS.map((m) => m.version));
      const { rows } = await pools[0].query('SELECT version FROM schema_migrations ORDER BY version');
      expect(rows.map((r) => r.version)).toEqual(PG_MIGRATIONS.map((m) => m.version));
    } finally {
      await Promise.all(pools.map((p) => p.end()));
    }
  });

  it('migration 3 gives results that shared a download name in a session distinct names', async () => {
    const pool = new pg.Pool({ connectionString: db.url, max: 1 });
    try {
      await migratePg(pool, PG_MIGRATIONS.slice(0, 2));
      await pool.query("INSERT INTO sessions (sid, secret_hash, csrf_token, created_at, last_seen_at) VALUES ('s1', 'h1', 'c', 1, 1), ('s2', 'h2', 'c', 1, 1)");
      const rows = [['r1', 's1', 'm.mp3', 1], ['r2', 's1', 'm.mp3', 2], ['r3', 's2', 'm.mp3', 3], ['r4', 's1', 'a.b.m4b', 4], ['r5', 's1', 'a.b.m4b', 5], ['r6', 's1', 'noext', 6], ['r7', 's1', 'noext', 7]];
      for (const [id, sid, name, at] of rows) {
        await pool.query(`INSERT INTO jobs (id, sid, appid, item_ids, status, created_at) VALUES ($1, $2, 'app', '[]', 'succeeded', 1)`, [`j-${id}`, sid]);
        await pool.query(
          `INSERT INTO results (id, sid, job_id, file, download_name, duration, size, sources, created_at) VALUES ($1, $2, $3, 'f', $4, 1, 1, '[]', $5)`,
          [id, sid, `j-${id}`, name, at],
        );
      }
      expect(await migratePg(pool, PG_MIGRATIONS.slice(0, 3))).toEqual([3]);
      const { rows: after } = await pool.query('SELECT id, download_name AS name FROM results ORDER BY id');
      expect(after).toEqual([
        { id: 'r1', name: 'm.mp3' }, { id: 'r2', name: 'm (r2).mp3' }, { id: 'r3', name: 'm.mp3' },
        { id: 'r4', name: 'a.b.m4b' }, { id: 'r5', name: 'a.b (r5).m4b' }, { id: 'r6', name: 'noext' }, { id: 'r7', name: 'noext (r7)' },
      ]);
      await pool.query(`INSERT INTO jobs (id, sid, appid, item_ids, status, created_at) VALUES ('j8', 's1', 'app', '[]', 'succeeded', 1)`);
      await expect(
        pool.query(`INSERT INTO results (id, sid, job_id, file, download_name, duration, size, sources, created_at) VALUES ('r8', 's1', 'j8', 'f', 'm.mp3', 1, 1, '[]', 8)`),
      ).rejects.toThrow(/results_download_name_unique/);
    } finally {
      await pool.end();
    }
  });

  it('refuses a database migrated by a newer server', async () => {
    const pool = new pg.Pool({ connectionString: db.url, max: 1 });
    try {
      await migratePg(pool);
      await pool.query("INSERT INTO schema_migrations (version, name) VALUES (999, 'from the future')");
      await expect(migratePg(pool)).rejects.toThrow(/schema version 999, newer than this server knows/);
    } finally {
      await pool.end();
    }
  });
});

describe('Postgres store across processes', () => {
  it('gives results of one session recorded under one name at once by two processes distinct names', async () => {
    const [a, b] = [await openPgStore(db.url), await openPgStore(db.url)];
    try {
      await a.createSession('h', 's', 'c', 1);
      const name = 'merged-2026-11-22-1430.mp3';
      const results = Array.from({ length: 8 }, (_, n): ResultRow => ({
        id: `res-${n}`, sid: 's', jobId: `job-${n}`, file: `job-${n}.mp3`, downloadName: name, format: 'mp3',
        duration: 3, size: 10, sources: ['a.mp3'], chapters: [], details: {}, cover: null, createdAt: 9,
      }));
      for (const r of results) await a.addJob(job('s', r.jobId));
      // Half through each process, all at once: each insert races the others for the same names.
      const stored = await Promise.all(results.map((r, n) => (n % 2 === 0 ? a : b).addResult(r)));
      const names = stored.map((r) => r.downloadName);
      expect(new Set(names).size).toBe(8);
      expect(names.sort()).toEqual([name, ...[2, 3, 4, 5, 6, 7, 8].map((n) => `merged-2026-11-22-1430 (${n}).mp3`)].sort());
      expect((await b.listResults('s')).map((r) => r.downloadName).sort()).toEqual(names);
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });

  it('keeps the per-session limit exact when two processes store uploads at once', async () => {
    const [a, b] = [await openPgStore(db.url, { poolSize: 8 }), await openPgStore(db.url, { poolSize: 8 })];
    try {
      await a.createSession('hash-1', 'sid1', 'csrf', 1);
      const tries = Array.from({ length: 24 }, (_, n) => (n % 2 ? a : b).addItemIfUnder(item('sid1', n), 5));
      const accepted = (await Promise.all(tries)).filter(Boolean).length;
      expect(accepted).toBe(5);
      expect(await b.countItems('sid1')).toBe(5);
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });

  it('lists items in the saved order, later uploads after them, as another process sees it', async () => {
    const [a, b] = [await openPgStore(db.url), await openPgStore(db.url)];
    try {
      await a.createSession('h', 's', 'c', 1);
      for (const n of [1, 2, 3]) await a.addItemIfUnder(item('s', n), 100);
      await a.saveOrder('s', 'app', ['s-item-3', 's-item-1']);
      await a.addItemIfUnder(item('s', 4), 100);
      expect((await b.listItems('s', 'app')).map((i) => i.id)).toEqual(['s-item-3', 's-item-1', 's-item-2', 's-item-4']);
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });

  // As getDataJson asks: with the version read with the session in the same request, or alone.
  for (const how of ['with the version read with the session', 'reading the version itself'] as const) {
    it(`a process that keeps a session's list sees another process's upload, delete and new order at once (${how})`, async () => {
      const [a, b] = [await openPgStore(db.url), await openPgStore(db.url)];
      try {
        await a.createSession('h', 's', 'c', 1);
        await a.addItemIfUnder(item('s', 1), 100);
        const ids = async () => {
          let seen: number | undefined;
          if (how === 'with the version read with the session') {
            const session = await a.sessionBySecretHash('h');
            if (!session) return 'no session';
            seen = session.itemsVersion;
            expect(seen).toEqual(expect.any(Number));
          }
          return (await a.listItems('s', 'app', seen)).map((i) => i.id);
        };
        expect(await ids()).toEqual(['s-item-1']);
        await b.addItemIfUnder(item('s', 2), 100);
        expect(await ids()).toEqual(['s-item-1', 's-item-2']);
        await b.saveOrder('s', 'app', ['s-item-2', 's-item-1']);
        expect(await ids()).toEqual(['s-item-2', 's-item-1']);
        await b.deleteItem('s', 's-item-2');
        expect(await ids()).toEqual(['s-item-1']);
        await b.deleteSession('s');
        expect(await ids()).toEqual(how === 'reading the version itself' ? [] : 'no session');
      } finally {
        await Promise.all([a.close(), b.close()]);
      }
    });
  }

  it('records one result per merge even when the merge ran twice', async () => {
    const store = await openPgStore(db.url);
    try {
      await store.createSession('h', 's', 'c', 1);
      await store.addJob(job('s', 'j1'));
      const result = {
        id: 'res-a', sid: 's', jobId: 'j1', file: 'j1-a.mp3', downloadName: 'merged.mp3', format: 'mp3',
        duration: 3, size: 10, sources: ['a.mp3'], chapters: [{ title: 'A', start: 0, end: 3 }], details: {}, cover: null, createdAt: 9,
      };
      await store.addResult(result);
      await expect(store.addResult({ ...result, id: 'res-b', file: 'j1-b.mp3' })).rejects.toThrow();
      expect(await store.listResults('s')).toEqual([result]);
      expect((await store.getJob('j1'))?.options).toEqual({ format: 'mp3' });
    } finally {
      await store.close();
    }
  });

  it('deleting a session removes its items, jobs and results, and no other session', async () => {
    const store = await openPgStore(db.url);
    try {
      for (const s of ['s1', 's2']) {
        await store.createSession(`h-${s}`, s, 'c', 1);
        await store.addItemIfUnder(item(s, 1), 100);
        await store.addJob(job(s, `job-${s}`));
      }
      await store.deleteSession('s1');
      expect(await store.listItems('s1', 'app')).toEqual([]);
      expect(await store.getJob('job-s1')).toBeUndefined();
      expect((await store.listItems('s2', 'app')).map((i) => i.id)).toEqual(['s2-item-1']);
      expect((await store.latestJob('s2'))?.id).toBe('job-s2');
    } finally {
      await store.close();
    }
  });
});
