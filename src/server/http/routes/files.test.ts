import { copyFile, mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTone, tempDir } from '../../../../test/support/audio-fixtures.js';
import {
  listItems,
  openSession,
  startTestApp,
  upload,
  type TestApp,
  type TestSession,
} from '../../../../test/support/server-harness.js';
import { job } from '../../../../test/support/job-kit.js';

let t: TestApp;
let dir: string;
let cleanup: () => Promise<void>;
let owner: TestSession;
let item: Awaited<ReturnType<typeof listItems>>[number];
let bytes: Buffer;

beforeAll(async () => {
  ({ dir, cleanup } = await tempDir());
  t = await startTestApp();
  await makeTone(path.join(dir, 'voice.wav'), { seconds: 1 });
  owner = await openSession(t.app);
  await upload(t.app, owner, [{ path: path.join(dir, 'voice.wav') }]);
  [item] = await listItems(t.app, owner);
  bytes = await readFile(path.join(dir, 'voice.wav'));
});
afterAll(async () => {
  await t.dispose();
  await cleanup();
});

const get = (url: string, headers: Record<string, string> = {}, cookie: string | null = owner.cookie) =>
  t.app.inject({ method: 'GET', url, headers: { ...(cookie ? { cookie } : {}), ...headers } });
const playPath = () => `/upload/${item.sid}/${item.newfilename}.${item.format}`;

describe('GET /upload/{sid}/{newfilename}.{format}', () => {
  it('serves the stored upload whole, as audio/wav, to its session', async () => {
    const res = await get(playPath());
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('audio/wav');
    expect(res.headers['accept-ranges']).toBe('bytes');
    expect(res.rawPayload.equals(bytes)).toBe(true);
  });

  it('answers a Range request with 206 and exactly those bytes', async () => {
    const res = await get(playPath(), { range: 'bytes=100-1099' });
    expect(res.statusCode).toBe(206);
    expect(res.headers['content-range']).toBe(`bytes 100-1099/${bytes.length}`);
    expect(res.headers['content-length']).toBe('1000');
    expect(res.rawPayload.equals(bytes.subarray(100, 1100))).toBe(true);

    const tail = await get(playPath(), { range: 'bytes=-64' });
    expect(tail.statusCode).toBe(206);
    expect(tail.rawPayload.equals(bytes.subarray(bytes.length - 64))).toBe(true);

    const open = await get(playPath(), { range: `bytes=${bytes.length - 10}-` });
    expect(open.rawPayload.equals(bytes.subarray(bytes.length - 10))).toBe(true);
  });

  it('answers 416 for a range past the end', async () => {
    const res = await get(playPath(), { range: `bytes=${bytes.length}-` });
    expect(res.statusCode).toBe(416);
    expect(res.headers['content-range']).toBe(`bytes */${bytes.length}`);
  });

  it('refuses another session, and a request without one, and sends no bytes', async () => {
    const stranger = await openSession(t.app);
    const foreign = await get(playPath(), {}, stranger.cookie);
    expect(foreign.statusCode).toBe(403);
    expect(foreign.rawPayload.includes(bytes.subarray(0, 64))).toBe(false);
    // The stranger's own sid in the path does not find the owner's file either.
    const ownSid = await get(
      `/upload/${stranger.sid}/${item.newfilename}.${item.format}`,
      {},
      stranger.cookie,
    );
    expect(ownSid.statusCode).toBe(404);
    const none = await get(playPath(), {}, null);
    expect(none.statusCode).toBe(403);
  });

  it('answers 404 for an unknown name or a wrong extension', async () => {
    expect((await get(`/upload/${item.sid}/nosuchfile.wav`)).statusCode).toBe(404);
    expect((await get(`/upload/${item.sid}/${item.newfilename}.mp3`)).statusCode).toBe(404);
  });

  it('never serves a file outside the session folder, whatever the path says', async () => {
    const sqliteMagic = Buffer.from('SQLite format 3');
    const attempts = [
      `/upload/${item.sid}/..%2F..%2Faudio-merge.sqlite`,
      `/upload/${item.sid}/%2e%2e%2f%2e%2e%2faudio-merge.sqlite`,
      `/upload/${item.sid}/..%5C..%5Caudio-merge.sqlite`,
      `/upload/${item.sid}/../../audio-merge.sqlite`,
      `/upload/..%2F${item.sid}/..%2Faudio-merge.sqlite`,
      `/upload/${item.sid}/%2Fetc%2Fpasswd`,
      `/upload/${item.sid}/${encodeURIComponent(path.join(t.dataDir, 'audio-merge.sqlite'))}`,
      `/upload/${item.sid}/..`,
      `/upload/${item.sid}/.%2e/.%2e/audio-merge.sqlite`,
      `/upload/${item.sid}/${item.newfilename}.${item.format}%00.sqlite`,
      `/results/${item.sid}/..%2F..%2Faudio-merge.sqlite`,
      `/results/${item.sid}/..%2F..%2Fuploads%2F${item.sid}%2F${item.newfilename}.mp3`,
    ];
    for (const url of attempts) {
      const res = await get(url);
      expect([400, 403, 404], url).toContain(res.statusCode);
      expect(res.rawPayload.includes(sqliteMagic), url).toBe(false);
      expect(res.rawPayload.includes(bytes.subarray(0, 44)), url).toBe(false);
      expect(res.body, url).not.toMatch(/root:/);
    }
  });
});

