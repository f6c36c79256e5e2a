import { existsSync } from 'node:fs';
import { mkdir, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { makeTone, tempDir } from '../../../test/support/audio-fixtures.js';
import { listItems, openSession, startTestApp, upload } from '../../../test/support/server-harness.js';
import { openSqliteStore } from '../data/sqlite/sqlite-store.js';
import { createDiskStorage, type DiskStorage } from './disk/disk-storage.js';
import type { Store } from '../data/store.js';
import { job } from '../../../test/support/job-kit.js';
import { clockAt } from '../../shared/clock.js';
import { removeInside } from './disk/remove-inside.js';
import { createSweeper } from './sweep.js';

const HOUR = 3600_000;
const quiet = { info() {}, warn() {}, error() {} };

let root: string;
let cleanup: () => Promise<void>;
let storage: DiskStorage;
let store: Store;
let outside: string;

async function sessionWithFiles(sid: string, lastSeenAt: number) {
  await store.createSession(`hash-${sid}`, sid, 'csrf', lastSeenAt);
  await mkdir(storage.uploadsDir(sid), { recursive: true });
  await mkdir(storage.resultsDir(sid), { recursive: true });
  await writeFile(path.join(storage.uploadsDir(sid), 'a.mp3'), 'audio');
  await writeFile(path.join(storage.resultsDir(sid), 'r.mp3'), 'merged');
}

beforeEach(async () => {
  ({ dir: root, cleanup } = await tempDir('audio-merge-sweep-'));
  storage = createDiskStorage(path.join(root, 'data'));
  store = openSqliteStore(path.join(storage.root, 'audio-merge.sqlite'));
  outside = path.join(root, 'outside');
  await mkdir(outside);
  await writeFile(path.join(outside, 'keep.txt'), 'not ours');
});
afterEach(async () => {
  await store.close();
  await cleanup();
});

describe('the retention sweep', () => {
  it('deletes idle sessions with their files, and keeps live ones and ones with a merge under way', async () => {
    const now = 100 * HOUR;
    await sessionWithFiles('idle', now - 25 * HOUR);
    await sessionWithFiles('live', now - 1 * HOUR);
    await sessionWithFiles('busy', now - 30 * HOUR);
    await store.addJob(job('j', 'busy', [], 'a', { status: 'running', startedAt: 0 }));
    const sweeper = createSweeper({
      store,
      files: storage,
      retentionHours: 24,
      intervalMs: 0,
      clock: { now: () => now },
      log: quiet,
    });

    expect(await sweeper.sweepOnce()).toEqual(['idle']);
    expect(await store.sessionBySid('idle')).toBeUndefined();
    expect(existsSync(storage.uploadsDir('idle'))).toBe(false);
    expect(existsSync(storage.resultsDir('idle'))).toBe(false);
    for (const sid of ['live', 'busy']) {
      expect(await store.sessionBySid(sid)).toBeDefined();
      expect(existsSync(path.join(storage.uploadsDir(sid), 'a.mp3'))).toBe(true);
      expect(existsSync(path.join(storage.resultsDir(sid), 'r.mp3'))).toBe(true);
    }
    expect(existsSync(path.join(storage.root, 'audio-merge.sqlite'))).toBe(true);
  });

  it('runs on its interval as the clock moves', async () => {
    vi.useFakeTimers();
    try {
      let now = 0;
      await sessionWithFiles('s1', 0);
      const sweeper = createSweeper({
        store,
        files: storage,
        retentionHours: 1,
        intervalMs: 10 * 60_000,
        clock: { now: () => now },
        log: quiet,
      });
      sweeper.start();
      now = 30 * 60_000;
      await vi.advanceTimersByTimeAsync(10 * 60_000);
      expect(await store.sessionBySid('s1')).toBeDefined();
      now = 2 * HOUR;
      await vi.advanceTimersByTimeAsync(10 * 60_000);
      await vi.waitFor(async () => expect(await store.sessionBySid('s1')).toBeUndefined());
      sweeper.stop();
    } finally {
      vi.useRealTimers();
    }
  });

  it('removes a link in place of a session folder without following it out of DATA_DIR', async () => {
    await store.createSession('h', 'linked', 'csrf', 0);
    await symlink(outside, storage.uploadsDir('linked'));
    await mkdir(storage.resultsDir('linked'), { recursive: true });
    await symlink(path.join(outside, 'keep.txt'), path.join(storage.resultsDir('linked'), 'r.mp3'));
    const sweeper = createSweeper({
      store,
      files: storage,
      retentionHours: 1,
      intervalMs: 0,
      clock: { now: () => 10 * HOUR },
      log: quiet,
    });

    expect(await sweeper.sweepOnce()).toEqual(['linked']);
    expect(existsSync(storage.uploadsDir('linked'))).toBe(false);
    expect(existsSync(storage.resultsDir('linked'))).toBe(false);
    expect(existsSync(path.join(outside, 'keep.txt'))).toBe(true);
  });

  it('refuses to delete anything outside DATA_DIR, even through a linked parent', async () => {
    await expect(removeInside(storage.root, outside)).rejects.toThrow(/not inside/);
    await expect(removeInside(storage.root, storage.root)).rejects.toThrow(/not inside/);
    await symlink(outside, path.join(storage.root, 'escape'));
    await expect(removeInside(storage.root, path.join(storage.root, 'escape', 'keep.txt'))).rejects.toThrow(
      /not inside/,
    );
    expect(existsSync(path.join(outside, 'keep.txt'))).toBe(true);
  });

  it('keeps a session that was used after the idle list was read', async () => {
    const now = 100 * HOUR;
    await sessionWithFiles('s1', 0);
    const realIdle = store.idleSessions.bind(store);
    store.idleSessions = async (before) => {
      const list = await realIdle(before);
      await store.touchSession('s1', now);
      return list;
    };
    const sweeper = createSweeper({
      store,
      files: storage,
      retentionHours: 1,
      intervalMs: 0,
      clock: { now: () => now },
      log: quiet,
    });
    expect(await sweeper.sweepOnce()).toEqual([]);
    expect(existsSync(path.join(storage.uploadsDir('s1'), 'a.mp3'))).toBe(true);
  });

  it('through the app: an idle session loses its uploads and its cookie; a session in use keeps everything', async () => {
    let clock = 1_000 * HOUR;
    const t = await startTestApp({ retentionHours: 24 }, { clock: clockAt(() => clock) });
    try {
      const tone = await makeTone(path.join(root, 'tone.wav'), { seconds: 0.5 });
      const idle = await openSession(t.app);
      const busy = await openSession(t.app);
      await upload(t.app, idle, [{ path: tone }]);
      await upload(t.app, busy, [{ path: tone }]);
      const [idleItem] = await listItems(t.app, idle);
      const [busyItem] = await listItems(t.app, busy);

      clock += 20 * HOUR;
      await t.app.inject({ method: 'GET', url: '/', headers: { cookie: busy.cookie } });
      clock += 5 * HOUR;
      expect(await t.sweeper.sweepOnce()).toEqual([idle.sid]);

      expect(existsSync(t.storage.uploadPath(idleItem))).toBe(false);
      const gone = await t.app.inject({
        method: 'GET',
        url: `/upload/${idle.sid}/${idleItem.newfilename}.wav`,
        headers: { cookie: idle.cookie },
      });
      expect(gone.statusCode).toBe(403);
      const kept = await t.app.inject({
        method: 'GET',
        url: `/upload/${busy.sid}/${busyItem.newfilename}.wav`,
        headers: { cookie: busy.cookie },
      });
      expect(kept.statusCode).toBe(200);
      expect(existsSync(path.join(t.dataDir, 'audio-merge.sqlite'))).toBe(true);
    } finally {
      await t.dispose();
    }
  });
});
