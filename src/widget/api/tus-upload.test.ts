import { describe, expect, it } from 'vitest';
import { retryAfterMs, tusOutcome } from './tus-upload.js';

describe("the wait a 429's Retry-After asks for", () => {
  it('reads seconds', () => {
    expect(retryAfterMs('3')).toBe(3000);
    expect(retryAfterMs('0')).toBe(0);
  });

  it('reads an HTTP date as the time left until it', () => {
    const now = Date.parse('2026-11-22T15:00:00Z');
    expect(retryAfterMs('Sun, 22 Nov 2026 15:00:07 GMT', now)).toBe(7000);
    expect(retryAfterMs('Sun, 22 Nov 2026 14:59:00 GMT', now)).toBe(0);
  });

  it('waits a few seconds when the header is missing or unreadable', () => {
    expect(retryAfterMs(undefined)).toBe(5000);
    expect(retryAfterMs('soon')).toBe(5000);
  });
});

describe('what a finished tus upload says', () => {
  const answer = (status: number, body: string, headers: Record<string, string> = {}) => ({
    getStatus: () => status,
    getBody: () => body,
    getHeader: (name: string) => headers[name],
    getUnderlyingObject: () => undefined,
  });
  const item = { id: 'i1', sid: 's', newfilename: 'n', format: 'mp3', filename: 'a.mp3' };

  it('a success that names no item is a failure the person reads, not silence', () => {
    const got = tusOutcome(answer(204, ''), 'a.mp3');
    expect(got).toEqual({
      ok: false,
      message: 'a.mp3 was sent whole, but the server did not say it stored it. Add the file again.',
    });
  });

  it('a HEAD that finds the file whole reads its item from the headers', () => {
    const body = JSON.stringify({ items: [item], errors: [] });
    const got = tusOutcome(
      answer(200, '', { 'Upload-Outcome': encodeURIComponent(body), 'Upload-Outcome-Status': '200' }),
      'a.mp3',
    );
    expect(got).toEqual({ ok: true, items: [item] });
  });

  it("a HEAD that finds the file refused says the server's reason", () => {
    const body = JSON.stringify({ error: 'a.mp3 is not usable audio; it was not stored', code: 'not-audio' });
    const got = tusOutcome(
      answer(200, '', { 'Upload-Outcome': encodeURIComponent(body), 'Upload-Outcome-Status': '422' }),
      'a.mp3',
    );
    expect(got.ok).toBe(false);
    expect(got.ok ? '' : got.message).toMatch(/a\.mp3/);
    expect(got.ok ? '' : got.message).not.toMatch(/did not say it stored/);
  });
});
