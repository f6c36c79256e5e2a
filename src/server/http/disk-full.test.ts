// A full disk with the failures injected: the low-space watermark, and SQLite answering
// SQLITE_FULL. (test/disk-full.test.ts fills a real small disk.)
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTone, tempDir } from '../../../test/support/audio-fixtures.js';
import { clockAt } from '../../shared/clock.js';
import {
  listItems,
  openSession,
  postJson,
  startTestApp,
  upload,
  type TestApp,
} from '../../../test/support/server-harness.js';

const MB = 1024 * 1024;
const DISK_FULL = "The server's disk is full";
const sqliteFull = async () => {
  throw Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL' });
};

let t: TestApp;
let media: { dir: string; cleanup: () => Promise<void> };
let free = 100 * MB;
let clock = Date.now();

beforeAll(async () => {
  media = await tempDir('disk-injected-');
  await makeTone(path.join(media.dir, 'big.wav'), { seconds: 20 }); // ~3.5 MB
  await makeTone(path.join(media.dir, 'small.mp3'), { seconds: 1 });
  t = await startTestApp(
    { minFreeBytes: 8 * MB },
    { freeSpace: async () => free, clock: clockAt(() => clock) },
  );
});
afterAll(async () => {
  await t.dispose();
  await media.cleanup();
});

const tmpFiles = async () => readdir(t.storage.tmpDir);

describe('a full disk, injected', () => {
  it('refuses an upload that would leave less than MIN_FREE_MB free, before storing a byte, and takes one that fits', async () => {
    const s = await openSession(t.app);
    free = 10 * MB;
    const big = await upload(t.app, s, [{ path: path.join(media.dir, 'big.wav') }]);
    expect(big.statusCode).toBe(507);
    expect(big.json()).toEqual({ error: DISK_FULL, code: 'disk-full' });
    expect(await tmpFiles()).toEqual([]);
    const small = await upload(t.app, s, [{ path: path.join(media.dir, 'small.mp3') }]);
    expect(small.statusCode).toBe(200);
    free = 7 * MB;
    expect((await upload(t.app, s, [{ path: path.join(media.dir, 'small.mp3') }])).statusCode).toBe(507);
    expect(await listItems(t.app, s)).toHaveLength(1);
    free = 100 * MB;
  });

  it('answers 507 when the database cannot store the upload, and keeps neither the file nor a row', async () => {
    const s = await openSession(t.app);
    // The store's own method, under the item-list cache (reading it through the cache gives the cache's wrapper).
    const addItemIfUnder = Object.getOwnPropertyDescriptor(t.store, 'addItemIfUnder')!
      .value as typeof t.store.addItemIfUnder;
    t.store.addItemIfUnder = sqliteFull;
    try {
      const res = await upload(t.app, s, [{ path: path.join(media.dir, 'small.mp3') }]);
      expect(res.statusCode).toBe(507);
      expect(res.json()).toEqual({ error: DISK_FULL, code: 'disk-full' });
    } finally {
      t.store.addItemIfUnder = addItemIfUnder;
    }
    expect(await tmpFiles()).toEqual([]);
    expect(await readdir(t.storage.uploadsDir(s.sid)).catch(() => [])).toEqual([]);
    expect(await listItems(t.app, s)).toEqual([]);
  });

  it('shows a new visitor a page saying the disk is full, and an existing session its page', async () => {
    const s = await openSession(t.app);
    const { createSession, touchSession } = t.store;
    t.store.createSession = sqliteFull;
    t.store.touchSession = sqliteFull;
    clock += 3600_000; // long enough since the last visit that the session is marked seen
    try {
      const newcomer = await t.app.inject({ method: 'GET', url: '/' });
      expect(newcomer.statusCode).toBe(507);
      expect(newcomer.headers['content-type']).toMatch(/^text\/html/);
      expect(newcomer.body).toContain('The server&#39;s disk is full; please try again later.');
      expect(newcomer.headers['set-cookie']).toBeUndefined();
      const known = await t.app.inject({ method: 'GET', url: '/', headers: { cookie: s.cookie } });
      expect(known.statusCode).toBe(200);
      expect(known.body).toContain(s.csrf);
      expect(await listItems(t.app, s)).toEqual([]);
    } finally {
      t.store.createSession = createSession;
      t.store.touchSession = touchSession;
    }
    expect((await t.app.inject({ method: 'GET', url: '/' })).statusCode).toBe(200);
  });

  it('answers a merge that cannot be recorded with 507', async () => {
    const s = await openSession(t.app);
    const stored = await upload(t.app, s, [{ path: path.join(media.dir, 'small.mp3') }]);
    expect(stored.statusCode, stored.body).toBe(200);
    const [item] = await listItems(t.app, s);
    const addJob = t.store.addJobIfUnder;
    t.store.addJobIfUnder = sqliteFull;
    try {
      const res = await postJson(t.app, s, '/app/merge/mergemp3', { items: [{ id: item.id }] });
      expect(res.statusCode).toBe(507);
      expect(res.json()).toEqual({ error: DISK_FULL, code: 'disk-full' });
    } finally {
      t.store.addJobIfUnder = addJob;
    }
  });
});
