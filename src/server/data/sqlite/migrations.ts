// Versioned schema migrations. The database's user_version is the number of migrations applied;
// each migration runs once, in its own transaction, in order. Append new ones; never edit old ones.
// Foreign keys are off while they run (SQLite's way to rebuild a table that others reference:
// with them on, dropping the old table would cascade into its dependants) and are checked before
// each migration commits.
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
  {
    version: 2,
    name: 'saved item order; job request id, options, progress, attempts and the cancelled state; result format and chapters',
    up(db) {
      db.exec(`
        ALTER TABLE items ADD COLUMN position INTEGER;

        CREATE TABLE jobs_new (
          id TEXT PRIMARY KEY,
          sid TEXT NOT NULL REFERENCES sessions(sid) ON DELETE CASCADE,
          appid TEXT NOT NULL,
          item_ids TEXT NOT NULL,
          status TEXT NOT NULL CHECK (status IN ('queued', 'running', 'succeeded', 'failed', 'cancelled')),
          error TEXT,
          result_id TEXT,
          created_at INTEGER NOT NULL,
          started_at INTEGER,
          finished_at INTEGER,
          request_id TEXT,
          options TEXT NOT NULL DEFAULT '{}',
          percent REAL,
          status_text TEXT,
          attempts INTEGER NOT NULL DEFAULT 0
        );
        INSERT INTO jobs_new (id, sid, appid, item_ids, status, error, result_id, created_at, started_at, finished_at)
          SELECT id, sid, appid, item_ids, status, error, result_id, created_at, started_at, finished_at FROM jobs;
        DROP TABLE jobs;
        ALTER TABLE jobs_new RENAME TO jobs;
        CREATE INDEX jobs_by_status ON jobs(status, created_at);
        CREATE INDEX jobs_by_session ON jobs(sid, created_at);

        ALTER TABLE results ADD COLUMN format TEXT NOT NULL DEFAULT 'mp3';
        ALTER TABLE results ADD COLUMN chapters TEXT NOT NULL DEFAULT '[]';
      `);
    },
  },
  {
    version: 3,
    name: "a session's results have distinct download names",
    up(db) {
      // Names taken twice before the constraint existed: the later ones get their result's id, which
      // no other name of the session can have, before the index makes the rule hold from now on.
      const twice = db
        .prepare(
          `SELECT id, download_name FROM (
             SELECT id, download_name, ROW_NUMBER() OVER (PARTITION BY sid, download_name ORDER BY created_at, rowid) AS n FROM results
           ) WHERE n > 1`,
        )
        .all() as Array<{ id: string; download_name: string }>;
      const rename = db.prepare('UPDATE results SET download_name = ? WHERE id = ?');
      for (const r of twice) rename.run(withSuffix(r.download_name, r.id), r.id);
      db.exec('CREATE UNIQUE INDEX results_download_name ON results(sid, download_name)');
    },
  },
  {
    version: 4,
    name: "an item's kept span and chapter title",
    up(db) {
      db.exec(`
        ALTER TABLE items ADD COLUMN trim_start REAL;
        ALTER TABLE items ADD COLUMN trim_end REAL;
        ALTER TABLE items ADD COLUMN chapter_title TEXT;
      `);
    },
  },
  {
    version: 5,
    name: "a result's details and its cover",
    up(db) {
      db.exec(`
        ALTER TABLE results ADD COLUMN details TEXT NOT NULL DEFAULT '{}';
        ALTER TABLE results ADD COLUMN cover TEXT;
      `);
    },
  },
  {
    version: 6,
    name: "an item's own title tag",
    up(db) {
      db.exec('ALTER TABLE items ADD COLUMN title_tag TEXT');
    },
  },
  {
    version: 7,
    name: "a job's failure code and the file it names",
    up(db) {
      db.exec(`
        ALTER TABLE jobs ADD COLUMN error_code TEXT;
        ALTER TABLE jobs ADD COLUMN error_file TEXT;
      `);
    },
  },
  {
    version: 8,
    name: "how many chapters an item's file carries",
    up(db) {
      db.exec('ALTER TABLE items ADD COLUMN chapter_count INTEGER');
    },
  },
  {
    // Migration 6 was released before 5 was written: a database made then is at version 6 and
    // passed 5 by. What 5 adds is added here where it is missing.
    version: 9,
    name: "a result's details and its cover, where migration 5 was passed by",
    up(db) {
      const columns = new Set((db.pragma('table_info(results)') as { name: string }[]).map((c) => c.name));
      if (!columns.has('details')) db.exec("ALTER TABLE results ADD COLUMN details TEXT NOT NULL DEFAULT '{}'");
      if (!columns.has('cover')) db.exec('ALTER TABLE results ADD COLUMN cover TEXT');
    },
  },
];

/** "name (suffix).ext" */
function withSuffix(name: string, suffix: string): string {
  const dot = name.lastIndexOf('.');
  return dot > 0 ? `${name.slice(0, dot)} (${suffix})${name.slice(dot)}` : `${name} (${suffix})`;
}

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
  const pending = migrations.filter((m) => m.version > current);
  if (pending.length === 0) return current;
  const foreignKeys = db.pragma('foreign_keys', { simple: true }) as number;
  db.pragma('foreign_keys = OFF');
  try {
    for (const m of pending) {
      db.transaction(() => {
        m.up(db);
        const broken = db.pragma('foreign_key_check') as unknown[];
        if (broken.length > 0) throw new Error(`Migration ${m.version} (${m.name}) breaks ${broken.length} foreign key(s)`);
        db.pragma(`user_version = ${m.version}`);
      })();
    }
  } finally {
    db.pragma(`foreign_keys = ${foreignKeys ? 'ON' : 'OFF'}`);
  }
  return schemaVersion(db);
}
