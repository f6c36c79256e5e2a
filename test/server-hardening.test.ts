// Attacks on the real app that a careful reviewer tried by hand: bodies a cross-site page can send
// without a preflight, broken multipart, odd URLs. Each answer must be a clean JSON error.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSession, startTestApp, type TestApp, type TestSession } from './server-harness.js';

let t: TestApp;
let s: TestSession;
beforeAll(async () => {
  t = await startTestApp();
  s = await openSession(t.app);
});
afterAll(async () => {
  await t.dispose();
});

const post = (url: string, contentType: string, payload: string | Buffer, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'POST', url, headers: { cookie: s.cookie, 'content-type': contentType, ...headers }, payload });

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
      const res = await post(url, 'text/plain', JSON.stringify({ appid: s.appid }), { 'x-csrf-token': s.csrf });
      expect(res.statusCode).toBe(415);
      expect(Object.keys(res.json())).toEqual(['error']);
    });
  }

  it('refuses a form-encoded upload carrying `_csrf` with 403 (only multipart may carry it)', async () => {
    const res = await post('/app/merge/upload', 'application/x-www-form-urlencoded', `_csrf=${s.csrf}&appid=${s.appid}`);
    expect(res.statusCode).toBe(403);
  });
});
