// The Store on better-sqlite3: one file under DATA_DIR, WAL mode, foreign keys on, migrated at
// open. The calls underneath are synchronous (each a short indexed query); the Promise surface is
// the Store's, so Postgres can stand in. Rows are mapped to and from records in sqlite-rows.ts.
import Database from 'better-sqlite3';
import { uniqueDownloadName } from '../download-names.js';
import type { JobPatch, JobRow, ResultRow, Store } from '../store.js';
import { migrate } from './migrations.js';
import {
  JOB_COLUMNS, jobParams, resultParams, toItem, toJob, toResult, toSession,
  type ItemRecord, type JobRecord, type ResultRecord, type SessionRecord,
} from './sqlite-rows.js';

function statements(db: Database.Database) {
  return {
    createSession: db.prepare(
      'INSERT INTO sessions (sid, secret_hash, csrf_token, created_at, last_seen_at) VALUES (?, ?, ?, ?, ?)',
    ),
    sessionByHash: db.prepare<[string], SessionRecord>('SELECT * FROM sessions WHERE secret_hash = ?'),
    sessionBySid: db.prepare<[string], SessionRecord>('SELECT * FROM sessions WHERE sid = ?'),
    touch: db.prepare('UPDATE sessions SET last_seen_at = ? WHERE sid = ? AND last_seen_at < ?'),
    idle: db.prepare<[number], SessionRecord>(
      `SELECT * FROM sessions s WHERE s.last_seen_at < ?
         AND NOT EXISTS (SELECT 1 FROM jobs j WHERE j.sid = s.sid AND j.status IN ('queued', 'running'))
       ORDER BY s.last_seen_at`,
    ),
    deleteSession: db.prepare('DELETE FROM sessions WHERE sid = ?'),
    // The count and the insert are one statement: SQLite runs it atomically.
    addItemIfUnder: db.prepare(
      `INSERT INTO items (id, seq, sid, appid, newfilename, format, filename, size, duration, codec, sample_rate, channels, created_at, title_tag, chapter_count)
       SELECT @id, (SELECT COALESCE(MAX(seq), 0) + 1 FROM items), @sid, @appid, @newfilename, @format, @filename,
              @size, @duration, @codec, @sampleRate, @channels, @createdAt, @titleTag, @chapterCount
       WHERE (SELECT COUNT(*) FROM items WHERE sid = @sid) < @limit`,
    ),
    listItems: db.prepare<[string, string], ItemRecord>(
      'SELECT * FROM items WHERE sid = ? AND appid = ? ORDER BY position IS NULL, position, seq',
    ),
    countItems: db.prepare<[string], { n: number }>('SELECT COUNT(*) AS n FROM items WHERE sid = ?'),
    ownedItem: db.prepare<[string, string], ItemRecord>('SELECT * FROM items WHERE id = ? AND sid = ?'),
    itemById: db.prepare<[string], ItemRecord>('SELECT * FROM items WHERE id = ?'),
    itemByName: db.prepare<[string, string], ItemRecord>('SELECT * FROM items WHERE sid = ? AND newfilename = ?'),
    deleteItem: db.prepare<[string, string]>('DELETE FROM items WHERE id = ? AND sid = ?'),
    saveItem: db.prepare<[number | null, number | null, string | null, string, string]>(
      'UPDATE items SET trim_start = ?, trim_end = ?, chapter_title = ? WHERE id = ? AND sid = ?',
    ),
    fixItemLength: db.prepare<[number, number, string, string]>(
      'UPDATE items SET duration = ?, trim_end = CASE WHEN trim_end >= ? THEN NULL ELSE trim_end END WHERE id = ? AND sid = ?',
    ),
    clearOrder: db.prepare<[string, string]>('UPDATE items SET position = NULL WHERE sid = ? AND appid = ?'),
    setPosition: db.prepare<[number, string, string, string]>(
      'UPDATE items SET position = ? WHERE id = ? AND sid = ? AND appid = ?',
    ),
    addJob: db.prepare(
      `INSERT INTO jobs (id, sid, appid, item_ids, status, error, error_code, error_file, result_id, created_at,
                         started_at, finished_at, request_id, options, percent, status_text, attempts)
       VALUES (@id, @sid, @appid, @itemIds, @status, @error, @errorCode, @errorFile, @resultId, @createdAt,
               @startedAt, @finishedAt, @requestId, @options, @percent, @statusText, @attempts)`,
    ),
    addJobIfUnder: db.prepare(
      `INSERT INTO jobs (id, sid, appid, item_ids, status, error, error_code, error_file, result_id, created_at,
                         started_at, finished_at, request_id, options, percent, status_text, attempts)
       SELECT @id, @sid, @appid, @itemIds, @status, @error, @errorCode, @errorFile, @resultId, @createdAt,
              @startedAt, @finishedAt, @requestId, @options, @percent, @statusText, @attempts
       WHERE (SELECT COUNT(*) FROM jobs WHERE sid = @sid AND status IN ('queued', 'running')) < @limit`,
    ),
    getJob: db.prepare<[string], JobRecord>('SELECT * FROM jobs WHERE id = ?'),
    jobsWithStatus: db.prepare<[string], JobRecord>('SELECT * FROM jobs WHERE status = ? ORDER BY created_at, rowid'),
    latestJob: db.prepare<[string], JobRecord>('SELECT * FROM jobs WHERE sid = ? ORDER BY created_at DESC, rowid DESC LIMIT 1'),
    addResult: db.prepare(
      `INSERT INTO results (id, sid, job_id, file, download_name, format, duration, size, sources, chapters, details, cover, created_at)
       VALUES (@id, @sid, @jobId, @file, @downloadName, @format, @duration, @size, @sources, @chapters, @details, @cover, @createdAt)`,
    ),
    listResults: db.prepare<[string], ResultRecord>(
      'SELECT * FROM results WHERE sid = ? ORDER BY created_at DESC, rowid DESC',
    ),
    getResult: db.prepare<[string, string], ResultRecord>('SELECT * FROM results WHERE sid = ? AND id = ?'),
    resultById: db.prepare<[string], ResultRecord>('SELECT * FROM results WHERE id = ?'),
    deleteResult: db.prepare<[string, string]>('DELETE FROM results WHERE sid = ? AND id = ?'),
  };
}

