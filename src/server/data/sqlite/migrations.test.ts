import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../../../test/support/audio-fixtures.js';
import { MIGRATIONS, migrate, schemaVersion, type Migration } from './migrations.js';
import { openSqliteStore } from './sqlite-store.js';
import path from 'node:path';

const tables = (db: Database.Database) =>
  (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").all() as { name: string }[]).map(
    (r) => r.name,
  );

describe('migrations', () => {
  it('apply on a fresh database up to the latest version', () => {
    const db = new Database(':memory:');
    expect(schemaVersion(db)).toBe(0);
    expect(migrate(db)).toBe(MIGRATIONS[MIGRATIONS.length - 1].version);
    expect(tables(db)).toEqual(['items', 'jobs', 'results', 'sessions']);
  });

  it('migration 1 creates the tables the store needs, with cascading deletes', () => {
    const db = new Database(':memory:');
    db.pragma('foreign_keys = ON');
    migrate(db, MIGRATIONS.slice(0, 1));
    db.prepare("INSERT INTO sessions VALUES ('s1', 'h1', 't1', 1, 1)").run();
    db.prepare(
      "INSERT INTO items VALUES ('i1', 1, 's1', 'app', 'n1', 'mp3', 'a.mp3', 10, 1.5, 'mp3', 44100, 2, 1)",
    ).run();
    db.prepare("INSERT INTO jobs VALUES ('j1', 's1', 'app', '[\"i1\"]', 'succeeded', NULL, 'r1', 1, 1, 2)").run();
    db.prepare("INSERT INTO results VALUES ('r1', 's1', 'j1', 'r1.mp3', 'm.mp3', 1.5, 10, '[\"a.mp3\"]', 2)").run();
    expect(() => db.prepare("INSERT INTO jobs VALUES ('j2', 's1', 'app', '[]', 'bogus', NULL, NULL, 1, NULL, NULL)").run())
      .toThrow(/CHECK/);
    expect(() => db.prepare("INSERT INTO items VALUES ('i2', 2, 'nobody', 'app', 'n2', 'mp3', 'b', 1, 1, 'mp3', 1, 1, 1)").run())
      .toThrow(/FOREIGN KEY/);
    db.prepare("DELETE FROM sessions WHERE sid = 's1'").run();
    for (const t of ['items', 'jobs', 'results']) {
      expect((db.prepare(`SELECT COUNT(*) AS n FROM ${t}`).get() as { n: number }).n).toBe(0);
    }
  });

  it('migration 2 keeps a version-1 database\'s rows, with defaults for the new fields, and allows "cancelled"', () => {
    const db = new Database(':memory:');
    db.pragma('foreign_keys = ON');
    migrate(db, MIGRATIONS.slice(0, 1));
    db.prepare("INSERT INTO sessions VALUES ('s1', 'h1', 't1', 1, 1)").run();
    db.prepare("INSERT INTO items VALUES ('i1', 1, 's1', 'app', 'n1', 'mp3', 'a.mp3', 10, 1.5, 'mp3', 44100, 2, 1)").run();
    db.prepare("INSERT INTO jobs VALUES ('j1', 's1', 'app', '[\"i1\"]', 'succeeded', NULL, 'r1', 1, 1, 2)").run();
    db.prepare("INSERT INTO results VALUES ('r1', 's1', 'j1', 'r1.mp3', 'm.mp3', 1.5, 10, '[\"a.mp3\"]', 2)").run();
    expect(migrate(db, MIGRATIONS.slice(0, 2))).toBe(2);
    expect(db.pragma('foreign_keys', { simple: true })).toBe(1);
    expect(db.prepare('SELECT * FROM jobs').get()).toMatchObject({
      id: 'j1', status: 'succeeded', result_id: 'r1', request_id: null, options: '{}', percent: null, status_text: null, attempts: 0,
    });
    expect(db.prepare('SELECT * FROM results').get()).toMatchObject({ id: 'r1', format: 'mp3', chapters: '[]', sources: '["a.mp3"]' });
    expect(db.prepare('SELECT position FROM items').get()).toEqual({ position: null });
    db.prepare("UPDATE jobs SET status = 'cancelled' WHERE id = 'j1'").run();
    expect(() => db.prepare("UPDATE jobs SET status = 'bogus'").run()).toThrow(/CHECK/);
    // The rebuilt jobs table is still what results and sessions cascade through.
    db.prepare("DELETE FROM sessions WHERE sid = 's1'").run();
    for (const t of ['items', 'jobs', 'results']) {
      expect((db.prepare(`SELECT COUNT(*) AS n FROM ${t}`).get() as { n: number }).n).toBe(0);
    }
  });

  it('migration 3 gives results that shared a download name in a session distinct names, then keeps them distinct', () => {
    const db = new Database(':memory:');
    db.pragma('foreign_keys = ON');
    migrate(db, MIGRATIONS.slice(0, 2));
    for (const sid of ['s1', 's2']) db.prepare(`INSERT INTO sessions VALUES ('${sid}', 'h-${sid}', 't', 1, 1)`).run();
    const result = db.prepare(
      "INSERT INTO results (id, sid, job_id, file, download_name, duration, size, sources, created_at) VALUES (?, ?, ?, 'f', ?, 1, 1, '[]', ?)",
    );
    for (const [id, sid, name, at] of [['r1', 's1', 'm.mp3', 1], ['r2', 's1', 'm.mp3', 2], ['r3', 's2', 'm.mp3', 3], ['r4', 's1', 'other', 4], ['r5', 's1', 'other', 5]] as const) {
      db.prepare(`INSERT INTO jobs (id, sid, appid, item_ids, status, created_at) VALUES ('j-${id}', '${sid}', 'app', '[]', 'succeeded', 1)`).run();
      result.run(id, sid, `j-${id}`, name, at);
    }
    expect(migrate(db, MIGRATIONS.slice(0, 3))).toBe(3);
    expect(db.prepare('SELECT id, download_name AS name FROM results ORDER BY id').all()).toEqual([
      { id: 'r1', name: 'm.mp3' },
      { id: 'r2', name: 'm (r2).mp3' },
      { id: 'r3', name: 'm.mp3' },
      { id: 'r4', name: 'other' },
      { id: 'r5', name: 'other (r5)' },
    ]);
    db.prepare("INSERT INTO jobs (id, sid, appid, item_ids, status, created_at) VALUES ('j6', 's1', 'app', '[]', 'succeeded', 1)").run();
    expect(() => result.run('r6', 's1', 'j6', 'm.mp3', 6)).toThrow(/UNIQUE/);
  });

  it('migration 7 keeps a version-6 failed job as it was, its failure code and file unknown (null)', () => {
    const db = new Database(':memory:');
    db.pragma('foreign_keys = ON');
    migrate(db, MIGRATIONS.slice(0, 6));
    db.prepare("INSERT INTO sessions VALUES ('s1', 'h1', 't1', 1, 1)").run();
    db.prepare("INSERT INTO jobs (id, sid, appid, item_ids, status, error, created_at) VALUES ('j1', 's1', 'app', '[]', 'failed', 'It failed', 1)").run();
    expect(migrate(db, MIGRATIONS.slice(0, 7))).toBe(7);
    expect(db.prepare('SELECT status, error, error_code, error_file FROM jobs').get()).toEqual({
      status: 'failed', error: 'It failed', error_code: null, error_file: null,
    });
  });

  it('are idempotent on restart: data survives and nothing runs twice', async () => {
    const { dir, cleanup } = await tempDir();
    try {
      const file = path.join(dir, 'audio-merge.sqlite');
      const first = openSqliteStore(file);
      await first.createSession('hash', 'sid1', 'csrf', 1000);
      await first.close();
      const second = openSqliteStore(file);
      expect(await second.sessionBySid('sid1')).toEqual({ sid: 'sid1', csrfToken: 'csrf', createdAt: 1000, lastSeenAt: 1000 });
      expect(schemaVersion(second.db)).toBe(MIGRATIONS[MIGRATIONS.length - 1].version);
      expect(second.db.pragma('journal_mode', { simple: true })).toBe('wal');
      expect(second.db.pragma('foreign_keys', { simple: true })).toBe(1);
      await second.close();
    } finally {
      await cleanup();
    }
  });

  it('run only the ones not yet applied, each in its own transaction', () => {
    const db = new Database(':memory:');
    const ran: number[] = [];
    const list: Migration[] = [
      { version: 1, name: 'a', up: (d) => (ran.push(1), d.exec('CREATE TABLE a (x)')) },
      { version: 2, name: 'b', up: (d) => (ran.push(2), d.exec('CREATE TABLE b (x)')) },
    ];
    migrate(db, list.slice(0, 1));
    migrate(db, list);
    migrate(db, list);
    expect(ran).toEqual([1, 2]);
    const broken: Migration = { version: 3, name: 'c', up: (d) => (d.exec('CREATE TABLE c (x)'), d.exec('NOT SQL')) };
    expect(() => migrate(db, [...list, broken])).toThrow();
    expect(schemaVersion(db)).toBe(2);
    expect(tables(db)).not.toContain('c');
  });

  it('refuses a database newer than the code', () => {
    const db = new Database(':memory:');
    db.pragma('user_version = 99');
    expect(() => migrate(db)).toThrow(/newer/);
  });
});

