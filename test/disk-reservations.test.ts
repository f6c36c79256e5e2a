// DATA_DIR on a 200 MB tmpfs, MIN_FREE_MB at its default (64): a merge reserves what it will
// write before it starts, resumable uploads hold their declared lengths, and whatever one
// session asks for, another session's merges all succeed. A refused merge leaves nothing.
import { execFile } from 'node:child_process';
import type { AddressInfo } from 'node:net';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTone, tempDir, tools } from './support/audio-fixtures.js';
import {
  listItems,
  openSession,
  postJson,
  startTestApp,
  upload,
  type TestApp,
  type TestSession,
} from './support/server-harness.js';
import { fillDisk, mountSmallDisk, type SmallDisk } from './support/small-disk.js';
import { tusClient } from './support/tus-requests.js';

const disk: SmallDisk = await mountSmallDisk(200);
if (!disk.ok) console.warn(`skipping the disk reservation tests: ${disk.reason}`);

let app: TestApp;
let media: { dir: string; cleanup: () => Promise<void> };
const file = (name: string) => path.join(media.dir, name);

beforeAll(async () => {
  if (!disk.ok) return;
  media = await tempDir('disk-reservations-');
  // Ten minutes of 192 kHz 7.1 silence in about 250 KB: as WAV, hundreds of MB.
  await promisify(execFile)(tools.ffmpeg, [
    ...['-v', 'error', '-y', '-f', 'lavfi', '-i', 'anullsrc=r=192000:cl=7.1', '-t', '600'],
    ...['-c:a', 'flac', file('tiny.flac')],
  ]);
  await makeTone(file('tone.mp3'), { seconds: 20 });
  app = await startTestApp({ dataDir: path.join(disk.dir, 'data'), mergeConcurrency: 2 });
  await app.app.listen({ host: '127.0.0.1', port: 0 });
});
afterAll(async () => {
  await app?.close();
  await media?.cleanup();
  if (disk.ok) await disk.dispose();
});

async function withItem(name: string): Promise<TestSession & { item: string }> {
  const s = await openSession(app.app);
  expect((await upload(app.app, s, [{ path: file(name) }])).statusCode).toBe(200);
  return { ...s, item: (await listItems(app.app, s))[0].id };
}

const merge = (s: TestSession, ids: string[], options?: object) =>
  postJson(app.app, s, '/app/merge/mergemp3', { items: ids.map((id) => ({ id })), options });
const scratch = async () =>
  (await readdir(path.join(app.dataDir, 'tmp'))).filter((n) => n.startsWith('job-'));

describe.skipIf(!disk.ok)('disk reservations on a 200 MB disk', () => {
  it("refuses an attacker's merge that cannot fit with 507 at once, and another session's merges all succeed", async () => {
    const attacker = await withItem('tiny.flac');
    const other = await withItem('tone.mp3');
    const [refused, ...ordinary] = await Promise.all([
      merge(attacker, Array(4).fill(attacker.item), { format: 'wav' }),
      merge(other, [other.item]),
      merge(other, [other.item, other.item]),
      merge(other, [other.item], { format: 'm4b' }),
    ]);
    expect(refused.statusCode).toBe(507);
    expect(refused.json()).toMatchObject({
      code: 'disk-full',
      error: expect.stringMatching(/no room for this merge/),
    });
    expect(ordinary.map((r) => r.statusCode)).toEqual([200, 200, 200]);
    const more = await Promise.all([
      merge(other, [other.item]),
      merge(other, [other.item], { format: 'flac' }),
    ]);
    expect(more.map((r) => r.statusCode)).toEqual([200, 200]);
    expect(await app.store.listResults(other.sid)).toHaveLength(5);
    expect(await scratch()).toEqual([]);
  });

  it('holds each resumable upload to its declared length: a creation that cannot fit is a 507 before a byte', async () => {
    const s = await openSession(app.app);
    const base = `http://127.0.0.1:${(app.app.server.address() as AddressInfo).port}`;
    const tus = tusClient(base, s);
    const sixty = 60 * 1024 * 1024;
    const first = await tus.create(sixty, { filename: 'a.wav', appid: s.appid });
    const second = await tus.create(sixty, { filename: 'b.wav', appid: s.appid });
    const third = await tus.create(sixty, { filename: 'c.wav', appid: s.appid });
    expect([first.status, second.status]).toEqual([201, 201]);
    expect(third.status).toBe(507);
    expect(JSON.parse(third.body)).toMatchObject({ code: 'disk-full' });
    // A merge needing room the uploads hold waits or is refused; it never takes their room.
    await tus.remove(first.headers.location!);
    await tus.remove(second.headers.location!);
    expect((await tus.create(sixty, { filename: 'd.wav', appid: s.appid })).status).toBe(201);
  });

  it('/readyz says the disk is full when less than MIN_FREE_MB is left', async () => {
    expect((await app.app.inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(200);
    const filler = path.join(disk.ok ? disk.dir : '', 'filler');
    await fillDisk(filler, 32 * 1024 * 1024);
    const res = await app.app.inject({ method: 'GET', url: '/readyz' });
    expect(res.statusCode).toBe(503);
    expect(res.json()).toMatchObject({ ok: false, checks: { disk: 'full' }, code: 'notReady' });
  });
});
