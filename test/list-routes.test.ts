// The session's list through the real app: removing an item (row and file), saving the order, and
// deleting a result; never another session's.
import { access, readdir } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { AbortError } from '../src/engine/errors.js';
import type { MergeFn } from '../src/server/jobs/merge-processor.js';
import { makeTone } from './support/audio-fixtures.js';
import { useMediaApp } from './support/media-app.js';
import { until } from './support/until.js';
import { postJson, type TestSession } from './support/server-harness.js';

/** Merges of items named "hold*" wait until cancelled; the others run the real engine. */
const holding: MergeFn = async (inputs, output, opts) => {
  if (opts.displayNames?.some((n) => n.startsWith('hold'))) {
    // A cancel can come before this runs (the queue prepares a merge first): aborted already.
    return new Promise((_resolve, reject) => {
      if (opts.signal?.aborted) reject(new AbortError());
      opts.signal?.addEventListener('abort', () => reject(new AbortError()));
    });
  }
  return (await import('../src/engine/index.js')).mergeFiles(inputs, output, opts);
};

const env = useMediaApp({
  prefix: 'list-routes-',
  media: async (file) => {
    for (const [name, frequency] of [
      ['a.mp3', 300],
      ['b.wav', 500],
      ['c.flac', 700],
      ['hold.wav', 900],
    ] as const) {
      await makeTone(file(name), { seconds: 1, frequency });
    }
  },
  config: { mergeConcurrency: 1 },
  deps: { merge: holding },
});
const { sessionWith } = env;

const uploadPath = (i: { sid: string; newfilename: string; format: string }) =>
  path.join(env.app.dataDir, 'uploads', i.sid, `${i.newfilename}.${i.format}`);
const exists = (p: string) =>
  access(p).then(
    () => true,
    () => false,
  );
const names = async (s: TestSession) => (await env.items(s)).map((i) => i.filename);

describe('deleteItem', () => {
  it('removes the item and its stored file; it is no longer in getDataJson', async () => {
    const { s, items } = await sessionWith(['a.mp3', 'b.wav', 'c.flac']);
    const b = items[1];
    expect(await exists(uploadPath(b))).toBe(true);
    const res = await env.post(s, '/app/merge/deleteItem', { id: b.id });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ ok: true });
    expect(await names(s)).toEqual(['a.mp3', 'c.flac']);
    expect(await exists(uploadPath(b))).toBe(false);
    // Its play path is gone too.
    const play = await env.inject({
      method: 'GET',
      url: `/upload/${s.sid}/${b.newfilename}.${b.format}`,
      headers: { cookie: s.cookie },
    });
    expect(play.statusCode).toBe(404);
    // A second delete finds nothing.
    expect((await env.post(s, '/app/merge/deleteItem', { id: b.id })).statusCode).toBe(404);
  });

  it('refuses an item from another session (403) and leaves it and its file alone; an unknown id is 404', async () => {
    const owner = await sessionWith(['a.mp3']);
    const other = await env.session();
    const res = await env.post(other, '/app/merge/deleteItem', { id: owner.items[0].id });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ code: 'foreignItem' });
    expect(await names(owner.s)).toEqual(['a.mp3']);
    expect(await exists(uploadPath(owner.items[0]))).toBe(true);
    expect((await env.post(other, '/app/merge/deleteItem', { id: 'no-such-item' })).statusCode).toBe(404);
    expect((await env.post(other, '/app/merge/deleteItem', {})).statusCode).toBe(400);
  });

  it('needs the CSRF token, and says when the session is gone', async () => {
    const { s, items } = await sessionWith(['a.mp3']);
    expect((await env.post(s, '/app/merge/deleteItem', { id: items[0].id }, { csrf: null })).statusCode).toBe(
      403,
    );
    const expired = await postJson(
      env.app.app,
      s,
      '/app/merge/deleteItem',
      { id: items[0].id },
      { cookie: 'am_session=made-up' },
    );
    expect(expired.statusCode).toBe(403);
    expect(expired.json()).toMatchObject({ code: 'noSession' });
    expect(await names(s)).toEqual(['a.mp3']);
  });

  it('an item a merge is working on stays until that merge has ended', async () => {
    const { s, items } = await sessionWith(['hold.wav', 'a.mp3']);
    const merging = env.post(s, '/app/merge/mergemp3', {
      items: items.map((i) => ({ id: i.id })),
      requestId: 'held',
    });
    await until(async () => Boolean(await env.app.store.latestJob(s.sid)), {
      timeoutMs: 10_000,
      what: 'the merge job being recorded',
    });
    const res = await env.post(s, '/app/merge/deleteItem', { id: items[1].id });
    expect(res.statusCode).toBe(409);
    expect(await exists(uploadPath(items[1]))).toBe(true);
    expect((await env.post(s, '/app/merge/cancel', { requestId: 'held' })).statusCode).toBe(200);
    expect((await merging).statusCode).toBe(409);
    expect((await env.post(s, '/app/merge/deleteItem', { id: items[1].id })).statusCode).toBe(200);
  });
});

