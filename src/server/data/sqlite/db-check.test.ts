import { open } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../../../../test/support/audio-fixtures.js';
import { damagePage, makeDatabase } from '../../../../test/support/damaged-db.js';
import { noise } from '../../../../test/support/mp3-synth.js';
import { checkDatabase, DatabaseDamagedError, openCheckedSqliteStore } from './db-check.js';
import { openSqliteStore } from './sqlite-store.js';

let dir: string;
let cleanup: () => Promise<void>;
beforeAll(async () => ({ dir, cleanup } = await tempDir('audio-merge-dbcheck-')));
afterAll(() => cleanup());

const quiet = { warn: () => {} };

describe('the start-up database check', () => {
  it('finds a sound database sound, and no database absent', async () => {
    const file = path.join(dir, 'sound.sqlite');
    expect(await checkDatabase(file, 10_000)).toEqual({ state: 'absent' });
    await makeDatabase(file);
    expect(await checkDatabase(file, 10_000)).toEqual({ state: 'ok' });
  });

  it('finds a database with a damaged page damaged, though SQLite still opens it', async () => {
    const file = path.join(dir, 'damaged.sqlite');
    await makeDatabase(file);
    await damagePage(file);
    // What the server did before: it opens without complaint (which page a query then trips on
    // depends on the schema's layout).
    const opened = openSqliteStore(file);
    await opened.close();
    const outcome = await checkDatabase(file, 10_000);
    expect(outcome.state).toBe('damaged');
    await expect(openCheckedSqliteStore(file, 10_000, quiet)).rejects.toThrow(DatabaseDamagedError);
    await expect(openCheckedSqliteStore(file, 10_000, quiet)).rejects.toThrow(/^the database \S+damaged\.sqlite is damaged \([^\n]+\): stop the server, move that file [^\n]+ aside[^\n]*$/);
  });

  it('refuses a file that is not a database at all', async () => {
    const file = path.join(dir, 'noise.sqlite');
    const fh = await open(file, 'w');
    await fh.write(noise(8192, 3));
    await fh.close();
    expect((await checkDatabase(file, 10_000)).state).toBe('damaged');
    await expect(openCheckedSqliteStore(file, 10_000, quiet)).rejects.toThrow(DatabaseDamagedError);
  });

  it('gives up on a check that takes too long, says so, and opens the database', async () => {
    const file = path.join(dir, 'slow.sqlite');
    await makeDatabase(file, 10);
    expect(await checkDatabase(file, 0)).toEqual({ state: 'timeout' });
    const warned: string[] = [];
    const store = await openCheckedSqliteStore(file, 0, { warn: (_o, msg) => warned.push(msg) });
    expect((await store.sessionBySid('sid-3'))?.sid).toBe('sid-3');
    await store.close();
    expect(warned).toEqual(['the database check did not finish in time; starting without it']);
  });
});