describe('migration 4', () => {
  it('gives items a kept span and a chapter title, null for the items already there', () => {
    const db = new Database(':memory:');
    migrate(db, MIGRATIONS.slice(0, 3));
    db.prepare("INSERT INTO sessions VALUES ('s1', 'h', 't', 1, 1)").run();
    db.prepare(
      "INSERT INTO items (id, seq, sid, appid, newfilename, format, filename, size, duration, codec, sample_rate, channels, created_at) VALUES ('a', 1, 's1', 'app', 'n', 'mp3', 'a.mp3', 1, 2.5, 'mp3', 44100, 2, 1)",
    ).run();
    expect(migrate(db, MIGRATIONS.slice(0, 4))).toBe(4);
    expect(db.prepare('SELECT trim_start, trim_end, chapter_title FROM items').get()).toEqual({
      trim_start: null,
      trim_end: null,
      chapter_title: null,
    });
  });
});

describe('migration 5', () => {
  it('gives results details and a cover: none for the results already there, which stay listed', () => {
    const db = new Database(':memory:');
    migrate(db, MIGRATIONS.slice(0, 4));
    db.prepare("INSERT INTO sessions VALUES ('s1', 'h', 't', 1, 1)").run();
    db.prepare("INSERT INTO jobs (id, sid, appid, item_ids, status, created_at) VALUES ('j1', 's1', 'app', '[]', 'succeeded', 1)").run();
    db.prepare(
      "INSERT INTO results (id, sid, job_id, file, download_name, duration, size, sources, created_at) VALUES ('r1', 's1', 'j1', 'j1.mp3', 'old.mp3', 2, 10, '[]', 1)",
    ).run();
    expect(migrate(db, MIGRATIONS.slice(0, 5))).toBe(5);
    expect(db.prepare('SELECT details, cover FROM results').get()).toEqual({ details: '{}', cover: null });
  });
});

