import { existsSync } from 'node:fs';
import { mkdir, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { makeTone } from '../../../test/support/audio-fixtures.js';
import { listItems, openSession, startTestApp, upload } from '../../../test/support/server-harness.js';
import { job } from '../../../test/support/job-kit.js';
import { diskScratch } from '../../../test/support/disk-scratch.js';
import { clockAt } from '../../../test/support/clock-at.js';
import { removeInside } from './disk/remove-inside.js';
import { createSweeper } from './sweep.js';

const HOUR = 3600_000;
const quiet = { info() {}, warn() {}, error() {} };

const disk = diskScratch('audio-merge-sweep-');

async function sessionWithFiles(sid: string, lastSeenAt: number) {
  await disk.store.createSession(`hash-${sid}`, sid, 'csrf', lastSeenAt);
  await mkdir(disk.storage.uploadsDir(sid), { recursive: true });
  await mkdir(disk.storage.resultsDir(sid), { recursive: true });
  await writeFile(path.join(disk.storage.uploadsDir(sid), 'a.mp3'), 'audio');
  await writeFile(path.join(disk.storage.resultsDir(sid), 'r.mp3'), 'merged');
}

describe('the retention sweep', () => {
  it('deletes idle sessions with their files, and keeps live ones and ones with a merge under way', async () => {
    const now = 100 * HOUR;
    await sessionWithFiles('idle', now - 25 * HOUR);
    await sessionWithFiles('live', now - 1 * HOUR);
    await sessionWithFiles('busy', now - 30 * HOUR);
    await disk.store.addJob(job('j', 'busy', [], 'a', { status: 'running', startedAt: 0 }));
    const sweeper = createSweeper({
      store: disk.store,
      files: disk.storage,
      retentionHours: 24,
      intervalMs: 0,
      clock: { now: () => now },
      log: quiet,
    });

    expect(await sweeper.sweepOnce()).toEqual(['idle']);
    expect(await disk.store.sessionBySid('idle')).toBeUndefined();
    expect(existsSync(disk.storage.uploadsDir('idle'))).toBe(false);
    expect(existsSync(disk.storage.resultsDir('idle'))).toBe(false);
    for (const sid of ['live', 'busy']) {
      expect(await disk.store.sessionBySid(sid)).toBeDefined();
      expect(existsSync(path.join(disk.storage.uploadsDir(sid), 'a.mp3'))).toBe(true);
      expect(existsSync(path.join(disk.storage.resultsDir(sid), 'r.mp3'))).toBe(true);
    }
    expect(existsSync(path.join(disk.storage.root, 'audio-merge.sqlite'))).toBe(true);
  });

  it('runs on its interval as the clock moves', async () => {
    vi.useFakeTimers();
    try {
      let now = 0;
      await sessionWithFiles('s1', 0);
      const sweeper = createSweeper({
        store: disk.store,
        files: disk.storage,
        retentionHours: 1,
        intervalMs: 10 * 60_000,
        clock: { now: () => now },
        log: quiet,
      });
      sweeper.start();
      now = 30 * 60_000;
      await vi.advanceTimersByTimeAsync(10 * 60_000);
      expect(await disk.store.sessionBySid('s1')).toBeDefined();
      now = 2 * HOUR;
      await vi.advanceTimersByTimeAsync(10 * 60_000);
      await vi.waitFor(async () => expect(await disk.store.sessionBySid('s1')).toBeUndefined());
      sweeper.stop();
    } finally {
      vi.useRealTimers();
    }
  });

  it('removes a link in place of a session folder without following it out of DATA_DIR', async () => {
    await disk.store.createSession('h', 'linked', 'csrf', 0);
    await symlink(disk.outside, disk.storage.uploadsDir('linked'));
    await mkdir(disk.storage.resultsDir('linked'), { recursive: true });
    await symlink(path.join(disk.outside, 'keep.txt'), path.join(disk.storage.resultsDir('linked'), 'r.mp3'));
    const sweeper = createSweeper({
      store: disk.store,
      files: disk.storage,
      retentionHours: 1,
      intervalMs: 0,
      clock: { now: () => 10 * HOUR },
      log: quiet,
    });

    expect(await sweeper.sweepOnce()).toEqual(['linked']);
    expect(existsSync(disk.storage.uploadsDir('linked'))).toBe(false);
    expect(existsSync(disk.storage.resultsDir('linked'))).toBe(false);
    expect(existsSync(path.join(disk.outside, 'keep.txt'))).toBe(true);
  });

  it('refuses to delete anything outside DATA_DIR, even through a linked parent', async () => {
    await expect(removeInside(disk.storage.root, disk.outside)).rejects.toThrow(/not inside/);
    await expect(removeInside(disk.storage.root, disk.storage.root)).rejects.toThrow(/not inside/);
    await symlink(disk.outside, path.join(disk.storage.root, 'escape'));
    await expect(
      removeInside(disk.storage.root, path.join(disk.storage.root, 'escape', 'keep.txt')),
    ).rejects.toThrow(/not inside/);
    expect(existsSync(path.join(disk.outside, 'keep.txt'))).toBe(true);
  });

  it('keeps a session that was used after the idle list was read', async () => {
    const now = 100 * HOUR;
    await sessionWithFiles('s1', 0);
    const realIdle = disk.store.idleSessions.bind(disk.store);
    disk.store.idleSessions = async (before) => {
      const list = await realIdle(before);
      await disk.store.touchSession('s1', now);
      return list;
    };
    const sweeper = createSweeper({
      store: disk.store,
      files: disk.storage,
      retentionHours: 1,
      intervalMs: 0,
      clock: { now: () => now },
      log: quiet,
    });
    expect(await sweeper.sweepOnce()).toEqual([]);
    expect(existsSync(path.join(disk.storage.uploadsDir('s1'), 'a.mp3'))).toBe(true);
  });

  it('through the app: an idle session loses its uploads and its cookie; a session in use keeps everything', async () => {
    let clock = 1_000 * HOUR;
    const t = await startTestApp({ retentionHours: 24 }, { clock: clockAt(() => clock) });
    try {
      const tone = await makeTone(path.join(disk.root, 'tone.wav'), { seconds: 0.5 });
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
