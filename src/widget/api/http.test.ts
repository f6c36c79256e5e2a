// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeFetch, json } from '../../../test/support/widget-fakes.js';
import {
  ApiError,
  cancelMerge,
  deleteItem,
  isExpired,
  mergeStatus,
  reasonOf,
  requestMerge,
  saveOrder,
} from './http.js';

let f: ReturnType<typeof fakeFetch>;
beforeEach(() => {
  document.head.innerHTML = '<meta name="csrf-token" content="tok-9">';
  f = fakeFetch({
    '/app/merge/mergemp3': () => json('success'),
    '/app/merge/deleteItem': () =>
      json({ error: 'That file does not belong to this session', code: 'foreignItem' }, 403),
    '/app/merge/saveOrder': () => new Response('Bad Gateway', { status: 502 }),
    '/app/merge/status': () => json({ requestId: 'r', state: 'running', percent: 10, text: '10' }),
    '/app/merge/cancel': () => json({ ok: true }),
  });
  vi.stubGlobal('fetch', f.fn);
});
afterEach(() => {
  vi.unstubAllGlobals();
  document.head.innerHTML = '';
});

describe("the widget's calls", () => {
  it('mergemp3 carries the items and the requestId; "success" is success', async () => {
    const answer = await requestMerge(
      [{ id: 'a', sid: 's', newfilename: 'n', format: 'mp3', filename: 'a.mp3' }],
      'req-7',
    );
    expect(answer).toEqual({ success: true, answer: 'success' });
    expect(f.calls[0].body).toEqual({
      items: [{ id: 'a', sid: 's', newfilename: 'n', format: 'mp3', filename: 'a.mp3' }],
      requestId: 'req-7',
    });
  });

  it("a refusal rejects with the status and the server's words", async () => {
    const err = await deleteItem('x').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({
      status: 403,
      reason: 'That file does not belong to this session',
      code: 'foreignItem',
    });
    expect(isExpired(err)).toBe(false);
    const bare = await saveOrder('app', ['a']).catch((e: unknown) => e);
    expect(bare).toMatchObject({ status: 502, reason: 'Bad Gateway', code: undefined });
    expect(reasonOf(new TypeError('Failed to fetch'))).toBe('Failed to fetch');
  });

  it('only a missing session or token counts as expired', () => {
    expect(isExpired(new ApiError('/x', 403, 'No session: load the page first', 'noSession'))).toBe(true);
    expect(isExpired(new ApiError('/x', 403, 'The request has no valid X-CSRF-TOKEN header', 'csrf'))).toBe(
      true,
    );
    expect(isExpired(new ApiError('/x', 419, 'Page expired', undefined))).toBe(true);
    expect(isExpired(new ApiError('/x', 403, 'An item does not belong to this session', 'foreignItem'))).toBe(
      false,
    );
    expect(isExpired(new TypeError('offline'))).toBe(false);
  });

  it('a delete sent as the page is left uses keepalive; the others do not', async () => {
    await deleteItem('a', { keepalive: true }).catch(() => {});
    await deleteItem('b').catch(() => {});
    expect(f.calls.map((c) => [c.body, c.init.keepalive])).toEqual([
      [{ id: 'a' }, true],
      [{ id: 'b' }, undefined],
    ]);
    expect((f.calls[0].init.headers as Record<string, string>)['X-CSRF-TOKEN']).toBe('tok-9');
  });

  it('status is a GET; cancel names the requestId, or nothing for the running merge', async () => {
    expect(await mergeStatus()).toEqual({ requestId: 'r', state: 'running', percent: 10, text: '10' });
    expect(f.calls[0].init.method).toBe('GET');
    await cancelMerge('r');
    await cancelMerge(null);
    expect(f.calls.slice(1).map((c) => c.body)).toEqual([{ requestId: 'r' }, {}]);
  });
});
