// Resumable uploads (tus 1.0) against the real server on a real port, with real files.
import { createHash } from 'node:crypto';
import { readFile, readdir, stat, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTone, tempDir } from '../../../../test/support/audio-fixtures.js';
import {
  listItems,
  openSession,
  startTestApp,
  upload,
  type TestApp,
} from '../../../../test/support/server-harness.js';
import { tusClient, TUS_URL } from '../../../../test/support/tus-requests.js';

let t: TestApp;
let base: string;
let dir: string;
let cleanup: () => Promise<void>;
const LIMIT_MB = 40;

beforeAll(async () => {
  ({ dir, cleanup } = await tempDir());
  t = await startTestApp({ maxFileBytes: LIMIT_MB * 1024 * 1024, maxFiles: 3 });
  base = await t.listenLocally();
  // ~30 MB of 16-bit stereo WAV.
  await makeTone(path.join(dir, 'chapter.wav'), { seconds: 178, frequency: 330 });
  await makeTone(path.join(dir, 'short.mp3'), { seconds: 1 });
  await writeFile(path.join(dir, 'notes.mp3'), 'these are meeting notes, not audio\n'.repeat(100));
});
afterAll(async () => {
  await t.dispose();
  await cleanup();
});

const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');
const tusFiles = async () => readdir(path.join(t.dataDir, 'tus')).catch(() => [] as string[]);
const size = async (name: string) => (await stat(path.join(dir, name))).size;

async function session() {
  const s = await openSession(t.app);
  return { s, tus: tusClient(base, s) };
}

