// Attacks on the real app that a careful reviewer tried by hand: bodies a cross-site page can send
// without a preflight, broken multipart, odd URLs. Each answer must be a clean JSON error.
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTone, tempDir } from './support/audio-fixtures.js';
import {
  listItems,
  openSession,
  startTestApp,
  upload as uploadFiles,
  type TestApp,
  type TestSession,
} from './support/server-harness.js';

let t: TestApp;
let s: TestSession;
beforeAll(async () => {
  t = await startTestApp();
  s = await openSession(t.app);
});
afterAll(async () => {
  await t.dispose();
});

const post = (
  url: string,
  contentType: string,
  payload: string | Buffer,
  headers: Record<string, string> = {},
) =>
  t.app.inject({
    method: 'POST',
    url,
    headers: { cookie: s.cookie, 'content-type': contentType, ...headers },
    payload,
  });

const filesUnder = async (sub: string): Promise<string[]> =>
  (await readdir(path.join(t.dataDir, sub), { recursive: true, withFileTypes: true }))
    .filter((e) => e.isFile())
    .map((e) => e.name);

describe('CSRF comes before the body', () => {
  for (const url of ['/app/merge/getDataJson', '/app/merge/mergemp3']) {
    it(`refuses a text/plain body without a token on ${url} with 403`, async () => {
      const res = await post(url, 'text/plain', JSON.stringify({ appid: s.appid, items: [] }));
      expect(res.statusCode).toBe(403);
      expect(res.json().error).toMatch(/X-CSRF-TOKEN/);
    });

    it(`refuses an oversize JSON body without a token on ${url} with 403, not by its size`, async () => {
      const res = await post(url, 'application/json', JSON.stringify({ appid: 'a'.repeat(2 * 1024 * 1024) }));
      expect(res.statusCode).toBe(403);
    });

    it(`answers a text/plain body with a valid token on ${url} with a JSON 415`, async () => {
      const res = await post(url, 'text/plain', JSON.stringify({ appid: s.appid }), {
        'x-csrf-token': s.csrf,
      });
      expect(res.statusCode).toBe(415);
      expect(Object.keys(res.json())).toEqual(['error', 'code']);
    });
  }

  it('refuses a form-encoded upload carrying `_csrf` with 403 (only multipart may carry it)', async () => {
    const res = await post(
      '/app/merge/upload',
      'application/x-www-form-urlencoded',
      `_csrf=${s.csrf}&appid=${s.appid}`,
    );
    expect(res.statusCode).toBe(403);
  });
});

describe('broken multipart uploads', () => {
  const upload = (contentType: string, body: string) =>
    post('/app/merge/upload', contentType, Buffer.from(body), { 'x-csrf-token': s.csrf });

  it('refuses a body cut off inside a file part with 400 and stores nothing', async () => {
    const body =
      '--XX\r\nContent-Disposition: form-data; name="appid"\r\n\r\naudio-merge\r\n' +
      '--XX\r\nContent-Disposition: form-data; name="files"; filename="cut.mp3"\r\n\r\n' +
      'ID3 half of a file';
    const res = await upload('multipart/form-data; boundary=XX', body);
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toMatch(/multipart/i);
    expect(await filesUnder('tmp')).toEqual([]);
    expect(await filesUnder('uploads')).toEqual([]);
  });

  it('refuses multipart/form-data without a boundary with 400', async () => {
    const res = await upload('multipart/form-data', '--XX\r\n\r\n');
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toMatch(/multipart/i);
  });

  it('refuses an upload with more form fields than allowed with 413 saying the limit', async () => {
    const fields = Array.from(
      { length: 30 },
      (_, n) => `--XX\r\nContent-Disposition: form-data; name="f${n}"\r\n\r\nv\r\n`,
    ).join('');
    const res = await upload('multipart/form-data; boundary=XX', `${fields}--XX--\r\n`);
    expect(res.statusCode).toBe(413);
    expect(res.json().error).toMatch(/at most 20 form fields/);
  });

  it('refuses a boundary longer than multipart allows with 400', async () => {
    const boundary = 'b'.repeat(300);
    const res = await upload(`multipart/form-data; boundary=${boundary}`, `--${boundary}--\r\n`);
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toMatch(/multipart/i);
  });
});

describe('odd URLs', () => {
  it("answers a URL with a broken percent-escape with the app's own JSON 400, without echoing it", async () => {
    for (const url of [`/upload/${s.sid}/%E0%A4%A.mp3`, '/results/%/x.mp3', '/%']) {
      const res = await t.app.inject({ method: 'GET', url, headers: { cookie: s.cookie } });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ error: 'The request is not valid', code: 'badRequest' });
    }
  });
});

