// Versioned schema migrations for PostgreSQL. Every process runs them at start; a session-level
// advisory lock makes the second of two processes starting at once wait, then find nothing to
// do. Each migration runs once, in its own transaction, recorded in schema_migrations.
// Append new ones; never edit old ones.
import type { Pool, PoolClient } from 'pg';

export interface PgMigration {
  version: number;
  name: string;
  sql: string;
}

/** The constraint addResult recognises when another process took a name first. */
export const RESULT_NAME_CONSTRAINT = 'results_download_name_unique';

/** Any constant both processes agree on; the digits spell nothing. */
const MIGRATION_LOCK = 7_417_300_112;

export const PG_MIGRATIONS: PgMigration[] = [
  {
    version: 1,
    name: 'sessions, items, jobs, results',
    sql: `
      CREATE TABLE sessions (
        sid TEXT PRIMARY KEY,
        secret_hash TEXT NOT NULL UNIQUE,
        csrf_token TEXT NOT NULL,
        created_at BIGINT NOT NULL,
        last_seen_at BIGINT NOT NULL
      );
      CREATE INDEX sessions_last_seen ON sessions (last_seen_at);

      CREATE TABLE items (
        id TEXT PRIMARY KEY,
        seq BIGINT GENERATED ALWAYS AS IDENTITY,
        sid TEXT NOT NULL REFERENCES sessions (sid) ON DELETE CASCADE,
        appid TEXT NOT NULL,
        newfilename TEXT NOT NULL,
        format TEXT NOT NULL,
        filename TEXT NOT NULL,
        size BIGINT NOT NULL,
        duration DOUBLE PRECISION NOT NULL,
        codec TEXT NOT NULL,
        sample_rate INTEGER NOT NULL,
        channels INTEGER NOT NULL,
        created_at BIGINT NOT NULL,
        -- Place in the order last saved with saveOrder; NULL (uploaded since) sorts after.
        position INTEGER,
        UNIQUE (sid, newfilename)
      );
      CREATE INDEX items_by_session ON items (sid, appid, seq);

      CREATE TABLE jobs (
        id TEXT PRIMARY KEY,
        sid TEXT NOT NULL REFERENCES sessions (sid) ON DELETE CASCADE,
        appid TEXT NOT NULL,
        item_ids JSONB NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('queued', 'running', 'succeeded', 'failed', 'cancelled')),
        error TEXT,
        result_id TEXT,
        request_id TEXT,
        options JSONB NOT NULL DEFAULT '{}',
        percent DOUBLE PRECISION,
        status_text TEXT,
        attempts INTEGER NOT NULL DEFAULT 0,
        seq BIGINT GENERATED ALWAYS AS IDENTITY,
        created_at BIGINT NOT NULL,
        started_at BIGINT,
        finished_at BIGINT
      );
      CREATE INDEX jobs_by_status ON jobs (status, created_at);
      CREATE INDEX jobs_by_session ON jobs (sid, created_at);

      CREATE TABLE results (
        id TEXT PRIMARY KEY,
        sid TEXT NOT NULL REFERENCES sessions (sid) ON DELETE CASCADE,
        -- One result per merge, however many times the merge ran.
        job_id TEXT NOT NULL UNIQUE REFERENCES jobs (id) ON DELETE CASCADE,
        file TEXT NOT NULL,
        download_name TEXT NOT NULL,
        format TEXT NOT NULL DEFAULT 'mp3',
        duration DOUBLE PRECISION NOT NULL,
        size BIGINT NOT NULL,
        sources JSONB NOT NULL,
        chapters JSONB NOT NULL DEFAULT '[]',
        seq BIGINT GENERATED ALWAYS AS IDENTITY,
        created_at BIGINT NOT NULL
      );
      CREATE INDEX results_by_session ON results (sid, created_at);
    `,
  },
  {
    version: 2,
    name: "a session's items version, for lists kept in each process",
    sql: `ALTER TABLE sessions ADD COLUMN items_version BIGINT NOT NULL DEFAULT 0;`,
  },
  {
    version: 3,
    name: "a session's results have distinct download names",
    // Names taken twice before (two workers finishing in the same minute): the later ones get
    // their result's id, which no other name can have, then the constraint holds from now on.
    sql: `
      UPDATE results r SET download_name = regexp_replace(r.download_name, '(\\.[^.]*)?$', ' (' || r.id || ')\\1')
        FROM (SELECT id, ROW_NUMBER() OVER (PARTITION BY sid, download_name ORDER BY created_at, seq) AS n FROM results) d
       WHERE d.id = r.id AND d.n > 1;
      ALTER TABLE results ADD CONSTRAINT ${RESULT_NAME_CONSTRAINT} UNIQUE (sid, download_name);
    `,
  },
  {
    version: 4,
    name: "an item's kept span and chapter title",
    sql: `
      ALTER TABLE items ADD COLUMN trim_start DOUBLE PRECISION;
      ALTER TABLE items ADD COLUMN trim_end DOUBLE PRECISION;
      ALTER TABLE items ADD COLUMN chapter_title TEXT;
    `,
  },
  {
    version: 5,
    name: "a result's details and its cover",
    sql: `
      ALTER TABLE results ADD COLUMN details JSONB NOT NULL DEFAULT '{}';
      ALTER TABLE results ADD COLUMN cover TEXT;
    `,
  },
  {
    version: 6,
    name: "an item's own title tag",
    sql: `ALTER TABLE items ADD COLUMN title_tag TEXT;`,
  },
  {
    version: 7,
    name: "a job's failure code and the file it names",
    sql: `
      ALTER TABLE jobs ADD COLUMN error_code TEXT;
      ALTER TABLE jobs ADD COLUMN error_file TEXT;
    `,
  },
  {
    version: 8,
    name: "how many chapters an item's file carries",
    sql: `ALTER TABLE items ADD COLUMN chapter_count INTEGER;`,
  },
  {
    // Versions are applied by the set here, so 5 is never passed by; 9 keeps the two lists alike.
    version: 9,
    name: "a result's details and its cover, where migration 5 was passed by",
    sql: `
      ALTER TABLE results ADD COLUMN IF NOT EXISTS details JSONB NOT NULL DEFAULT '{}';
      ALTER TABLE results ADD COLUMN IF NOT EXISTS cover TEXT;
    `,
  },
];

