// Versioned schema migrations. The database's user_version is the number of migrations applied;
// each migration runs once, in its own transaction, in order. Append new ones; never edit old ones.
import type Database from 'better-sqlite3';

export interface Migration {
  version: number;
  name: string;
  up(db: Database.Database): void;
}

export const MIGRATIONS: Migration[] = [
  {
    version: 1,
    name: 'sessions, items, jobs, results',
    up(db) {
      db.exec(`
        CREATE TABLE sessions (
          sid TEXT PRIMARY KEY,
          secret_hash TEXT NOT NULL UNIQUE,
          csrf_token TEXT NOT NULL,
          created_at INTEGER NOT NULL,
          last_seen_at INTEGER NOT NULL
        );
        CREATE INDEX sessions_last_seen ON sessions(last_seen_at);

        CREATE TABLE items (
          id TEXT PRIMARY KEY,
          seq INTEGER NOT NULL,
          sid TEXT NOT NULL REFERENCES sessions(sid) ON DELETE CASCADE,
          appid TEXT NOT NULL,
          newfilename TEXT NOT NULL,
          format TEXT NOT NULL,
          filename TEXT NOT NULL,
          size INTEGER NOT NULL,
          duration REAL NOT NULL,
          codec TEXT NOT NULL,
          sample_rate INTEGER NOT NULL,
          channels INTEGER NOT NULL,
          created_at INTEGER NOT NULL,
          UNIQUE (sid, newfilename)
        );
        CREATE INDEX items_by_session ON items(sid, appid, seq);

        CREATE TABLE jobs (
          id TEXT PRIMARY KEY,
          sid TEXT NOT NULL REFERENCES sessions(sid) ON DELETE CASCADE,
          appid TEXT NOT NULL,
          item_ids TEXT NOT NULL,
          status TEXT NOT NULL CHECK (status IN ('queued', 'running', 'succeeded', 'failed')),
          error TEXT,
          result_id TEXT,
          created_at INTEGER NOT NULL,
          started_at INTEGER,
          finished_at INTEGER
        );
        CREATE INDEX jobs_by_status ON jobs(status, created_at);
        CREATE INDEX jobs_by_session ON jobs(sid);

        CREATE TABLE results (
          id TEXT PRIMARY KEY,
          sid TEXT NOT NULL REFERENCES sessions(sid) ON DELETE CASCADE,
          job_id TEXT NOT NULL REFERENCES jobs(id) ON DELETE CASCADE,
          file TEXT NOT NULL,
          download_name TEXT NOT NULL,
          duration REAL NOT NULL,
          size INTEGER NOT NULL,
          sources TEXT NOT NULL,
          created_at INTEGER NOT NULL
        );
        CREATE INDEX results_by_session ON results(sid, created_at);
      `);
    },
  },
];

export function schemaVersion(db: Database.Database): number {
  return db.pragma('user_version', { simple: true }) as number;
}

/**
 * Bring the database up to the latest version. Safe to call on every start: applied migrations
 * are skipped. Refuses a database newer than this code knows, rather than guess at it.
 */
export function migrate(db: Database.Database, migrations: Migration[] = MIGRATIONS): number {
  const current = schemaVersion(db);
  const latest = migrations.length === 0 ? 0 : migrations[migrations.length - 1].version;
  if (current > latest) {
    throw new Error(`The database is at schema version ${current}, newer than this server knows (${latest})`);
  }
  for (const m of migrations) {
    if (m.version <= current) continue;
    db.transaction(() => {
      m.up(db);
      db.pragma(`user_version = ${m.version}`);
    })();
  }
  return schemaVersion(db);
}
