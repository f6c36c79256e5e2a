// A full disk, for real: DATA_DIR on a small tmpfs that a filler file takes up. Uploads and merges
// say "The server's disk is full", keep nothing partial, pages, lists and downloads still work,
// and everything works again once space returns.
import { readFile, readdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { statusChannel } from '../src/shared/types.js';
import { makeTone, tempDir } from './support/audio-fixtures.js';
import { listenStatus } from './support/echo-client.js';
import type { AddressInfo } from 'node:net';
import {
  listItems,
  openSession,
  postJson,
  startTestApp,
  upload,
  type TestApp,
  type TestSession,
} from './support/server-harness.js';
import { tusClient } from './support/tus-requests.js';
import { fillDisk, freeBytes, mountSmallDisk, type SmallDisk } from './support/small-disk.js';

const DISK_FULL = "The server's disk is full";
const disk: SmallDisk = await mountSmallDisk(8);
if (!disk.ok) console.warn(`skipping the full-disk tests: ${disk.reason}`);

let app: TestApp;
let media: { dir: string; cleanup: () => Promise<void> };
let filler: string;
const tone = (name: string) => path.join(media.dir, name);

beforeAll(async () => {
  if (!disk.ok) return;
  media = await tempDir('disk-full-media-');
  await Promise.all([
    makeTone(tone('a.mp3'), { frequency: 300, seconds: 30 }),
    makeTone(tone('b.mp3'), { frequency: 600, seconds: 30 }),
    makeTone(tone('c.wav'), { frequency: 900, seconds: 20, sampleRate: 22050, channels: 1 }),
    makeTone(tone('small.wav'), { frequency: 500, seconds: 1 }),
    makeTone(tone('tiny.mp3'), { frequency: 700, seconds: 1 }),
  ]);
  filler = path.join(disk.dir, 'filler');
  // The free-space figure says there is always room, so every refusal here comes from the disk
  // itself (ENOSPC mid-write, SQLITE_FULL); the watermark has its own test below.
  app = await startTestApp(
    { dataDir: path.join(disk.dir, 'data'), realtime: true, socketPort: 0, minFreeBytes: 0 },
    { freeSpace: async () => Number.MAX_SAFE_INTEGER },
  );
});
afterAll(async () => {
  await app?.close();
  await media?.cleanup();
  if (disk.ok) await disk.dispose();
});

const merge = (s: TestSession, ids: string[]) =>
  postJson(app.app, s, '/app/merge/mergemp3', { items: ids.map((id) => ({ id })) });
const entries = async (dir: string) => (await readdir(dir, { recursive: true }).catch(() => [])) as string[];

describe.skipIf(!disk.ok)('a full disk (DATA_DIR on an 8 MB tmpfs)', () => {
  it('is told as such, keeps nothing partial, still serves pages, lists and downloads, and recovers', async () => {
    const s = await openSession(app.app);
    expect(
      (await upload(app.app, s, [{ path: tone('a.mp3') }, { path: tone('b.mp3') }, { path: tone('c.wav') }]))
        .statusCode,
    ).toBe(200);
    const items = await listItems(app.app, s);
    const [a, b, c] = items;
    const status = listenStatus(app.realtime.port, s.cookie, statusChannel(s.appid, s.sid));
    await status.ready;

    // Room for the database's few pages, not for a merged file.
    await fillDisk(filler, 256 * 1024);

    // the join writes the output itself
    const joined = await merge(s, [a.id, b.id]);
    expect(joined.statusCode).toBe(507);
    expect(joined.json()).toEqual({ error: DISK_FULL, code: 'disk-full' });
    await status.waitFor((d) => d === DISK_FULL);
    // ffmpeg re-encodes the WAV into the job's folder
    const encoded = await merge(s, [c.id, a.id]);
    expect(encoded.statusCode).toBe(507);
    expect(encoded.json()).toEqual({ error: DISK_FULL, code: 'disk-full' });
    expect(await entries(app.storage.tmpDir)).toEqual([]);
    expect(await entries(path.join(app.storage.root, 'results'))).toEqual([]);
    expect(await app.store.listResults(s.sid)).toEqual([]);

    await fillDisk(`${filler}-2`);
    const refused = await upload(app.app, s, [{ path: tone('small.wav') }]);
    expect(refused.statusCode).toBe(507);
    expect(refused.json().error).toBe(DISK_FULL);
    expect(await entries(app.storage.tmpDir)).toEqual([]);
    expect(await listItems(app.app, s)).toEqual(items);

    const page = await app.app.inject({ method: 'GET', url: '/', headers: { cookie: s.cookie } });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain(s.sid);
    const download = await app.app.inject({
      method: 'GET',
      url: `/upload/${s.sid}/${a.newfilename}.mp3`,
      headers: { cookie: s.cookie },
    });
    expect(download.statusCode).toBe(200);
    expect(download.rawPayload.length).toBe(a.size);
    // A new visitor needs a database row: a page saying the disk is full, or the page itself, never a 500.
    const newcomer = await app.app.inject({ method: 'GET', url: '/' });
    expect([200, 507]).toContain(newcomer.statusCode);
    if (newcomer.statusCode === 507) expect(newcomer.body).toContain('disk is full');

    await rm(filler);
    await rm(`${filler}-2`);
    expect((await upload(app.app, s, [{ path: tone('small.wav') }])).statusCode).toBe(200);
    const again = await merge(s, [c.id, a.id, b.id]);
    expect(again.statusCode, again.body).toBe(200);
    expect(await app.store.listResults(s.sid)).toHaveLength(1);
    expect((await openSession(app.app)).sid).toMatch(/\S/);
    status.close();
  });

  it('a resumable upload that meets a full disk mid-PATCH is told so (507), and resumes once there is room', async () => {
    const root = disk.ok ? disk.dir : '';
    const real = await startTestApp({ dataDir: path.join(root, 'tus-full'), minFreeBytes: 0 });
    try {
      await real.app.listen({ host: '127.0.0.1', port: 0 });
      const s = await openSession(real.app);
      const tus = tusClient(`http://127.0.0.1:${(real.app.server.address() as AddressInfo).port}`, s);
      const file = tone('a.mp3');
      const length = (await readFile(file)).length;
      const created = await tus.create(length, { filename: 'a.mp3', appid: s.appid });
      expect(created.status).toBe(201);
      const location = created.headers.location as string;
      await fillDisk(`${filler}-tus`, 64 * 1024);
      const cut = await tus.patch(location, file, 0, length);
      expect(cut.status).toBe(507);
      expect(JSON.parse(cut.body).error).toBe(DISK_FULL);
      await rm(`${filler}-tus`);
      const offset = Number((await tus.head(location)).headers['upload-offset']);
      const rest = await tus.patch(location, file, offset, length);
      expect(rest.status, rest.body).toBe(200);
      expect(await listItems(real.app, s)).toHaveLength(1);
    } finally {
      await rm(`${filler}-tus`, { force: true });
      await real.close();
    }
  });

  it('refuses an upload that would leave less than MIN_FREE_MB free, asking the disk itself (statfs)', async () => {
    const root = disk.ok ? disk.dir : '';
    const free = await freeBytes(root);
    const watermarked = await startTestApp({
      dataDir: path.join(root, 'watermark'),
      minFreeBytes: free - 300 * 1024,
    });
    try {
      const s = await openSession(watermarked.app);
      const big = await upload(watermarked.app, s, [{ path: tone('a.mp3') }]); // ~480 KB
      expect(big.statusCode).toBe(507);
      expect(big.json().error).toBe(DISK_FULL);
      expect(await entries(watermarked.storage.tmpDir)).toEqual([]);
      const small = await upload(watermarked.app, s, [{ path: tone('tiny.mp3') }]); // ~16 KB
      expect(small.statusCode, small.body).toBe(200);
    } finally {
      await watermarked.close();
    }
  });
});
