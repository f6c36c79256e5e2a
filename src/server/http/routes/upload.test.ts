import { readdir, readFile, writeFile } from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  decodePcm,
  dominantFrequency,
  makeChaptered,
  makeTone,
  tempDir,
} from '../../../../test/support/audio-fixtures.js';
import {
  listItems,
  multipartBody,
  openSession,
  startTestApp,
  upload,
  type TestApp,
} from '../../../../test/support/server-harness.js';
import { until } from '../../../../test/support/until.js';

let t: TestApp;
let dir: string;
let cleanup: () => Promise<void>;
const LIMIT = 256 * 1024;

beforeAll(async () => {
  ({ dir, cleanup } = await tempDir());
  t = await startTestApp({ maxFileBytes: LIMIT, maxFiles: 4 });
  await makeTone(path.join(dir, 'one.mp3'), {
    seconds: 1,
    frequency: 440,
    extraArgs: ['-metadata', 'title=Opening credits'],
  });
  // A WAV that claims to be an MP3 by its name.
  await makeTone(path.join(dir, 'two.wav'), { seconds: 1, frequency: 880, sampleRate: 22050, channels: 1 });
  await makeTone(path.join(dir, 'three.flac'), { seconds: 1.5, frequency: 660 });
  await makeTone(path.join(dir, 'big.wav'), { seconds: 3 }); // ~520 KB, over the limit
  await writeFile(path.join(dir, 'notes.mp3'), 'these are meeting notes, not audio\n'.repeat(50));
});
afterAll(async () => {
  await t.dispose();
  await cleanup();
});

const f = (name: string, filename?: string) => ({ path: path.join(dir, name), filename });
// After the waveforms being made have settled: each uses a scratch file in tmp while it is written.
const filesIn = async (sub: string): Promise<string[]> =>
  (await t.peaks.idle(), await readdir(path.join(t.dataDir, sub), { recursive: true, withFileTypes: true }))
    .filter((e) => e.isFile())
    .map((e) => e.name);
/**
 * The stored uploads, and the waveforms beside them (an MP3's comes a moment after its upload);
 * the details an upload's tags give are kept beside it too, and are not audio.
 */
const uploadsOf = async (sid: string) => {
  const names = (await filesIn(path.join('uploads', sid))).filter((n) => !n.endsWith('-tags.json'));
  const peaks = names.filter((n) => n.endsWith('-peaks.bin'));
  return { audio: names.length - peaks.length, peaks: peaks.length };
};

