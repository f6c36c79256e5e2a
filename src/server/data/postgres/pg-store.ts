// The Store on PostgreSQL, for any number of web and worker processes sharing one database.
// Migrated at open (see pg-migrations.ts). Nothing is cached in the process: another process may
// change any row at any time.
import pg from 'pg';
import { itemListCache } from './pg-item-lists.js';
import { uniqueDownloadName } from '../download-names.js';
import { migratePg, RESULT_NAME_CONSTRAINT } from './pg-migrations.js';
import {
  JOB_COLUMNS, PG_TYPES, toItem, toJob, toResult, toSession,
  type ItemRecord, type JobRecord, type ResultRecord, type SessionRecord,
} from './pg-rows.js';
import type { ItemRow, JobPatch, Store } from '../store.js';

export interface PgStoreOptions {
  /** Connections this process keeps at most. */
  poolSize?: number;
}

/** A result's name lost to another process this many times in a row is an error, not a loop. */
const NAME_TRIES = 10;

/** Every change to a session's items bumps its version, in the same transaction. */
const BUMP_ITEMS = 'UPDATE sessions SET items_version = items_version + 1 WHERE sid = $1';

const ITEM_INSERT = `INSERT INTO items (id, sid, appid, newfilename, format, filename, size, duration, codec, sample_rate, channels, created_at, title_tag, chapter_count)`;
const itemValues = (i: ItemRow) => [
  i.id, i.sid, i.appid, i.newfilename, i.format, i.filename, i.size, i.duration, i.codec, i.sampleRate, i.channels, i.createdAt, i.titleTag ?? null, i.chapterCount ?? null,
];

