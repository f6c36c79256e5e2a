// Move an embedded installation (SQLite and files under DATA_DIR) to PostgreSQL and, when S3 is
// configured, its files to the bucket. Run with the server stopped. Files go first and rows after,
// in one transaction, so an interrupted move leaves the database as it was; running it again is
// safe (rows already there are kept, objects are written again).
import { existsSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import type pg from 'pg';
import type { ErrorCode } from '../../errors.js';
import { createDiskStorage } from '../../files/disk/disk-storage.js';
import { objectKey } from '../../files/s3/object-keys.js';
import { createS3Objects, type S3Config } from '../../files/s3/s3-objects.js';
import { resultRef, uploadRef, type FileRef } from '../../files/storage.js';
import { openPgStore } from './pg-store.js';

export interface MoveOptions {
  dataDir: string;
  databaseUrl: string;
  s3?: S3Config;
  log: (message: string) => void;
}

export interface MoveReport {
  sessions: number;
  items: number;
  jobs: number;
  results: number;
  objects: number;
  /** Files the database names that were not on disk (rows moved anyway). */
  missingFiles: string[];
}

type Row = Record<string, unknown>;
const INTERRUPTED = 'This merge was interrupted when the service moved; please make it again.';
/** The error table's code for a merge a restart or a move stopped (a client words it in its language). */
const INTERRUPTED_CODE: ErrorCode = 'interrupted';

const json = (v: unknown, fallback: unknown) => (typeof v === 'string' ? v : JSON.stringify(v ?? fallback));

async function insertRows(c: pg.PoolClient, rows: { sessions: Row[]; items: Row[]; jobs: Row[]; results: Row[] }) {
  for (const s of rows.sessions) {
    await c.query(
      `INSERT INTO sessions (sid, secret_hash, csrf_token, created_at, last_seen_at) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT DO NOTHING`,
      [s.sid, s.secret_hash, s.csrf_token, s.created_at, s.last_seen_at],
    );
  }
  for (const i of rows.items) {
    await c.query(
      `INSERT INTO items (id, sid, appid, newfilename, format, filename, size, duration, codec, sample_rate, channels, created_at, position,
                          trim_start, trim_end, chapter_title, title_tag, chapter_count)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18) ON CONFLICT DO NOTHING`,
      [
        i.id, i.sid, i.appid, i.newfilename, i.format, i.filename, i.size, i.duration, i.codec, i.sample_rate, i.channels, i.created_at,
        i.position ?? null, i.trim_start ?? null, i.trim_end ?? null, i.chapter_title ?? null,
        i.title_tag ?? null, i.chapter_count ?? null,
      ],
    );
  }
  for (const j of rows.jobs) {
    const unfinished = j.status === 'queued' || j.status === 'running';
    await c.query(
      `INSERT INTO jobs (id, sid, appid, item_ids, status, error, result_id, request_id, options, percent, status_text, attempts,
                         created_at, started_at, finished_at, error_code, error_file)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17) ON CONFLICT DO NOTHING`,
      [
        j.id, j.sid, j.appid, json(j.item_ids, []), unfinished ? 'failed' : j.status, unfinished ? INTERRUPTED : j.error,
        j.result_id, j.request_id ?? null, json(j.options, {}), j.percent ?? null, unfinished ? INTERRUPTED : (j.status_text ?? null),
        j.attempts ?? 0, j.created_at, j.started_at, unfinished ? Date.now() : j.finished_at,
        unfinished ? INTERRUPTED_CODE : (j.error_code ?? null), unfinished ? null : (j.error_file ?? null),
      ],
    );
  }
  for (const r of rows.results) {
    await c.query(
      `INSERT INTO results (id, sid, job_id, file, download_name, format, duration, size, sources, chapters,
                            details, cover, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13) ON CONFLICT DO NOTHING`,
      [
        r.id, r.sid, r.job_id, r.file, r.download_name, r.format ?? 'mp3', r.duration, r.size, json(r.sources, []),
        json(r.chapters, []), json(r.details, {}), r.cover ?? null, r.created_at,
      ],
    );
  }
}

export async function migrateToPostgres(opts: MoveOptions): Promise<MoveReport> {
  const file = path.join(path.resolve(opts.dataDir), 'audio-merge.sqlite');
  if (!existsSync(file)) throw new Error(`No embedded database at ${file}`);
  const sqlite = new Database(file, { readonly: true, fileMustExist: true });
  const rows = {
    sessions: sqlite.prepare('SELECT * FROM sessions').all() as Row[],
    items: sqlite.prepare('SELECT * FROM items ORDER BY seq').all() as Row[],
    jobs: sqlite.prepare('SELECT * FROM jobs ORDER BY created_at, rowid').all() as Row[],
    results: sqlite.prepare('SELECT * FROM results ORDER BY created_at, rowid').all() as Row[],
  };
  sqlite.close();
  const report: MoveReport = {
    sessions: rows.sessions.length, items: rows.items.length, jobs: rows.jobs.length, results: rows.results.length,
    objects: 0, missingFiles: [],
  };

  if (opts.s3) {
    const disk = createDiskStorage(opts.dataDir);
    const objects = createS3Objects(opts.s3);
    try {
      const refs: FileRef[] = [
        ...rows.items.map((i) => uploadRef({ sid: String(i.sid), newfilename: String(i.newfilename), format: String(i.format) })),
        ...rows.results.map((r) => resultRef({ sid: String(r.sid), file: String(r.file) })),
        ...rows.results.flatMap((r) => (r.cover ? [resultRef({ sid: String(r.sid), file: String(r.cover) })] : [])),
      ];
      for (const ref of refs) {
        const local = disk.pathOf(ref);
        if (!existsSync(local)) {
          report.missingFiles.push(local);
          continue;
        }
        await objects.putFile(objectKey(ref), local);
        report.objects++;
      }
    } finally {
      objects.close();
    }
    opts.log(`copied ${report.objects} files to s3://${opts.s3.bucket}`);
  }

  const store = await openPgStore(opts.databaseUrl, { poolSize: 1 });
  try {
    const c = await store.pool.connect();
    try {
      await c.query('BEGIN');
      await insertRows(c, rows);
      await c.query('COMMIT');
    } catch (err) {
      await c.query('ROLLBACK').catch(() => undefined);
      throw err;
    } finally {
      c.release();
    }
  } finally {
    await store.close();
  }
  opts.log(
    `moved ${report.sessions} sessions, ${report.items} items, ${report.jobs} merges and ${report.results} results to PostgreSQL`,
  );
  return report;
}
