import { existsSync } from 'node:fs';
import { lutimes, mkdir, readdir, rm, symlink, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTone, tempDir } from '../../../../test/support/audio-fixtures.js';
import { listItems, openSession, startTestApp, upload } from '../../../../test/support/server-harness.js';
import { openSqliteStore } from '../../data/sqlite/sqlite-store.js';
import type { Store } from '../../data/store.js';
import { ORPHAN_MIN_AGE_MS, removeOrphanFolders } from './orphans.js';
import { clockAt } from '../../../shared/clock.js';
import { createDiskStorage, type DiskStorage } from './disk-storage.js';

const HOUR = 3600_000;
let root: string;
let cleanup: () => Promise<void>;
let storage: DiskStorage;
let store: Store;
let outside: string;

/** A session folder with a file, last changed `ageMs` ago. */
async function folder(dir: string, ageMs: number): Promise<void> {
  await mkdir(dir, { recursive: true });
  await writeFile(path.join(dir, 'a.mp3'), 'audio');
  const t = (Date.now() - ageMs) / 1000;
  await utimes(dir, t, t);
}

beforeEach(async () => {
  ({ dir: root, cleanup } = await tempDir('audio-merge-orphans-'));
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

describe('the sweep of folders that belong to no session', () => {
  it('removes old folders without a session row, and keeps those with one and those made just now', async () => {
    await store.createSession('h', 'owned', 'csrf', 0);
    await folder(storage.uploadsDir('owned'), 5 * HOUR);
    await folder(storage.resultsDir('owned'), 5 * HOUR);
    await folder(storage.uploadsDir('lost'), 5 * HOUR);
    await folder(storage.resultsDir('lost'), 5 * HOUR);
    await folder(storage.uploadsDir('fresh'), 60_000); // a session being made or deleted right now
    await folder(path.join(storage.root, 'tus', 'lost'), 5 * HOUR); // resumable uploads: their own sweep's

    const removed = await removeOrphanFolders({ store, storage, clock: { now: Date.now } });

    expect(removed.sort()).toEqual([storage.resultsDir('lost'), storage.uploadsDir('lost')].sort());
    expect(await readdir(path.join(storage.root, 'uploads'))).toEqual(
      expect.arrayContaining(['owned', 'fresh']),
    );
    expect(existsSync(path.join(storage.uploadsDir('owned'), 'a.mp3'))).toBe(true);
    expect(existsSync(path.join(storage.resultsDir('owned'), 'a.mp3'))).toBe(true);
    expect(existsSync(storage.uploadsDir('lost'))).toBe(false);
    expect(existsSync(storage.resultsDir('lost'))).toBe(false);
    expect(existsSync(path.join(storage.root, 'tus', 'lost', 'a.mp3'))).toBe(true);
    expect(ORPHAN_MIN_AGE_MS).toBeGreaterThan(60_000);
  });

  it('removes a link that stands in uploads/ without following it out of DATA_DIR', async () => {
    const link = path.join(storage.root, 'uploads', 'linked');
    await symlink(outside, link);
    const old = (Date.now() - 5 * HOUR) / 1000;
    await lutimes(link, old, old);
    await removeOrphanFolders({ store, storage, clock: { now: Date.now } });
    expect(existsSync(link)).toBe(false);
    expect(existsSync(path.join(outside, 'keep.txt'))).toBe(true);
  });

  it('through the app: a lost database leaves no upload folder behind, and the new sessions keep theirs', async () => {
    const tone = await makeTone(path.join(root, 'tone.wav'), { seconds: 0.5 });
    const dataDir = path.join(root, 'app-data');
    const first = await startTestApp({ dataDir });
    const old = await openSession(first.app);
    await upload(first.app, old, [{ path: tone }]);
    const [oldItem] = await listItems(first.app, old);
    const oldFile = first.storage.uploadPath(oldItem);
    await first.close();
    for (const suffix of ['', '-wal', '-shm'])
      await rm(path.join(dataDir, `audio-merge.sqlite${suffix}`), { force: true });
    expect(existsSync(oldFile)).toBe(true);

    let clock = Date.now();
    const second = await startTestApp({ dataDir }, { clock: clockAt(() => clock) });
    try {
      const fresh = await openSession(second.app);
      await upload(second.app, fresh, [{ path: tone }]);
      const [freshItem] = await listItems(second.app, fresh);
      clock += 2 * HOUR;
      await second.sweeper.sweepOnce();
      expect(existsSync(oldFile)).toBe(false);
      expect(existsSync(second.storage.uploadsDir(old.sid))).toBe(false);
      const kept = await second.app.inject({
        method: 'GET',
        url: `/upload/${fresh.sid}/${freshItem.newfilename}.wav`,
        headers: { cookie: fresh.cookie },
      });
      expect(kept.statusCode).toBe(200);
    } finally {
      await second.close();
    }
  });
});