/** Open (creating and migrating as needed) the database at `file`; ':memory:' works for tests. */
export function openSqliteStore(file: string): Store & { db: Database.Database } {
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
  migrate(db);
  const q = statements(db);
  const maybe = <R, T>(record: R | undefined, to: (r: R) => T): T | undefined => (record === undefined ? undefined : to(record));

  const saveOrder = db.transaction((sid: string, appid: string, ids: string[]) => {
    q.clearOrder.run(sid, appid);
    // The first place an id is named wins.
    [...new Set(ids)].forEach((id, position) => q.setPosition.run(position, id, sid, appid));
  });
  const deleteItem = db.transaction((sid: string, id: string) => {
    const row = q.ownedItem.get(id, sid);
    if (row) q.deleteItem.run(id, sid);
    return maybe(row, toItem);
  });
  // One process holds the SQLite file: choosing the name and inserting in one transaction is enough.
  const addResult = db.transaction((result: ResultRow): ResultRow => {
    const taken = new Set(q.listResults.all(result.sid).map((r) => r.download_name));
    const stored = { ...result, downloadName: uniqueDownloadName(result.downloadName, taken) };
    q.addResult.run(resultParams(stored));
    return stored;
  });
  const deleteResult = db.transaction((sid: string, id: string) => {
    const row = q.getResult.get(sid, id);
    if (row) q.deleteResult.run(sid, id);
    return maybe(row, toResult);
  });
  /** The number of rows changed (0 or 1); `where` narrows which state of the job may change. */
  const patchJob = (id: string, patch: JobPatch, where: string): number => {
    const params = jobParams({ ...patch, id } as JobRow);
    const keys = Object.keys(patch).filter((k) => JOB_COLUMNS[k] && patch[k as keyof typeof patch] !== undefined);
    if (keys.length === 0) return 0;
    const sets = keys.map((k) => `${JOB_COLUMNS[k]} = @${k}`).join(', ');
    const values = Object.fromEntries(['id', ...keys].map((k) => [k, params[k]]));
    return db.prepare(`UPDATE jobs SET ${sets} WHERE id = @id${where}`).run(values).changes;
  };

  return {
    db,
    async createSession(secretHash, sid, csrfToken, now) {
      q.createSession.run(sid, secretHash, csrfToken, now, now);
      return { sid, csrfToken, createdAt: now, lastSeenAt: now };
    },
    sessionBySecretHash: async (h) => maybe(q.sessionByHash.get(h), toSession),
    sessionBySid: async (sid) => maybe(q.sessionBySid.get(sid), toSession),
    async touchSession(sid, now) {
      q.touch.run(now, sid, now);
    },
    idleSessions: async (before) => q.idle.all(before).map(toSession),
    async deleteSession(sid) {
      q.deleteSession.run(sid);
    },

    addItemIfUnder: async (item, limit) => q.addItemIfUnder.run({ ...item, titleTag: item.titleTag ?? null, chapterCount: item.chapterCount ?? null, limit }).changes === 1,
    listItems: async (sid, appid) => q.listItems.all(sid, appid).map(toItem),
    countItems: async (sid) => q.countItems.get(sid)?.n ?? 0,
    itemsOwnedBy: async (sid, ids) => ids.flatMap((id) => maybe(q.ownedItem.get(id, sid), toItem) ?? []),
    itemById: async (id) => maybe(q.itemById.get(id), toItem),
    itemByStoredName: async (sid, newfilename) => maybe(q.itemByName.get(sid, newfilename), toItem),
    deleteItem: async (sid, id) => deleteItem(sid, id),
    saveItem: async (sid, id, e) => q.saveItem.run(e.start, e.end, e.chapterTitle, id, sid).changes === 1,
    fixItemLength: async (sid, id, duration) => q.fixItemLength.run(duration, duration, id, sid).changes === 1,
    async saveOrder(sid, appid, ids) {
      saveOrder(sid, appid, ids);
    },

    async addJob(job) {
      q.addJob.run(jobParams(job));
    },
    addJobIfUnder: async (job, limit) => q.addJobIfUnder.run({ ...jobParams(job), limit }).changes === 1,
    getJob: async (id) => maybe(q.getJob.get(id), toJob),
    async updateJob(id, patch) {
      patchJob(id, patch, '');
    },
    endJob: async (id, patch) => patchJob(id, patch, " AND status IN ('queued', 'running')") === 1,
    jobsWithStatus: async (status) => q.jobsWithStatus.all(status).map(toJob),
    latestJob: async (sid) => maybe(q.latestJob.get(sid), toJob),

    addResult: async (result) => addResult(result),
    listResults: async (sid) => q.listResults.all(sid).map(toResult),
    getResult: async (sid, id) => maybe(q.getResult.get(sid, id), toResult),
    resultById: async (id) => maybe(q.resultById.get(id), toResult),
    deleteResult: async (sid, id) => deleteResult(sid, id),

    async close() {
      if (db.open) db.close();
    },
  };
}