describe('POST /app/merge/upload', () => {
  it('stores three files with their real formats, and getDataJson returns them in upload order', async () => {
    const s = await openSession(t.app);
    const res = await upload(t.app, s, [f('one.mp3'), f('two.wav', 'two.mp3'), f('three.flac')]);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.errors).toEqual([]);
    expect(body.items).toHaveLength(3);

    const items = await listItems(t.app, s);
    expect(items).toEqual(body.items);
    expect(items.map((i) => i.filename)).toEqual(['one.mp3', 'two.mp3', 'three.flac']);
    expect(items.map((i) => i.format)).toEqual(['mp3', 'wav', 'flac']);
    for (const item of items) {
      expect(Object.keys(item).sort()).toEqual([
        'channels',
        'chapterTitle',
        'chapters',
        'defaultChapterTitle',
        'duration',
        'end',
        'filename',
        'format',
        'id',
        'newfilename',
        'sid',
        'size',
        'start',
      ]);
      expect(item.sid).toBe(s.sid);
      expect(item.newfilename).toMatch(/^[A-Za-z0-9_-]{16,}$/);
      expect(item.newfilename).not.toContain('two');
    }
    expect(items[2].duration).toBeCloseTo(1.5, 1);
    expect(items.map((i) => i.channels)).toEqual([2, 1, 2]);
    // The title a merge gives each by default: its title tag, else its name as sent.
    expect(items.map((i) => i.defaultChapterTitle)).toEqual(['Opening credits', 'two', 'three']);

    // What is stored is the audio that was sent: the second file still plays its 880 Hz tone.
    const stored = t.storage.uploadPath(items[1]);
    expect(path.dirname(stored)).toBe(path.join(t.dataDir, 'uploads', s.sid));
    expect(dominantFrequency(await decodePcm(stored), 0.2, 0.8)).toBeCloseTo(880, -1);
    expect(await filesIn('tmp')).toEqual([]);
  });

  it('getDataJson counts the chapters each file carries of its own: an M4B part, an MP3 with ID3 CHAP frames, none', async () => {
    const part = await makeChaptered(path.join(dir, 'part.m4b'), [
      ['Inner One', 0],
      ['Inner Two', 2],
    ]);
    const tagged = await makeChaptered(
      path.join(dir, 'tagged.mp3'),
      [
        ['Intro', 0],
        ['Middle', 1],
        ['Outro', 2],
      ],
      { seconds: 3 },
    );
    const s = await openSession(t.app);
    const res = await upload(t.app, s, [{ path: part }, { path: tagged }, f('one.mp3'), f('two.wav')]);
    expect(res.json().errors).toEqual([]);
    const items = await listItems(t.app, s);
    expect(items.map((i) => [i.filename, i.chapters])).toEqual([
      ['part.m4b', 2],
      ['tagged.mp3', 3],
      ['one.mp3', 0],
      ['two.wav', 0],
    ]);
    expect(res.json().items.map((i: { chapters: number }) => i.chapters)).toEqual([2, 3, 0, 0]);
  });

  it("getDataJson answers only this session's items for that appid", async () => {
    const a = await openSession(t.app);
    const b = await openSession(t.app);
    await upload(t.app, a, [f('one.mp3')]);
    await upload(t.app, a, [f('three.flac')], { appid: 'other-app' });
    expect((await listItems(t.app, a)).map((i) => i.filename)).toEqual(['one.mp3']);
    expect((await listItems(t.app, a, 'other-app')).map((i) => i.filename)).toEqual(['three.flac']);
    expect(await listItems(t.app, b)).toEqual([]);
  });

  it('refuses a file that is not audio, names it, and stores nothing', async () => {
    const s = await openSession(t.app);
    const res = await upload(t.app, s, [f('notes.mp3')]);
    expect(res.statusCode).toBe(422);
    expect(res.json().error).toBe('notes.mp3 is not usable audio; it was not stored');
    expect(res.json().errors).toEqual([{ filename: 'notes.mp3', error: res.json().error }]);
    expect(await t.store.countItems(s.sid)).toBe(0);
    expect(await filesIn('tmp')).toEqual([]);
    expect(await readdir(path.join(t.dataDir, 'uploads'))).not.toContain(s.sid);
  });

  it('refuses a file over MAX_FILE_MB with 413 naming the file and the limit, and stores nothing', async () => {
    const s = await openSession(t.app);
    const res = await upload(t.app, s, [f('big.wav')]);
    expect(res.statusCode).toBe(413);
    expect(res.json().error).toBe('big.wav is larger than the 0.25 MB limit');
    expect(await t.store.countItems(s.sid)).toBe(0);
    expect(await filesIn('tmp')).toEqual([]);
    expect(await readdir(path.join(t.dataDir, 'uploads'))).not.toContain(s.sid);
  });

  it('stores the good files of a mixed request and says which failed and why', async () => {
    const s = await openSession(t.app);
    const res = await upload(t.app, s, [f('notes.mp3'), f('one.mp3'), f('big.wav'), f('three.flac')]);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.items.map((i: { filename: string }) => i.filename)).toEqual(['one.mp3', 'three.flac']);
    expect(body.errors.map((e: { filename: string }) => e.filename)).toEqual(['notes.mp3', 'big.wav']);
    expect((await uploadsOf(s.sid)).audio).toBe(2);
    expect(await filesIn('tmp')).toEqual([]);
    // Each stored file has its waveform without being asked for it (the MP3's made once stored).
    await t.peaks.idle();
    expect(await uploadsOf(s.sid)).toEqual({ audio: 2, peaks: 2 });
  });

  it('refuses files over MAX_FILES with 409 naming the file and the limit', async () => {
    const s = await openSession(t.app);
    const first = await upload(t.app, s, [
      f('one.mp3'),
      f('one.mp3'),
      f('one.mp3'),
      f('three.flac', 'fifth.flac'),
      f('one.mp3', 'fourth.mp3'),
    ]);
    expect(first.statusCode).toBe(200);
    expect(first.json().items).toHaveLength(4);
    expect(first.json().errors).toEqual([
      { filename: 'fourth.mp3', error: 'fourth.mp3 was not stored: a session holds at most 4 files' },
    ]);
    const again = await upload(t.app, s, [f('three.flac')]);
    expect(again.statusCode).toBe(409);
    expect(again.json().error).toMatch(/three\.flac.*at most 4 files/);
    expect(await t.store.countItems(s.sid)).toBe(4);
    // The refused files leave no waveform: one per stored file.
    await t.peaks.idle();
    expect(await uploadsOf(s.sid)).toEqual({ audio: 4, peaks: 4 });
  });

  it("keeps only the base name of the client's file name, without control characters", async () => {
    const s = await openSession(t.app);
    const res = await upload(t.app, s, [f('one.mp3', '..\\..\\etc/pass\u0007wd.mp3')]);
    expect(res.statusCode).toBe(200);
    expect(res.json().items[0].filename).toBe('passwd.mp3');
    const named = await upload(t.app, s, [f('one.mp3', 'Café – take 2.mp3')]);
    expect(named.json().items[0].filename).toBe('Café – take 2.mp3');
  });

  it('refuses an upload without a valid CSRF token, storing nothing', async () => {
    const s = await openSession(t.app);
    const none = await upload(t.app, s, [f('one.mp3')], { csrf: null });
    expect(none.statusCode).toBe(403);
    const wrong = await upload(t.app, s, [f('one.mp3')], { csrf: 'nope' });
    expect(wrong.statusCode).toBe(403);
    const wrongField = await upload(t.app, s, [f('one.mp3')], { csrf: null, fields: { _csrf: 'nope' } });
    expect(wrongField.statusCode).toBe(403);
    expect(await t.store.countItems(s.sid)).toBe(0);
    expect(await filesIn('tmp')).toEqual([]);
  });

  it('takes a plain form post (token in _csrf) and answers 303 to the page', async () => {
    const s = await openSession(t.app);
    const res = await upload(t.app, s, [f('one.mp3')], {
      csrf: null,
      fields: { _csrf: s.csrf },
      accept: 'text/html,application/xhtml+xml,*/*;q=0.8',
    });
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe('/');
    expect((await listItems(t.app, s)).map((i) => i.filename)).toEqual(['one.mp3']);
  });

  it("shows a plain form post's refusals once on the page it redirects to", async () => {
    const s = await openSession(t.app);
    const res = await upload(t.app, s, [f('notes.mp3'), f('one.mp3')], {
      csrf: null,
      fields: { _csrf: s.csrf },
      accept: 'text/html',
    });
    expect(res.statusCode).toBe(303);
    const page = await t.app.inject({ method: 'GET', url: '/', headers: { cookie: s.cookie } });
    expect(page.body).toMatch(
      /<ul class="audio-merge-upload-errors" role="alert"><li>notes\.mp3 is not usable audio; it was not stored<\/li><\/ul>/,
    );
    const again = await t.app.inject({ method: 'GET', url: '/', headers: { cookie: s.cookie } });
    expect(again.body).not.toContain('audio-merge-upload-errors"');
    expect((await listItems(t.app, s)).map((i) => i.filename)).toEqual(['one.mp3']);
  });

  it('refuses an invalid appid and stores nothing', async () => {
    const s = await openSession(t.app);
    const res = await upload(t.app, s, [f('one.mp3')], { appid: '../x' });
    expect(res.statusCode).toBe(400);
    expect(await t.store.countItems(s.sid)).toBe(0);
    expect(await filesIn('tmp')).toEqual([]);
  });

  it('getDataJson refuses a missing or malformed appid', async () => {
    const s = await openSession(t.app);
    for (const body of [{}, { appid: '' }, { appid: 'a/b' }, { appid: 'x'.repeat(101) }]) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/app/merge/getDataJson',
        headers: { cookie: s.cookie, 'x-csrf-token': s.csrf, 'content-type': 'application/json' },
        payload: JSON.stringify(body),
      });
      expect(res.statusCode).toBe(400);
    }
  });

  it('answers 507 "The server\'s disk is full" when the disk fills while storing, and keeps nothing', async () => {
    const full = await startTestApp(
      {},
      {
        probe: async () => {
          throw Object.assign(new Error('ENOSPC: no space left on device, write'), {
            code: 'ENOSPC',
            syscall: 'write',
          });
        },
      },
    );
    try {
      const s = await openSession(full.app);
      const res = await upload(full.app, s, [f('one.mp3')]);
      expect(res.statusCode).toBe(507);
      expect(res.json()).toEqual({ error: "The server's disk is full", code: 'disk-full' });
      expect(await full.store.countItems(s.sid)).toBe(0);
      expect(await readdir(full.storage.tmpDir)).toEqual([]);
    } finally {
      await full.dispose();
    }
  });

  it('leaves nothing behind when the browser goes away in the middle of a file', async () => {
    const s = await openSession(t.app);
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    const { port } = t.app.server.address() as net.AddressInfo;
    const audio = await readFile(path.join(dir, 'three.flac'));
    const { body, contentType } = multipartBody([
      { name: 'appid', value: s.appid },
      { name: 'files', filename: 'cut.flac', content: audio },
    ]);
    const socket = net.connect(port, '127.0.0.1');
    await new Promise((resolve) => socket.once('connect', resolve));
    socket.write(
      `POST /app/merge/upload HTTP/1.1\r\nHost: 127.0.0.1\r\nCookie: ${s.cookie}\r\nX-CSRF-TOKEN: ${s.csrf}\r\n` +
        `Content-Type: ${contentType}\r\nContent-Length: ${body.length}\r\n\r\n`,
    );
    socket.write(body.subarray(0, Math.floor(body.length / 2)));
    // Wait until the server has begun writing the part to tmp/, then cut the connection.
    await until(async () => (await filesIn('tmp')).length > 0, {
      timeoutMs: 20_000,
      intervalMs: 20,
      what: 'the part in tmp/',
    });
    socket.destroy();
    await until(async () => (await filesIn('tmp')).length === 0, {
      timeoutMs: 20_000,
      intervalMs: 50,
      what: 'tmp/ emptied',
    });
    expect(await t.store.countItems(s.sid)).toBe(0);
    expect(await readdir(path.join(t.dataDir, 'uploads'))).not.toContain(s.sid);
  });
});