export async function openPgStore(url: string, opts: PgStoreOptions = {}): Promise<Store & { pool: pg.Pool }> {
  const pool = new pg.Pool({ connectionString: url, max: opts.poolSize ?? 10, types: PG_TYPES });
  // An idle connection the server dropped must not take the process down with it.
  pool.on('error', () => undefined);
  try {
    await migratePg(pool);
  } catch (err) {
    await pool.end();
    throw err;
  }
  const one = async <R extends pg.QueryResultRow>(sql: string, values: unknown[]): Promise<R | undefined> =>
    (await pool.query<R>(sql, values)).rows[0];
  /** For the queries of every request: prepared once per connection, then only executed. */
  const prepared = async <R extends pg.QueryResultRow>(name: string, text: string, values: unknown[]): Promise<R[]> =>
    (await pool.query<R>({ name, text, values })).rows;
  const all = async <R extends pg.QueryResultRow>(sql: string, values: unknown[]): Promise<R[]> =>
    (await pool.query<R>(sql, values)).rows;

  /** Run `work` in a transaction on one connection. */
  async function transaction<T>(work: (c: pg.PoolClient) => Promise<T>): Promise<T> {
    const c = await pool.connect();
    try {
      await c.query('BEGIN');
      const out = await work(c);
      await c.query('COMMIT');
      return out;
    } catch (err) {
      await c.query('ROLLBACK').catch(() => undefined);
      throw err;
    } finally {
      c.release();
    }
  }

  const lists = itemListCache(
    async (sid) =>
      (await prepared<{ items_version: number }>('items-version', 'SELECT items_version FROM sessions WHERE sid = $1', [sid]))[0]?.items_version,
    async (sid, appid) =>
      (
        await prepared<ItemRecord>('list-items', 'SELECT * FROM items WHERE sid = $1 AND appid = $2 ORDER BY position NULLS LAST, seq', [
          sid,
          appid,
        ])
      ).map(toItem),
  );

  /** Runs `work` after every earlier call for the same key has settled. */
  const turns = new Map<string, Promise<unknown>>();
  function inTurn<T>(key: string, work: () => Promise<T>): Promise<T> {
    const before = turns.get(key) ?? Promise.resolve();
    const mine = before.catch(() => undefined).then(work);
    turns.set(key, mine);
    void mine.catch(() => undefined).finally(() => {
      if (turns.get(key) === mine) turns.delete(key);
    });
    return mine;
  }

  /** The number of rows changed (0 or 1); `where` narrows which state of the job may change. */
  async function patchJob(id: string, patch: JobPatch, where: string): Promise<number> {
    const sets: string[] = [];
    const values: unknown[] = [id];
    for (const [key, value] of Object.entries(patch)) {
      const col = JOB_COLUMNS[key];
      if (!col || value === undefined) continue;
      values.push(col.json ? JSON.stringify(value) : value);
      sets.push(`${col.column} = $${values.length}`);
    }
    if (sets.length === 0) return 0;
    return (await pool.query(`UPDATE jobs SET ${sets.join(', ')} WHERE id = $1${where}`, values)).rowCount ?? 0;
  }

  return {
    pool,
    async createSession(secretHash, sid, csrfToken, now) {
      await pool.query(
        'INSERT INTO sessions (sid, secret_hash, csrf_token, created_at, last_seen_at) VALUES ($1, $2, $3, $4, $4)',
        [sid, secretHash, csrfToken, now],
      );
      return { sid, csrfToken, createdAt: now, lastSeenAt: now };
    },
    sessionBySecretHash: async (h) => {
      const [r] = await prepared<SessionRecord & { items_version: number }>('session-by-hash', 'SELECT * FROM sessions WHERE secret_hash = $1', [h]);
      return r && { ...toSession(r), itemsVersion: r.items_version };
    },
    sessionBySid: async (sid) => {
      const r = await one<SessionRecord>('SELECT * FROM sessions WHERE sid = $1', [sid]);
      return r && toSession(r);
    },
    async touchSession(sid, now) {
      await pool.query('UPDATE sessions SET last_seen_at = $1 WHERE sid = $2 AND last_seen_at < $1', [now, sid]);
    },
    idleSessions: async (before) =>
      (
        await all<SessionRecord>(
          `SELECT * FROM sessions s WHERE s.last_seen_at < $1
             AND NOT EXISTS (SELECT 1 FROM jobs j WHERE j.sid = s.sid AND j.status IN ('queued', 'running'))
           ORDER BY s.last_seen_at`,
          [before],
        )
      ).map(toSession),
    async deleteSession(sid) {
      await pool.query('DELETE FROM sessions WHERE sid = $1', [sid]);
      lists.forget(sid);
    },

    // Exact under concurrent uploads from any process: the session row is locked first, so the
    // count the insert checks already includes every insert that got the lock before it. Within
    // this process a session's uploads queue up in call order, so upload order is call order.
    addItemIfUnder: (item, limit) =>
      inTurn(item.sid, () =>
        transaction(async (c) => {
          const locked = await c.query('SELECT 1 FROM sessions WHERE sid = $1 FOR NO KEY UPDATE', [item.sid]);
          if (locked.rowCount === 0) throw new Error(`No session ${item.sid}`);
          const inserted = await c.query(
            `${ITEM_INSERT} SELECT $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14
             WHERE (SELECT COUNT(*) FROM items WHERE sid = $2) < $15`,
            [...itemValues(item), limit],
          );
          if (inserted.rowCount === 1) await c.query(BUMP_ITEMS, [item.sid]);
          return inserted.rowCount === 1;
        }),
      ),
    listItems: (sid, appid, seenVersion) => lists.get(sid, appid, seenVersion),
    countItems: async (sid) => Number((await one<{ n: number }>('SELECT COUNT(*) AS n FROM items WHERE sid = $1', [sid]))?.n ?? 0),
    async itemsOwnedBy(sid, ids) {
      // Every merge's first read: prepared, it costs 0.5 ms instead of 1.1 (parsed and planned each time).
      const rows = await prepared<ItemRecord>('items-owned-by', 'SELECT * FROM items WHERE sid = $1 AND id = ANY($2)', [sid, ids]);
      const byId = new Map(rows.map((r) => [r.id, toItem(r)]));
      return ids.flatMap((id) => byId.get(id) ?? []);
    },
    itemByStoredName: async (sid, name) => {
      const r = await one<ItemRecord>('SELECT * FROM items WHERE sid = $1 AND newfilename = $2', [sid, name]);
      return r && toItem(r);
    },
    itemById: async (id) => {
      const r = await one<ItemRecord>('SELECT * FROM items WHERE id = $1', [id]);
      return r && toItem(r);
    },
    deleteItem: async (sid, id) => {
      const r = await one<ItemRecord>(
        `WITH gone AS (DELETE FROM items WHERE sid = $1 AND id = $2 RETURNING *),
              bump AS (UPDATE sessions SET items_version = items_version + 1 WHERE sid = $1 AND EXISTS (SELECT 1 FROM gone))
         SELECT * FROM gone`,
        [sid, id],
      );
      return r && toItem(r);
    },
    saveItem: async (sid, id, e) => {
      const r = await one<{ id: string }>(
        `WITH saved AS (UPDATE items SET trim_start = $3, trim_end = $4, chapter_title = $5 WHERE sid = $1 AND id = $2 RETURNING id),
              bump AS (UPDATE sessions SET items_version = items_version + 1 WHERE sid = $1 AND EXISTS (SELECT 1 FROM saved))
         SELECT id FROM saved`,
        [sid, id, e.start, e.end, e.chapterTitle],
      );
      return r !== undefined;
    },
    fixItemLength: async (sid, id, duration) => {
      const r = await one<{ id: string }>(
        `WITH fixed AS (UPDATE items SET duration = $3, trim_end = CASE WHEN trim_end >= $3 THEN NULL ELSE trim_end END
                        WHERE sid = $1 AND id = $2 RETURNING id),
              bump AS (UPDATE sessions SET items_version = items_version + 1 WHERE sid = $1 AND EXISTS (SELECT 1 FROM fixed))
         SELECT id FROM fixed`,
        [sid, id, duration],
      );
      return r !== undefined;
    },
    saveOrder: (sid, appid, ids) =>
      transaction(async (c) => {
        await c.query(
          `UPDATE items SET position = o.pos
             FROM (SELECT i.id, MIN(i.ord) AS pos FROM unnest($3::text[]) WITH ORDINALITY AS i(id, ord) GROUP BY i.id) o
            WHERE items.sid = $1 AND items.appid = $2 AND items.id = o.id`,
          [sid, appid, ids],
        );
        await c.query('UPDATE items SET position = NULL WHERE sid = $1 AND appid = $2 AND NOT (id = ANY($3))', [sid, appid, ids]);
        await c.query(BUMP_ITEMS, [sid]);
      }),

    async addJob(j) {
      await pool.query(
        `INSERT INTO jobs (id, sid, appid, item_ids, status, error, result_id, request_id, options, percent, status_text,
                           attempts, created_at, started_at, finished_at, error_code, error_file)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17)`,
        [
          j.id, j.sid, j.appid, JSON.stringify(j.itemIds), j.status, j.error, j.resultId, j.requestId,
          JSON.stringify(j.options ?? {}), j.percent, j.statusText, j.attempts ?? 0, j.createdAt, j.startedAt, j.finishedAt,
          j.errorCode ?? null, j.errorFile ?? null,
        ],
      );
    },
    addJobIfUnder: (j, limit) =>
      inTurn(j.sid, () =>
        transaction(async (c) => {
          // The session's row is the lock: two merges of one session are counted one after the other.
          const locked = await c.query('SELECT 1 FROM sessions WHERE sid = $1 FOR NO KEY UPDATE', [j.sid]);
          if (locked.rowCount === 0) throw new Error(`No session ${j.sid}`);
          const inserted = await c.query(
            `INSERT INTO jobs (id, sid, appid, item_ids, status, error, result_id, request_id, options, percent, status_text,
                               attempts, created_at, started_at, finished_at, error_code, error_file)
             SELECT $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17
             WHERE (SELECT COUNT(*) FROM jobs WHERE sid = $2 AND status IN ('queued', 'running')) < $18`,
            [
              j.id, j.sid, j.appid, JSON.stringify(j.itemIds), j.status, j.error, j.resultId, j.requestId,
              JSON.stringify(j.options ?? {}), j.percent, j.statusText, j.attempts ?? 0, j.createdAt, j.startedAt,
              j.finishedAt, j.errorCode ?? null, j.errorFile ?? null, limit,
            ],
          );
          return inserted.rowCount === 1;
        }),
      ),
    getJob: async (id) => {
      const r = await one<JobRecord>('SELECT * FROM jobs WHERE id = $1', [id]);
      return r && toJob(r);
    },
    async updateJob(id, patch) {
      await patchJob(id, patch, '');
    },
    endJob: async (id, patch) => (await patchJob(id, patch, " AND status IN ('queued', 'running')")) === 1,
    jobsWithStatus: async (status) =>
      (await all<JobRecord>('SELECT * FROM jobs WHERE status = $1 ORDER BY created_at, seq', [status])).map(toJob),
    latestJob: async (sid) => {
      const r = await one<JobRecord>('SELECT * FROM jobs WHERE sid = $1 ORDER BY created_at DESC, seq DESC LIMIT 1', [sid]);
      return r && toJob(r);
    },

    // Another process may record a result of the session under the same name at the same moment:
    // the constraint refuses the second, which takes the next free name and tries again.
    async addResult(result) {
      let r = result;
      for (let tries = 1; ; tries++) {
        try {
          await pool.query(
            `INSERT INTO results (id, sid, job_id, file, download_name, format, duration, size, sources, chapters,
                                  details, cover, created_at)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)`,
            [
              r.id, r.sid, r.jobId, r.file, r.downloadName, r.format, r.duration, r.size,
              JSON.stringify(r.sources), JSON.stringify(r.chapters ?? []), JSON.stringify(r.details ?? {}),
              r.cover ?? null, r.createdAt,
            ],
          );
          return r;
        } catch (err) {
          if ((err as { constraint?: string }).constraint !== RESULT_NAME_CONSTRAINT || tries >= NAME_TRIES) throw err;
          const taken = await all<{ download_name: string }>('SELECT download_name FROM results WHERE sid = $1', [r.sid]);
          r = { ...result, downloadName: uniqueDownloadName(result.downloadName, new Set(taken.map((t) => t.download_name))) };
        }
      }
    },
    listResults: async (sid) =>
      (await all<ResultRecord>('SELECT * FROM results WHERE sid = $1 ORDER BY created_at DESC, seq DESC', [sid])).map(toResult),
    getResult: async (sid, id) => {
      const r = await one<ResultRecord>('SELECT * FROM results WHERE sid = $1 AND id = $2', [sid, id]);
      return r && toResult(r);
    },
    resultById: async (id) => {
      const r = await one<ResultRecord>('SELECT * FROM results WHERE id = $1', [id]);
      return r && toResult(r);
    },
    deleteResult: async (sid, id) => {
      const r = await one<ResultRecord>('DELETE FROM results WHERE sid = $1 AND id = $2 RETURNING *', [sid, id]);
      return r && toResult(r);
    },

    async close() {
      await pool.end();
    },
  };
}
