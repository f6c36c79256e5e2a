import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSession, postJson, startTestApp, type TestApp } from '../../../test/support/server-harness.js';
import { clockAt } from '../../../test/support/clock-at.js';
import { hashSecret, sidForCookieHeader } from './session.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t.dispose();
});

describe('sessions and CSRF', () => {
  it('the page sets an HttpOnly SameSite=Lax cookie and shows the csrf meta and the widget with the sid', async () => {
    const s = await openSession(t.app);
    expect(s.setCookie).toMatch(/am_session=[A-Za-z0-9_-]{43};/);
    expect(s.setCookie).toMatch(/HttpOnly/i);
    expect(s.setCookie).toMatch(/SameSite=Lax/i);
    expect(s.setCookie).toMatch(/Path=\//);
    // As long as the server keeps the session (RETENTION_HOURS, 24 by default).
    expect(s.setCookie).toMatch(/Max-Age=86400(;|$)/);
    expect(s.html).toContain(`<meta name="csrf-token" content="${s.csrf}">`);
    expect(s.html).toMatch(
      new RegExp(`<div id="audio-merge-tool" data-appid="audio-merge" data-sid="${s.sid}"`),
    );
    expect(s.sid).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(s.sid).not.toBe(s.secret);
    expect(s.html).not.toContain(s.secret);
  });

  it('gives the cookie RETENTION_HOURS from the last request, renewed as the session is used', async () => {
    let now = Date.UTC(2026, 0, 1);
    const short = await startTestApp({ retentionHours: 2 }, { clock: clockAt(() => now) });
    try {
      const s = await openSession(short.app);
      expect(s.setCookie).toMatch(/Max-Age=7200(;|$)/);
      // An hour later the server keeps the session two hours from now: so does the browser.
      now += 3600_000;
      const later = await short.app.inject({ method: 'GET', url: '/', headers: { cookie: s.cookie } });
      expect(later.body).toContain(`data-sid="${s.sid}"`);
      const renewed = String(later.headers['set-cookie']);
      expect(renewed).toContain(`am_session=${s.secret};`);
      expect(renewed).toMatch(/Max-Age=7200(;|$)/);
      expect(renewed).toMatch(/HttpOnly/i);
    } finally {
      await short.dispose();
    }
  });

  it('keeps only the hash of the cookie secret in the database', async () => {
    const s = await openSession(t.app);
    const row = await t.store.sessionBySecretHash(hashSecret(s.secret));
    expect(row?.sid).toBe(s.sid);
    expect(await t.store.sessionBySecretHash(s.secret)).toBeUndefined();
  });

  it('a returning browser keeps its session; an unknown cookie gets a new one', async () => {
    const s = await openSession(t.app);
    const again = await t.app.inject({ method: 'GET', url: '/', headers: { cookie: s.cookie } });
    expect(again.headers['set-cookie']).toBeUndefined();
    expect(again.body).toContain(`data-sid="${s.sid}"`);
    const unknown = await t.app.inject({
      method: 'GET',
      url: '/',
      headers: { cookie: 'am_session=' + 'x'.repeat(43) },
    });
    expect(String(unknown.headers['set-cookie'])).toMatch(/am_session=/);
    expect(unknown.body).not.toContain(`data-sid="${s.sid}"`);
  });

  it('refuses a POST without the session cookie', async () => {
    const s = await openSession(t.app);
    const res = await postJson(t.app, s, '/app/merge/getDataJson', { appid: s.appid }, { cookie: null });
    expect(res.statusCode).toBe(403);
    expect(res.json().error).toMatch(/session/i);
  });

  it('refuses a POST without the CSRF token, and with a wrong one', async () => {
    const s = await openSession(t.app);
    const none = await postJson(t.app, s, '/app/merge/getDataJson', { appid: s.appid }, { csrf: null });
    expect(none.statusCode).toBe(403);
    expect(none.json().error).toMatch(/CSRF/);
    const other = await openSession(t.app);
    const wrong = await postJson(
      t.app,
      s,
      '/app/merge/getDataJson',
      { appid: s.appid },
      { csrf: other.csrf },
    );
    expect(wrong.statusCode).toBe(403);
    const right = await postJson(t.app, s, '/app/merge/getDataJson', { appid: s.appid });
    expect(right.statusCode).toBe(200);
    expect(right.body).toBe('[]');
  });

  it('tells the realtime server which sid a Cookie header owns', async () => {
    const s = await openSession(t.app);
    expect(await sidForCookieHeader(t.store, `other=1; ${s.cookie}`)).toBe(s.sid);
    expect(await sidForCookieHeader(t.store, 'am_session=forged')).toBeNull();
    expect(await sidForCookieHeader(t.store, undefined)).toBeNull();
  });
});
