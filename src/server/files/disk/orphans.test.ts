import { existsSync } from 'node:fs';
import { lutimes, mkdir, readdir, rm, symlink, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeTone } from '../../../../test/support/audio-fixtures.js';
import { listItems, openSession, startTestApp, upload } from '../../../../test/support/server-harness.js';
import { removeOrphanFolders } from './orphans.js';
import { diskScratch } from '../../../../test/support/disk-scratch.js';
import { clockAt } from '../../../../test/support/clock-at.js';

const HOUR = 3600_000;
const disk = diskScratch('audio-merge-orphans-');

/** A session folder with a file, last changed `ageMs` ago. */
async function folder(dir: string, ageMs: number): Promise<void> {
  await mkdir(dir, { recursive: true });
  await writeFile(path.join(dir, 'a.mp3'), 'audio');
  const t = (Date.now() - ageMs) / 1000;
  await utimes(dir, t, t);
}

describe('the sweep of folders that belong to no session', () => {
  it('removes old folders without a session row, and keeps those with one and those made just now', async () => {
    await disk.store.createSession('h', 'owned', 'csrf', 0);
    await folder(disk.storage.uploadsDir('owned'), 5 * HOUR);
    await folder(disk.storage.resultsDir('owned'), 5 * HOUR);
    await folder(disk.storage.uploadsDir('lost'), 5 * HOUR);
    await folder(disk.storage.resultsDir('lost'), 5 * HOUR);
    await folder(disk.storage.uploadsDir('fresh'), 60_000); // a session being made or deleted right now
    await folder(path.join(disk.storage.root, 'tus', 'lost'), 5 * HOUR); // resumable uploads: their own sweep's

    const removed = await removeOrphanFolders({
      store: disk.store,
      storage: disk.storage,
      clock: { now: Date.now },
    });

    expect(removed.sort()).toEqual([disk.storage.resultsDir('lost'), disk.storage.uploadsDir('lost')].sort());
    expect(await readdir(path.join(disk.storage.root, 'uploads'))).toEqual(
      expect.arrayContaining(['owned', 'fresh']),
    );
    expect(existsSync(path.join(disk.storage.uploadsDir('owned'), 'a.mp3'))).toBe(true);
    expect(existsSync(path.join(disk.storage.resultsDir('owned'), 'a.mp3'))).toBe(true);
    expect(existsSync(disk.storage.uploadsDir('lost'))).toBe(false);
    expect(existsSync(disk.storage.resultsDir('lost'))).toBe(false);
    expect(existsSync(path.join(disk.storage.root, 'tus', 'lost', 'a.mp3'))).toBe(true);
  });

  it('removes a link that stands in uploads/ without following it out of DATA_DIR', async () => {
    const link = path.join(disk.storage.root, 'uploads', 'linked');
    await symlink(disk.outside, link);
    const old = (Date.now() - 5 * HOUR) / 1000;
    await lutimes(link, old, old);
    await removeOrphanFolders({ store: disk.store, storage: disk.storage, clock: { now: Date.now } });
    expect(existsSync(link)).toBe(false);
    expect(existsSync(path.join(disk.outside, 'keep.txt'))).toBe(true);
  });

  it('through the app: a lost database leaves no upload folder behind, and the new sessions keep theirs', async () => {
    const tone = await makeTone(path.join(disk.root, 'tone.wav'), { seconds: 0.5 });
    const dataDir = path.join(disk.root, 'app-data');
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