describe('migration 6', () => {
  it("gives items their title tag, none for the items already there", () => {
    const db = new Database(':memory:');
    migrate(db, MIGRATIONS.filter((m) => m.version < 6));
    db.prepare("INSERT INTO sessions VALUES ('s1', 'h', 't', 1, 1)").run();
    db.prepare(
      "INSERT INTO items (id, seq, sid, appid, newfilename, format, filename, size, duration, codec, sample_rate, channels, created_at) VALUES ('a', 1, 's1', 'app', 'n', 'mp3', 'a.mp3', 1, 2.5, 'mp3', 44100, 2, 1)",
    ).run();
    expect(migrate(db, MIGRATIONS.filter((m) => m.version <= 6))).toBe(6);
    expect(db.prepare('SELECT title_tag FROM items').get()).toEqual({ title_tag: null });
  });
});

describe('migration 8', () => {
  it('gives items a chapter count, unknown for the items already there', () => {
    const db = new Database(':memory:');
    migrate(db, MIGRATIONS.filter((m) => m.version < 8));
    db.prepare("INSERT INTO sessions VALUES ('s1', 'h', 't', 1, 1)").run();
    db.prepare(
      "INSERT INTO items (id, seq, sid, appid, newfilename, format, filename, size, duration, codec, sample_rate, channels, created_at) VALUES ('a', 1, 's1', 'app', 'n', 'mp3', 'a.mp3', 1, 2.5, 'mp3', 44100, 2, 1)",
    ).run();
    expect(migrate(db, MIGRATIONS.filter((m) => m.version <= 8))).toBe(8);
    expect(db.prepare('SELECT chapter_count FROM items').get()).toEqual({ chapter_count: null });
  });
});

describe('migration 9', () => {
  it('gives a database released at version 6, which passed migration 5 by, its results details and cover', () => {
    const db = new Database(':memory:');
    migrate(db, MIGRATIONS.filter((m) => m.version <= 6 && m.version !== 5));
    expect(schemaVersion(db)).toBe(6);
    db.prepare("INSERT INTO sessions VALUES ('s1', 'h', 't', 1, 1)").run();
    db.prepare("INSERT INTO jobs (id, sid, appid, item_ids, status, created_at) VALUES ('j1', 's1', 'app', '[]', 'succeeded', 1)").run();
    db.prepare(
      "INSERT INTO results (id, sid, job_id, file, download_name, duration, size, sources, created_at) VALUES ('r1', 's1', 'j1', 'j1.mp3', 'old.mp3', 2, 10, '[]', 1)",
    ).run();
    expect(migrate(db)).toBe(9);
    expect(db.prepare('SELECT details, cover FROM results').get()).toEqual({ details: '{}', cover: null });
  });

  it('leaves a database that ran migration 5 as it was', () => {
    const db = new Database(':memory:');
    migrate(db, MIGRATIONS.filter((m) => m.version <= 8));
    expect(migrate(db)).toBe(9);
    const columns = (db.pragma('table_info(results)') as { name: string }[]).map((c) => c.name);
    expect(columns.filter((c) => c === 'details' || c === 'cover')).toEqual(['details', 'cover']);
  });
});