describe('uploads racing the MAX_FILES limit', () => {
  it('stores exactly MAX_FILES of six concurrent uploads, refuses the rest with 409, and keeps no extra file', async () => {
    const { dir, cleanup } = await tempDir();
    const small = await startTestApp({ maxFiles: 3 });
    try {
      const tone = await makeTone(path.join(dir, 'tone.mp3'), { seconds: 0.5 });
      const session = await openSession(small.app);
      const answers = await Promise.all(
        Array.from({ length: 6 }, (_, n) =>
          uploadFiles(small.app, session, [{ path: tone, filename: `take-${n}.mp3` }]),
        ),
      );
      const codes = answers.map((r) => r.statusCode).sort();
      expect(codes).toEqual([200, 200, 200, 409, 409, 409]);
      for (const r of answers.filter((a) => a.statusCode === 409))
        expect(r.json().error).toMatch(/take-\d\.mp3 .*at most 3 files/);
      expect(await listItems(small.app, session)).toHaveLength(3);
      const stored = await readdir(path.join(small.dataDir, 'uploads', session.sid));
      expect(stored).toHaveLength(3);
      expect(await readdir(path.join(small.dataDir, 'tmp'))).toEqual([]);
    } finally {
      await small.dispose();
      await cleanup();
    }
  });
});

describe('made-up cookies', () => {
  it('never adopts a cookie value it did not issue: a fresh session on the page, 403 on a POST', async () => {
    for (const value of ['A'.repeat(43), '%E0%A4%A', 'x'.repeat(4000), `${s.secret}x`, s.sid]) {
      const cookie = `am_session=${value}`;
      const page = await t.app.inject({ method: 'GET', url: '/', headers: { cookie } });
      expect(page.statusCode).toBe(200);
      expect(String(page.headers['set-cookie'])).not.toContain(value);
      expect(page.body).not.toContain(`data-sid="${s.sid}"`);
      const res = await post(
        '/app/merge/getDataJson',
        'application/json',
        JSON.stringify({ appid: s.appid }),
        { cookie, 'x-csrf-token': s.csrf },
      );
      expect(res.statusCode).toBe(403);
      expect(res.json().error).toMatch(/No session/);
    }
  });
});

describe('a flood of new sessions', () => {
  it('starts at most sessionRateLimit sessions a minute per address, then answers a JSON 429; a browser with its session still gets the page', async () => {
    const limited = await startTestApp({ sessionRateLimit: 3 });
    try {
      const first = await openSession(limited.app);
      for (let n = 0; n < 2; n++)
        expect((await limited.app.inject({ method: 'GET', url: '/' })).statusCode).toBe(200);
      const refused = await limited.app.inject({ method: 'GET', url: '/' });
      expect(refused.statusCode).toBe(429);
      expect(refused.json().error).toMatch(/Too many requests/);
      expect(refused.headers['set-cookie']).toBeUndefined();
      const again = await limited.app.inject({ method: 'GET', url: '/', headers: { cookie: first.cookie } });
      expect(again.statusCode).toBe(200);
      expect(again.body).toContain(`data-sid="${first.sid}"`);
    } finally {
      await limited.dispose();
    }
  });

  it('behind a trusted proxy (TRUST_PROXY) counts each browser by its X-Forwarded-For address; the header from anyone else is ignored', async () => {
    const limited = await startTestApp({ sessionRateLimit: 2, trustedProxies: ['10.0.0.0/24'] });
    const proxy = '10.0.0.5';
    const page = (forwardedFor: string, from = proxy) =>
      limited.app.inject({
        method: 'GET',
        url: '/',
        remoteAddress: from,
        headers: { 'x-forwarded-for': forwardedFor },
      });
    try {
      for (let n = 0; n < 2; n++) expect((await page('203.0.113.1')).statusCode).toBe(200);
      expect((await page('203.0.113.1')).statusCode).toBe(429);
      // Another browser behind the same proxy still gets its page.
      expect((await page('203.0.113.2')).statusCode).toBe(200);
      // Only the last hop is trusted: a client that sends its own header is counted by the address the proxy saw.
      expect((await page('198.51.100.9, 203.0.113.2')).statusCode).toBe(200);
      expect((await page('198.51.100.9, 203.0.113.2')).statusCode).toBe(429);
      // Not from the proxy: a forged header does not make a client someone else.
      for (let n = 0; n < 2; n++)
        expect((await page(`203.0.113.${10 + n}`, '198.51.100.20')).statusCode).toBe(200);
      expect((await page('203.0.113.12', '198.51.100.20')).statusCode).toBe(429);
    } finally {
      await limited.dispose();
    }
  });

  it('without TRUST_PROXY ignores X-Forwarded-For: every browser behind a proxy is the proxy', async () => {
    const limited = await startTestApp({ sessionRateLimit: 2 });
    const page = (forwardedFor: string) =>
      limited.app.inject({
        method: 'GET',
        url: '/',
        remoteAddress: '10.0.0.5',
        headers: { 'x-forwarded-for': forwardedFor },
      });
    try {
      for (let n = 0; n < 2; n++) expect((await page(`203.0.113.${n + 1}`)).statusCode).toBe(200);
      expect((await page('203.0.113.3')).statusCode).toBe(429);
    } finally {
      await limited.dispose();
    }
  });
});
