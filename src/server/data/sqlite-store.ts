// The Store on better-sqlite3: one file under DATA_DIR, WAL mode, foreign keys on,
// migrated at open. Synchronous calls are fine here: each is a short indexed query.
import Database from 'better-sqlite3';
import type { ItemRow, JobRow, JobStatus, ResultRow, SessionRow, Store } from './store.js';
import { migrate } from './migrations.js';

interface SessionRecord {
  sid: string;
  csrf_token: string;
  created_at: number;
  last_seen_at: number;
}
interface ItemRecord {
  id: string;
  sid: string;
  appid: string;
  newfilename: string;
  format: string;
  filename: string;
  size: number;
  duration: number;
  codec: string;
  sample_rate: number;
  channels: number;
  created_at: number;
}
interface JobRecord {
  id: string;
  sid: string;
  appid: string;
  item_ids: string;
  status: JobStatus;
  error: string | null;
  result_id: string | null;
  created_at: number;
  started_at: number | null;
  finished_at: number | null;
}
interface ResultRecord {
  id: string;
  sid: string;
  job_id: string;
  file: string;
  download_name: string;
  duration: number;
  size: number;
  sources: string;
  created_at: number;
}

const toSession = (r: SessionRecord): SessionRow => ({
  sid: r.sid,
  csrfToken: r.csrf_token,
  createdAt: r.created_at,
  lastSeenAt: r.last_seen_at,
});
const toItem = (r: ItemRecord): ItemRow => ({
  id: r.id,
  sid: r.sid,
  appid: r.appid,
  newfilename: r.newfilename,
  format: r.format,
  filename: r.filename,
  size: r.size,
  duration: r.duration,
  codec: r.codec,
  sampleRate: r.sample_rate,
  channels: r.channels,
  createdAt: r.created_at,
});
const toJob = (r: JobRecord): JobRow => ({
  id: r.id,
  sid: r.sid,
  appid: r.appid,
  itemIds: JSON.parse(r.item_ids) as string[],
  status: r.status,
  error: r.error,
  resultId: r.result_id,
  createdAt: r.created_at,
  startedAt: r.started_at,
  finishedAt: r.finished_at,
});
const toResult = (r: ResultRecord): ResultRow => ({
  id: r.id,
  sid: r.sid,
  jobId: r.job_id,
  file: r.file,
  downloadName: r.download_name,
  duration: r.duration,
  size: r.size,
  sources: JSON.parse(r.sources) as string[],
  createdAt: r.created_at,
});

const JOB_COLUMNS: Record<string, string> = {
  status: 'status',
  error: 'error',
  resultId: 'result_id',
  createdAt: 'created_at',
  startedAt: 'started_at',
  finishedAt: 'finished_at',
};

/** Open (creating and migrating as needed) the database at `file`; ':memory:' works for tests. */
export function openSqliteStore(file: string): Store & { db: Database.Database } {
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
  migrate(db);

  const q = {
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
    addItem: db.prepare(
      `INSERT INTO items (id, seq, sid, appid, newfilename, format, filename, size, duration, codec, sample_rate, channels, created_at)
       VALUES (@id, (SELECT COALESCE(MAX(seq), 0) + 1 FROM items), @sid, @appid, @newfilename, @format, @filename,
               @size, @duration, @codec, @sampleRate, @channels, @createdAt)`,
    ),
    listItems: db.prepare<[string, string], ItemRecord>('SELECT * FROM items WHERE sid = ? AND appid = ? ORDER BY seq'),
    countItems: db.prepare<[string], { n: number }>('SELECT COUNT(*) AS n FROM items WHERE sid = ?'),
    itemById: db.prepare<[string, string], ItemRecord>('SELECT * FROM items WHERE id = ? AND sid = ?'),
    itemByName: db.prepare<[string, string], ItemRecord>('SELECT * FROM items WHERE sid = ? AND newfilename = ?'),
    addJob: db.prepare(
      `INSERT INTO jobs (id, sid, appid, item_ids, status, error, result_id, created_at, started_at, finished_at)
       VALUES (@id, @sid, @appid, @itemIds, @status, @error, @resultId, @createdAt, @startedAt, @finishedAt)`,
    ),
    getJob: db.prepare<[string], JobRecord>('SELECT * FROM jobs WHERE id = ?'),
    jobsWithStatus: db.prepare<[string], JobRecord>('SELECT * FROM jobs WHERE status = ? ORDER BY created_at, rowid'),
    addResult: db.prepare(
      `INSERT INTO results (id, sid, job_id, file, download_name, duration, size, sources, created_at)
       VALUES (@id, @sid, @jobId, @file, @downloadName, @duration, @size, @sources, @createdAt)`,
    ),
    listResults: db.prepare<[string], ResultRecord>(
      'SELECT * FROM results WHERE sid = ? ORDER BY created_at DESC, rowid DESC',
    ),
    getResult: db.prepare<[string, string], ResultRecord>('SELECT * FROM results WHERE sid = ? AND id = ?'),
  };

  return {
    db,
    createSession(secretHash, sid, csrfToken, now) {
      q.createSession.run(sid, secretHash, csrfToken, now, now);
      return { sid, csrfToken, createdAt: now, lastSeenAt: now };
    },
    sessionBySecretHash: (h) => {
      const r = q.sessionByHash.get(h);
      return r && toSession(r);
    },
    sessionBySid: (sid) => {
      const r = q.sessionBySid.get(sid);
      return r && toSession(r);
    },
    touchSession(sid, now) {
      q.touch.run(now, sid, now);
    },
    idleSessions: (before) => q.idle.all(before).map(toSession),
    deleteSession(sid) {
      q.deleteSession.run(sid);
    },
    addItem(item) {
      q.addItem.run(item);
    },
    listItems: (sid, appid) => q.listItems.all(sid, appid).map(toItem),
    countItems: (sid) => q.countItems.get(sid)?.n ?? 0,
    itemsOwnedBy(sid, ids) {
      const out: ItemRow[] = [];
      for (const id of ids) {
        const r = q.itemById.get(id, sid);
        if (r) out.push(toItem(r));
      }
      return out;
    },
    itemByStoredName: (sid, newfilename) => {
      const r = q.itemByName.get(sid, newfilename);
      return r && toItem(r);
    },
    addJob(job) {
      q.addJob.run({ ...job, itemIds: JSON.stringify(job.itemIds) });
    },
    getJob: (id) => {
      const r = q.getJob.get(id);
      return r && toJob(r);
    },
    updateJob(id, patch) {
      const sets: string[] = [];
      const values: Record<string, unknown> = { id };
      for (const [key, value] of Object.entries(patch)) {
        const column = JOB_COLUMNS[key];
        if (!column || value === undefined) continue;
        sets.push(`${column} = @${key}`);
        values[key] = value;
      }
      if (sets.length === 0) return;
      db.prepare(`UPDATE jobs SET ${sets.join(', ')} WHERE id = @id`).run(values);
    },
    jobsWithStatus: (status) => q.jobsWithStatus.all(status).map(toJob),
    addResult(result) {
      q.addResult.run({ ...result, sources: JSON.stringify(result.sources) });
    },
    listResults: (sid) => q.listResults.all(sid).map(toResult),
    getResult: (sid, id) => {
      const r = q.getResult.get(sid, id);
      return r && toResult(r);
    },
    close() {
      if (db.open) db.close();
    },
  };
}