describe('GET /results/{sid}/{id}.mp3', () => {
  it('serves a result with Range, and as an attachment with its download name', async () => {
    const mp3 = await makeTone(path.join(dir, 'merged.mp3'), { seconds: 1 });
    const resultBytes = await readFile(mp3);
    await t.store.addJob(
      job('job1', owner.sid, [item.id], owner.appid, {
        status: 'succeeded',
        resultId: 'res1',
        startedAt: 1,
        finishedAt: 2,
      }),
    );
    const result = {
      id: 'res1',
      sid: owner.sid,
      jobId: 'job1',
      file: 'res1.mp3',
      downloadName: 'merged-2026-11-21-1430.mp3',
      format: 'mp3',
      duration: 1,
      size: resultBytes.length,
      sources: ['voice.wav'],
      chapters: [],
      details: {},
      cover: null,
      createdAt: Date.now(),
    };
    await mkdir(t.storage.resultsDir(owner.sid), { recursive: true });
    await copyFile(mp3, t.storage.resultPath(result));
    await t.store.addResult(result);

    const whole = await get(`/results/${owner.sid}/res1.mp3`);
    expect(whole.statusCode).toBe(200);
    expect(whole.headers['content-type']).toBe('audio/mpeg');
    expect(whole.headers['content-disposition']).toBeUndefined();
    expect(whole.rawPayload.equals(resultBytes)).toBe(true);

    const part = await get(`/results/${owner.sid}/res1.mp3`, { range: 'bytes=0-99' });
    expect(part.statusCode).toBe(206);
    expect(part.rawPayload.equals(resultBytes.subarray(0, 100))).toBe(true);

    const download = await get(`/results/${owner.sid}/res1.mp3?download=1`);
    expect(download.headers['content-disposition']).toBe(
      `attachment; filename="merged-2026-11-21-1430.mp3"; filename*=UTF-8''merged-2026-11-21-1430.mp3`,
    );

    const stranger = await openSession(t.app);
    const foreign = await get(`/results/${owner.sid}/res1.mp3`, {}, stranger.cookie);
    expect(foreign.statusCode).toBe(403);
    expect(foreign.rawPayload.includes(resultBytes.subarray(0, 64))).toBe(false);
    expect((await get(`/results/${stranger.sid}/res1.mp3`, {}, stranger.cookie)).statusCode).toBe(404);

    // The page lists it with a player and a download link.
    const page = await get('/');
    expect(page.body).toContain(`<audio controls preload="metadata" src="/results/${owner.sid}/res1.mp3">`);
    expect(page.body).toContain(`href="/results/${owner.sid}/res1.mp3?download=1" download>Download</a>`);
    expect(page.body).toContain('<li><bdi>voice.wav</bdi></li>');
  });

  it('serves a result in its own format and MIME type, and only under its own extension', async () => {
    const m4a = await makeTone(path.join(dir, 'merged.m4a'), { seconds: 1 });
    const bytes = await readFile(m4a);
    await t.store.addJob(
      job('job2', owner.sid, [item.id], owner.appid, {
        status: 'succeeded',
        resultId: 'res2',
        startedAt: 1,
        finishedAt: 2,
      }),
    );
    const result = {
      id: 'res2',
      sid: owner.sid,
      jobId: 'job2',
      file: 'res2.m4b',
      downloadName: 'Book 2026-11-21 1430.m4b',
      format: 'm4b',
      duration: 1,
      size: bytes.length,
      details: {},
      cover: null,
      sources: ['voice.wav'],
      chapters: [{ title: 'Voice', start: 0, end: 1 }],
      createdAt: Date.now(),
    };
    await mkdir(t.storage.resultsDir(owner.sid), { recursive: true });
    await copyFile(m4a, t.storage.resultPath(result));
    await t.store.addResult(result);
    const res = await get(`/results/${owner.sid}/res2.m4b`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('audio/mp4');
    expect(res.rawPayload.equals(bytes)).toBe(true);
    expect((await get(`/results/${owner.sid}/res2.mp3`)).statusCode).toBe(404);
    const download = await get(`/results/${owner.sid}/res2.m4b?download=1`);
    expect(download.headers['content-disposition']).toContain('filename="Book 2026-11-21 1430.m4b"');
    const page = await get('/');
    expect(page.body).toContain(`src="/results/${owner.sid}/res2.m4b"`);
    expect(page.body).toContain('class="audio-merge-chapter" data-start="0"');
  });
});