describe('saveOrder', () => {
  it('getDataJson answers in the saved order, and later uploads join the end', async () => {
    const { s, items } = await sessionWith(['a.mp3', 'b.wav', 'c.flac']);
    const [a, b, c] = items.map((i) => i.id);
    const res = await env.post(s, '/app/merge/saveOrder', { appid: s.appid, ids: [c, a, b] });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ ok: true });
    expect(await names(s)).toEqual(['c.flac', 'a.mp3', 'b.wav']);
    await env.upload(s, [{ path: env.file('hold.wav') }]);
    expect(await names(s)).toEqual(['c.flac', 'a.mp3', 'b.wav', 'hold.wav']);
    // Saving only some: the ones not named follow in upload order.
    await env.post(s, '/app/merge/saveOrder', { appid: s.appid, ids: [b] });
    expect(await names(s)).toEqual(['b.wav', 'a.mp3', 'c.flac', 'hold.wav']);
  });

  it("refuses ids that are not the session's (403) and saves nothing", async () => {
    const mine = await sessionWith(['a.mp3', 'b.wav']);
    const theirs = await sessionWith(['c.flac']);
    const [a, b] = mine.items.map((i) => i.id);
    const foreign = await env.post(mine.s, '/app/merge/saveOrder', {
      appid: mine.s.appid,
      ids: [b, theirs.items[0].id, a],
    });
    expect(foreign.statusCode).toBe(403);
    expect(
      (await env.post(mine.s, '/app/merge/saveOrder', { appid: mine.s.appid, ids: [b, 'made-up'] }))
        .statusCode,
    ).toBe(403);
    expect(
      (await env.post(mine.s, '/app/merge/saveOrder', { appid: 'other-app', ids: [b, a] })).statusCode,
    ).toBe(403);
    expect(
      (await env.post(mine.s, '/app/merge/saveOrder', { appid: mine.s.appid, ids: [b, b] })).statusCode,
    ).toBe(400);
    expect(await names(mine.s)).toEqual(['a.mp3', 'b.wav']);
    // The other session's order is untouched by any of it.
    expect(await names(theirs.s)).toEqual(['c.flac']);
  });
});

describe('deleteResult', () => {
  it("deletes this session's result and its file; another session's is refused", async () => {
    const { s, items } = await sessionWith(['a.mp3', 'b.wav']);
    const merged = await env.post(s, '/app/merge/mergemp3', {
      items: items.map((i) => ({ id: i.id })),
    });
    expect(merged.statusCode, merged.body).toBe(200);
    const [result] = await env.app.store.listResults(s.sid);
    const resultsDir = path.join(env.app.dataDir, 'results', s.sid);
    expect(await readdir(resultsDir)).toEqual([result.file]);

    const other = await env.session();
    const refused = await env.post(other, '/app/merge/deleteResult', { id: result.id });
    expect(refused.statusCode).toBe(403);
    expect(await readdir(resultsDir)).toEqual([result.file]);

    const res = await env.post(s, '/app/merge/deleteResult', { id: result.id });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ ok: true });
    expect(await readdir(resultsDir)).toEqual([]);
    expect(await env.app.store.listResults(s.sid)).toEqual([]);
    const page = await env.inject({ method: 'GET', url: '/', headers: { cookie: s.cookie } });
    expect(page.body).not.toContain(`data-result-id="${result.id}"`);
    expect((await env.post(s, '/app/merge/deleteResult', { id: result.id })).statusCode).toBe(404);
  });
});