describe('tus uploads at /app/merge/tus/', () => {
  it('a 30 MB upload cut at 10 MB resumes at the server offset and is stored with the same bytes', async () => {
    const { s, tus } = await session();
    const file = path.join(dir, 'chapter.wav');
    const total = await size('chapter.wav');
    expect(total).toBeGreaterThan(30_000_000);

    const created = await tus.create(total, { filename: 'chapter.wav', appid: s.appid });
    expect(created.status).toBe(201);
    const location = created.headers.location as string;
    expect(location).toMatch(new RegExp(`^${TUS_URL}/[A-Za-z0-9_-]{22}$`));

    const first = await tus.patch(location, file, 0, total, { cutAfter: 10 * 1024 * 1024 });
    expect(first.status).toBe(0); // the line dropped, no answer
    const head = await tus.head(location);
    expect(head.status).toBe(200);
    const offset = Number(head.headers['upload-offset']);
    expect(offset).toBeGreaterThan(0);
    expect(offset).toBeLessThanOrEqual(10 * 1024 * 1024);

    const rest = await tus.patch(location, file, offset, total);
    expect(rest.status).toBe(200);
    expect(first.sent + rest.sent).toBeLessThanOrEqual(total * 1.15);
    const [item] = JSON.parse(rest.body).items;
    expect(item).toMatchObject({ filename: 'chapter.wav', format: 'wav', sid: s.sid });

    expect((await listItems(t.app, s)).map((i) => i.id)).toEqual([item.id]);
    const stored = await t.app.inject({
      url: `/upload/${item.sid}/${item.newfilename}.wav`,
      headers: { cookie: s.cookie },
    });
    expect(stored.statusCode).toBe(200);
    expect(sha256(stored.rawPayload)).toBe(sha256(await readFile(file)));
    expect(await tusFiles()).toEqual([]);
  });

  it('says what it speaks: tus 1.0 with creation and termination, and the size limit', async () => {
    const res = await t.app.inject({ method: 'OPTIONS', url: `${TUS_URL}/` });
    expect(res.statusCode).toBe(204);
    expect(res.headers['tus-version']).toBe('1.0.0');
    expect(res.headers['tus-extension']).toBe('creation,creation-with-upload,termination');
    expect(res.headers['tus-max-size']).toBe(String(LIMIT_MB * 1024 * 1024));
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('refuses a declared length over MAX_FILE_MB with 413 naming the file, before any data', async () => {
    const { s, tus } = await session();
    const res = await tus.create(
      (LIMIT_MB + 1) * 1024 * 1024,
      { filename: 'huge.wav', appid: s.appid },
      {
        'content-type': 'application/offset+octet-stream',
        // Announces a body it never sends: the answer must not wait for it.
        'content-length': String(1024 * 1024),
      },
    );
    expect(res.status).toBe(413);
    expect(JSON.parse(res.body).error).toBe(`huge.wav is larger than the ${LIMIT_MB} MB limit`);
    expect(await tusFiles()).toEqual([]);
  });

  it('an MP3 stored by tus has its waveform without a peaks request', async () => {
    const { s, tus } = await session();
    const file = path.join(dir, 'short.mp3');
    const created = await tus.create(await size('short.mp3'), { filename: 'short.mp3', appid: s.appid });
    const res = await tus.patch(created.headers.location as string, file, 0, await size('short.mp3'));
    expect(res.status).toBe(200);
    const [item] = JSON.parse(res.body).items as Array<{ newfilename: string }>;
    await t.peaks.idle();
    expect((await readdir(path.join(t.dataDir, 'uploads', s.sid))).sort()).toEqual(
      [`${item.newfilename}-peaks.bin`, `${item.newfilename}.mp3`].sort(),
    );
  });

  it('refuses a file that is not audio with the reason, naming it, and keeps nothing', async () => {
    const { s, tus } = await session();
    const file = path.join(dir, 'notes.mp3');
    const created = await tus.create(await size('notes.mp3'), { filename: 'notes.mp3', appid: s.appid });
    const res = await tus.patch(created.headers.location as string, file, 0, await size('notes.mp3'));
    expect(res.status).toBe(422);
    expect(JSON.parse(res.body).error).toBe('notes.mp3 is not usable audio; it was not stored');
    expect(await listItems(t.app, s)).toEqual([]);
    expect(await tusFiles()).toEqual([]);
    expect(await readdir(path.join(t.dataDir, 'uploads', s.sid)).catch(() => [])).toEqual([]);
  });

  it('refuses an upload from another session: HEAD, PATCH and DELETE answer 404, and the upload is untouched', async () => {
    const { s, tus } = await session();
    const other = await session();
    const file = path.join(dir, 'short.mp3');
    const length = await size('short.mp3');
    const location = (await tus.create(length, { filename: 'short.mp3', appid: s.appid })).headers
      .location as string;

    expect((await other.tus.head(location)).status).toBe(404);
    expect((await other.tus.patch(location, file, 0, length)).status).toBe(404);
    expect((await other.tus.remove(location)).status).toBe(404);
    // Without its CSRF token, even the owner's cookie is not enough.
    expect((await tus.head(location, { 'x-csrf-token': 'wrong' })).status).toBe(403);
    expect(await listItems(t.app, other.s)).toEqual([]);

    expect(Number((await tus.head(location)).headers['upload-offset'])).toBe(0);
    expect((await tus.patch(location, file, 0, length)).status).toBe(200);
    expect((await listItems(t.app, s)).map((i) => i.filename)).toEqual(['short.mp3']);
  });

  it('counts uploads in progress against MAX_FILES, multipart included, and frees the place on termination', async () => {
    const { s, tus } = await session();
    const length = await size('short.mp3');
    const a = await tus.create(length, { filename: 'a.mp3', appid: s.appid });
    const b = await tus.create(length, { filename: 'b.mp3', appid: s.appid });
    const c = await tus.create(length, { filename: 'c.mp3', appid: s.appid });
    expect([a.status, b.status, c.status]).toEqual([201, 201, 201]);
    const d = await tus.create(length, { filename: 'd.mp3', appid: s.appid });
    expect(d.status).toBe(409);
    expect(JSON.parse(d.body).error).toBe('d.mp3 was not stored: a session holds at most 3 files');
    const multipart = await upload(t.app, s, [{ path: path.join(dir, 'short.mp3'), filename: 'e.mp3' }]);
    expect(multipart.statusCode).toBe(409);

    expect((await tus.remove(c.headers.location as string)).status).toBe(204);
    expect((await tus.head(c.headers.location as string)).status).toBe(404);
    expect((await tus.create(length, { filename: 'd.mp3', appid: s.appid })).status).toBe(201);
  });

  it('an abandoned upload is removed by the sweep, and leaves nothing', async () => {
    const { s, tus } = await session();
    const file = path.join(dir, 'chapter.wav');
    const location = (
      await tus.create(await size('chapter.wav'), { filename: 'chapter.wav', appid: s.appid })
    ).headers.location as string;
    await tus.patch(location, file, 0, await size('chapter.wav'), { cutAfter: 1024 * 1024 });
    const id = location.split('/').pop() as string;
    expect(await tusFiles()).toEqual(expect.arrayContaining([id, `${id}.json`]));

    // Its last byte came longer ago than RETENTION_HOURS; the session itself is still in use.
    const longAgo = new Date(Date.now() - (t.config.retentionHours + 1) * 3600_000);
    await utimes(path.join(t.dataDir, 'tus', id), longAgo, longAgo);
    await t.sweeper.sweepOnce();

    expect(await tusFiles()).not.toContain(id);
    expect(await tusFiles()).not.toContain(`${id}.json`);
    expect((await tus.head(location)).status).toBe(404);
    expect(await listItems(t.app, s)).toEqual([]);
  });

  it('an upload cut off resumes after the server restarts', async () => {
    const data = await tempDir('audio-merge-tus-restart-');
    const file = path.join(dir, 'short.mp3');
    const length = await size('short.mp3');
    const listening = async () => {
      const app = await startTestApp({ dataDir: data.dir });
      return { app, base: await app.listenLocally() };
    };
    try {
      const first = await listening();
      const s = await openSession(first.app.app);
      const location = (
        await tusClient(first.base, s).create(length, { filename: 'short.mp3', appid: s.appid })
      ).headers.location as string;
      await tusClient(first.base, s).patch(location, file, 0, length, { cutAfter: 4000 });
      await first.app.dispose();

      const second = await listening();
      try {
        const tus = tusClient(second.base, s);
        const offset = Number((await tus.head(location)).headers['upload-offset']);
        expect(offset).toBeGreaterThan(0);
        const rest = await tus.patch(location, file, offset, length);
        expect(rest.status).toBe(200);
        const [item] = await listItems(second.app.app, s);
        const stored = await second.app.app.inject({
          url: `/upload/${item.sid}/${item.newfilename}.mp3`,
          headers: { cookie: s.cookie },
        });
        expect(sha256(stored.rawPayload)).toBe(sha256(await readFile(file)));
      } finally {
        await second.app.dispose();
      }
    } finally {
      await data.cleanup();
    }
  });
});
