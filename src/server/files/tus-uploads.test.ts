import { mkdir, readdir, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { tempDir } from '../../../test/support/audio-fixtures.js';
import { systemClock } from '../../shared/clock.js';
import { createTusUploads, UPLOAD_HOLD_IDLE_MS } from './tus-uploads.js';

let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => {
  ({ dir, cleanup } = await tempDir('audio-merge-tus-uploads-'));
});
afterEach(async () => {
  await cleanup();
});

const HOUR = 3600_000;
const id = (n: number) => `upload${String(n).padStart(16, '0')}`;

/** An upload as @tus/file-store leaves it: the bytes and an info file; its last byte `ageHours` ago. */
async function leave(n: number, sid: string | undefined, ageHours: number) {
  const tus = path.join(dir, 'tus');
  await mkdir(tus, { recursive: true });
  const data = path.join(tus, id(n));
  await writeFile(data, 'some bytes');
  const metadata = sid ? { sid, appid: 'audio-merge', filename: `f${n}.mp3` } : {};
  await writeFile(`${data}.json`, JSON.stringify({ id: id(n), size: 100, metadata }));
  const t = new Date(Date.now() - ageHours * HOUR);
  await utimes(data, t, t);
}

describe('resumable uploads on disk', () => {
  it('uploads left by a previous run are known again, by session, and count for it', async () => {
    await leave(1, 'alice', 0);
    await leave(2, 'alice', 0);
    await leave(3, 'bob', 0);
    await leave(4, undefined, 0); // no session: not ours to keep
    const uploads = createTusUploads(dir);
    await uploads.load();
    expect(uploads.get(id(1))).toMatchObject({ sid: 'alice', filename: 'f1.mp3', size: 100 });
    expect([uploads.countFor('alice'), uploads.countFor('bob'), uploads.countFor('carol')]).toEqual([
      2, 1, 0,
    ]);
    expect(uploads.get(id(4))).toBeUndefined();
    expect(await readdir(path.join(dir, 'tus'))).not.toContain(id(4));
  });

  it('starts over an info file cut short by a kill mid-write, removing that upload', async () => {
    await leave(1, 'alice', 0);
    await leave(2, 'alice', 0);
    const cut = path.join(dir, 'tus', `${id(2)}.json`);
    await writeFile(cut, JSON.stringify({ id: id(2), size: 100 }).slice(0, 12));
    const uploads = createTusUploads(dir);
    await uploads.load();
    expect(uploads.get(id(1))).toMatchObject({ sid: 'alice' });
    expect(uploads.get(id(2))).toBeUndefined();
    expect(uploads.countFor('alice')).toBe(1);
    expect((await readdir(path.join(dir, 'tus'))).sort()).toEqual([id(1), `${id(1)}.json`]);
  });

  it('the sweep removes an upload with no byte since the cut-off and one whose session is gone, and keeps the rest', async () => {
    await leave(1, 'alice', 30); // abandoned
    await leave(2, 'alice', 1); // going on
    await leave(3, 'gone', 1); // its session was deleted
    const uploads = createTusUploads(dir);
    await uploads.load();
    const removed = await uploads.sweep(Date.now() - 24 * HOUR, async (sid) => sid !== 'gone');
    expect(removed).toBe(2);
    expect((await readdir(path.join(dir, 'tus'))).sort()).toEqual([id(2), `${id(2)}.json`]);
    expect(uploads.countFor('alice')).toBe(1);
    expect(uploads.countFor('gone')).toBe(0);
  });

  it('holds a declared length while bytes come, lapses after the idle time, and holds the rest again', async () => {
    let now = 1_000_000;
    const clock = { ...systemClock, now: () => now };
    await leave(9, 'carol', 0);
    const uploads = createTusUploads(dir, { clock });
    await uploads.load();
    // Left by another run: known, counted for its session, holding nothing until resumed.
    expect([uploads.declaredBytes(), uploads.declaredBy('carol'), uploads.holds(id(9))]).toEqual([
      0,
      100,
      false,
    ]);
    uploads.reserve({ id: id(1), sid: 'alice', appid: 'a', filename: 'a.mp3', size: 500 });
    uploads.reserve({ id: id(2), sid: 'alice', appid: 'a', filename: 'b.mp3', size: 300 });
    expect([uploads.declaredBytes(), uploads.declaredBy('alice')]).toEqual([800, 800]);

    const sending = uploads.busy(id(1));
    now += UPLOAD_HOLD_IDLE_MS;
    // A request under way keeps its hold; the idle one lapses, yet still counts for its session.
    expect([uploads.declaredBytes(), uploads.declaredBy('alice')]).toEqual([500, 800]);
    sending();
    now += UPLOAD_HOLD_IDLE_MS - 1;
    expect(uploads.holds(id(1))).toBe(true);
    now += 1;
    expect(uploads.declaredBytes()).toBe(0);

    uploads.hold(id(2), 120);
    expect(uploads.declaredBytes()).toBe(120);
    uploads.lapse(id(2));
    expect(uploads.declaredBytes()).toBe(0);
    uploads.release(id(1));
    expect(uploads.declaredBy('alice')).toBe(300);
  });

  it('never builds a path from an id it did not make', () => {
    const uploads = createTusUploads(dir);
    expect(() => uploads.dataPath('../../etc/passwd')).toThrow(/unsafe/);
  });
});

describe('finished uploads remembered', () => {
  it('the item or the refusal a finished upload became, by id, until the sweep after retention', async () => {
    await leave(1, 'alice', 0);
    const uploads = createTusUploads(dir);
    await uploads.load();
    expect(await uploads.isComplete(id(1))).toBe(false);
    await writeFile(path.join(dir, 'tus', id(1)), 'x'.repeat(100));
    expect(await uploads.isComplete(id(1))).toBe(true);
    expect((await uploads.completeOnes()).map((u) => u.id)).toEqual([id(1)]);

    await uploads.recordStored(id(1), { sid: 'alice', size: 100, itemId: 'item-1' });
    await uploads.recordStored(id(2), {
      sid: 'bob',
      size: 5,
      refusal: { status: 422, body: '{"error":"f2.mp3 is not usable audio","code":"not-audio"}' },
    });
    expect(await uploads.storedAs(id(1))).toEqual({ sid: 'alice', size: 100, itemId: 'item-1' });
    expect((await uploads.storedAs(id(2)))?.refusal?.status).toBe(422);
    expect(await uploads.storedAs('../../etc/passwd')).toBeUndefined();

    await uploads.sweep(Date.now() - HOUR, async () => true);
    expect(await uploads.storedAs(id(1))).toBeDefined();
    await uploads.sweep(Date.now() + HOUR, async () => true);
    expect(await uploads.storedAs(id(1))).toBeUndefined();
    expect(await readdir(path.join(dir, 'tus-done'))).toEqual([]);
  });
});