async function appliedVersions(client: PoolClient): Promise<Set<number>> {
  await client.query(`CREATE TABLE IF NOT EXISTS schema_migrations (
    version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TIMESTAMPTZ NOT NULL DEFAULT now())`);
  const { rows } = await client.query<{ version: number }>('SELECT version FROM schema_migrations');
  return new Set(rows.map((r) => r.version));
}

/**
 * Bring the database up to date; returns the versions this call applied. Refuses a database that
 * has a migration this code does not know (a newer server ran), rather than guess at it.
 */
export async function migratePg(pool: Pool, migrations: PgMigration[] = PG_MIGRATIONS): Promise<number[]> {
  const client = await pool.connect();
  const applied: number[] = [];
  try {
    await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
    const done = await appliedVersions(client);
    const known = new Set(migrations.map((m) => m.version));
    const unknown = [...done].filter((v) => !known.has(v));
    if (unknown.length > 0) {
      throw new Error(`The database has schema version ${Math.max(...unknown)}, newer than this server knows`);
    }
    for (const m of migrations) {
      if (done.has(m.version)) continue;
      await client.query('BEGIN');
      try {
        await client.query(m.sql);
        await client.query('INSERT INTO schema_migrations (version, name) VALUES ($1, $2)', [m.version, m.name]);
        await client.query('COMMIT');
      } catch (err) {
        await client.query('ROLLBACK');
        throw new Error(`Migration ${m.version} (${m.name}) failed: ${(err as Error).message}`, { cause: err });
      }
      applied.push(m.version);
    }
  } finally {
    await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK]).catch(() => undefined);
    client.release();
  }
  return applied;
}
