// The book through the real app: the session's cover (set, served, refused, removed, its own),
// the person's kept choices, and a merge that writes the details and the cover asked for.
import { readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ffprobeJson } from './support/audio-fixtures.js';
import { useMediaApp } from './support/media-app.js';
import { makeImage, withPicture } from './support/pictures.js';
import { multipartBody, type TestSession } from './support/server-harness.js';

const env = useMediaApp({
  prefix: 'book-routes-',
  tones: { 'one.mp3': { frequency: 300, seconds: 2 }, 'two.mp3': { frequency: 600, seconds: 2 } },
});
const { file } = env;

const image = (out: string, size: string) => makeImage(out, { size });

function postCover(s: TestSession, content: Buffer, filename = 'cover.png', name = 'file') {
  const { body, contentType } = multipartBody([{ name, filename, content }]);
  return env.inject({
    method: 'POST',
    url: '/app/merge/cover',
    headers: { cookie: s.cookie, 'x-csrf-token': s.csrf, 'content-type': contentType },
    payload: body,
  });
}

const getCover = (s: TestSession) =>
  env.inject({ method: 'GET', url: '/app/merge/cover', headers: { cookie: s.cookie } });

describe("the session's cover", () => {
  it('is kept, given back as the same image, replaced, and removed; each session sees only its own', async () => {
    const s = await env.session();
    const other = await env.session();
    expect((await getCover(s)).statusCode).toBe(404);
    const png = await image(file('a.png'), '64x48');
    const set = await postCover(s, png);
    expect(set.statusCode, set.body).toBe(200);
    const got = await getCover(s);
    expect(got.headers['content-type']).toBe('image/png');
    expect(got.rawPayload.equals(png)).toBe(true);
    expect((await getCover(other)).statusCode).toBe(404);
    // A page that only asks whether there is one gets 204 for none (no 404 in its console), the image otherwise.
    const probe = (t: typeof s) =>
      env.inject({ method: 'GET', url: '/app/merge/cover?probe=1', headers: { cookie: t.cookie } });
    expect((await probe(other)).statusCode).toBe(204);
    expect((await probe(other)).body).toBe('');
    expect((await probe(s)).rawPayload.equals(png)).toBe(true);

    const jpeg = await image(file('b.jpg'), '32x32');
    expect((await postCover(s, jpeg, 'b.jpg')).statusCode).toBe(200);
    expect((await getCover(s)).headers['content-type']).toBe('image/jpeg');

    const gone = await env.post(s, '/app/merge/deleteCover', {});
    expect(gone.statusCode).toBe(200);
    expect((await getCover(s)).statusCode).toBe(404);
  });

  it('refuses what is not a JPEG or PNG within the limits, saying why, and keeps the one before', async () => {
    const s = await env.session();
    const png = await image(file('keep.png'), '16x16');
    await postCover(s, png);
    const wide = await postCover(s, await image(file('wide.png'), '4100x8'), 'wide.png');
    expect(wide.statusCode).toBe(400);
    expect(wide.json()).toMatchObject({
      code: 'badCover',
      error: expect.stringMatching(/wide\.png.*4100 x 8/),
    });
    const text = await postCover(s, Buffer.from('not an image at all'), 'notes.txt');
    expect(text.json()).toMatchObject({
      code: 'badCover',
      error: expect.stringMatching(/notes\.txt.*not a JPEG or PNG/),
    });
    // A PNG's header and end with no image between: no FLAC could carry it, so no merge should try.
    const headerOnly = Buffer.concat([png.subarray(0, 33), png.subarray(png.length - 12)]);
    const empty = await postCover(s, headerOnly, 'empty.png');
    expect(empty.statusCode).toBe(400);
    expect(empty.json()).toMatchObject({
      code: 'badCover',
      error: expect.stringMatching(/empty\.png.*not a JPEG or PNG/),
    });
    const big = Buffer.concat([png, Buffer.alloc(10 * 1024 * 1024)]);
    const large = await postCover(s, big, 'big.png');
    expect(large.json()).toMatchObject({
      code: 'badCover',
      error: expect.stringMatching(/larger than 10 MB/),
    });
    expect((await postCover(s, png, 'x.png', 'files')).statusCode).toBe(400);
    expect((await getCover(s)).rawPayload.equals(png)).toBe(true);
  });

  it('asked for while it is being removed answers 404, not 500', async () => {
    const s = await env.session();
    expect((await postCover(s, await image(file('gone.png'), '8x8'))).statusCode).toBe(200);
    // deleteCover landing just before the one opening of the cover's file.
    const open = env.app.files.open;
    env.app.files.open = async (ref) => {
      await env.app.files.remove(ref);
      return open(ref);
    };
    try {
      const raced = await getCover(s);
      expect(raced.statusCode, raced.body).toBe(404);
    } finally {
      env.app.files.open = open;
    }
  });

  it('needs the CSRF token to be set', async () => {
    const s = await env.session();
    const res = await postCover({ ...s, csrf: 'wrong' }, await image(file('c.png'), '8x8'));
    expect(res.statusCode).toBe(403);
    expect((await getCover(s)).statusCode).toBe(404);
  });
});

describe("the person's choices", () => {
  const getChoices = (s: TestSession, appid = s.appid) =>
    env.inject({
      method: 'GET',
      url: `/app/merge/choices?appid=${appid}`,
      headers: { cookie: s.cookie },
    });

  it('are kept for the session and appid, checked as the merge checks them', async () => {
    const s = await env.session();
    const other = await env.session();
    expect((await getChoices(s)).json()).toEqual({});
    const choices = {
      format: 'm4b',
      bitrate: 64,
      channels: 1,
      title: 'The Book',
      narrator: 'N. Reader',
      loudness: -19,
    };
    const saved = await env.post(s, '/app/merge/saveChoices', { appid: s.appid, choices });
    expect(saved.statusCode, saved.body).toBe(200);
    expect((await getChoices(s)).json()).toEqual(choices);
    expect((await getChoices(other)).json()).toEqual({});
    expect((await getChoices(s, 'another-app')).json()).toEqual({});

    const bad = await env.post(s, '/app/merge/saveChoices', {
      appid: s.appid,
      choices: { volume: 3 },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error).toMatch(/Unknown option "volume"/);
    // Every detail at its limit in characters mergemp3 takes (a euro sign is three bytes): kept.
    const long = (n: number) => '\u20ac'.repeat(n);
    const full = {
      description: long(4000),
      title: long(500),
      album: long(500),
      artist: long(500),
      comment: long(500),
    };
    const many = await env.post(s, '/app/merge/saveChoices', { appid: s.appid, choices: full });
    expect(many.statusCode, many.body).toBe(200);
    expect((await getChoices(s)).json()).toEqual(full);
    // Over 16 K characters: refused, and what was kept stays.
    const over = await env.post(s, '/app/merge/saveChoices', {
      appid: s.appid,
      choices: { description: long(17_000) },
    });
    expect(over.statusCode).toBe(413);
    expect(over.json()).toMatchObject({ code: 'choicesTooLarge' });
    expect((await getChoices(s)).json()).toEqual(full);
    expect((await env.post(s, '/app/merge/saveChoices', { appid: s.appid, choices })).statusCode).toBe(200);
    expect((await getChoices(s)).json()).toEqual(choices);
  });
});

describe('a merge with details and the cover', () => {
  it("writes the details asked for and the session's cover, unless told to leave it out", async () => {
    const s = await env.session();
    expect((await env.upload(s, [{ path: file('one.mp3') }, { path: file('two.mp3') }])).statusCode).toBe(
      200,
    );
    const items = await env.items(s);
    await postCover(s, await image(file('book.png'), '40x40'));
    const options = {
      format: 'm4b',
      title: 'The Book',
      artist: 'A. Writer',
      narrator: 'N. Reader',
      year: '2024',
    };
    const res = await env.post(s, '/app/merge/mergemp3', {
      items: items.map(({ id }) => ({ id })),
      options,
    });
    expect(res.statusCode, res.body).toBe(200);
    const bare = await env.post(s, '/app/merge/mergemp3', {
      items: items.map(({ id }) => ({ id })),
      options: { format: 'm4b', cover: false },
    });
    expect(bare.statusCode, bare.body).toBe(200);

    const results = (await env.app.store.listResults(s.sid)).sort((a, b) => a.createdAt - b.createdAt);
    const probe = async (id: string, name: string) => {
      const got = await env.inject({
        method: 'GET',
        url: `/results/${s.sid}/${id}.m4b`,
        headers: { cookie: s.cookie },
      });
      await writeFile(file(name), got.rawPayload);
      return ffprobeJson(file(name));
    };
    const withCover = await probe(results[0].id, 'with.m4b');
    expect(withCover.format.tags).toMatchObject({
      title: 'The Book',
      artist: 'A. Writer',
      composer: 'N. Reader',
      date: '2024',
    });
    expect(withCover.streams.some((st: { codec_type: string }) => st.codec_type === 'video')).toBe(true);
    const without = await probe(results[1].id, 'without.m4b');
    expect(without.streams.some((st: { codec_type: string }) => st.codec_type === 'video')).toBe(false);
  });
});

describe("a merged result's details and cover", () => {
  const getResultCover = (s: TestSession, id: string) =>
    env.inject({
      method: 'GET',
      url: `/app/merge/resultCover/${encodeURIComponent(id)}`,
      headers: { cookie: s.cookie },
    });

  it('lists the details written and serves the cover it was made with, to its session only, until it is deleted', async () => {
    const s = await env.session();
    const other = await env.session();
    expect((await env.upload(s, [{ path: file('one.mp3') }, { path: file('two.mp3') }])).statusCode).toBe(
      200,
    );
    const items = await env.items(s);
    const first = await image(file('first.png'), '32x24');
    expect((await postCover(s, first)).statusCode).toBe(200);
    const merged = await env.post(s, '/app/merge/mergemp3', {
      items: items.map(({ id }) => ({ id })),
      options: { format: 'm4b', title: 'Zauberberg & Co', artist: 'Thomas Mann', narrator: 'Gert Westphal' },
    });
    expect(merged.statusCode, merged.body).toBe(200);
    const [result] = await env.app.store.listResults(s.sid);
    expect(result.details).toMatchObject({
      title: 'Zauberberg & Co',
      artist: 'Thomas Mann',
      composer: 'Gert Westphal',
    });
    expect(result.cover).toMatch(/\.png$/);

    // A later cover of the session leaves the result's as it was made.
    expect((await postCover(s, await image(file('second.jpg'), '48x48'), 'second.jpg')).statusCode).toBe(200);
    const got = await getResultCover(s, result.id);
    expect(got.statusCode, got.body).toBe(200);
    expect(got.headers['content-type']).toBe('image/png');
    expect(got.rawPayload.equals(first)).toBe(true);
    expect(got.headers['content-length']).toBe(String(first.length));
    // Kept by the browser: a result's cover never changes.
    expect(got.headers['cache-control']).toBe('private, max-age=86400');
    expect((await getResultCover(other, result.id)).statusCode).toBe(403);
    expect((await getResultCover(s, 'no-such-result')).statusCode).toBe(404);
    // The cover's name is never a result file's: the results path does not serve it.
    const byFilePath = await env.inject({
      method: 'GET',
      url: `/results/${s.sid}/${result.cover}`,
      headers: { cookie: s.cookie },
    });
    expect(byFilePath.statusCode).toBe(404);

    // The page's card: the title as its heading, the cover, the author and the narrator.
    const page = await env.inject({ method: 'GET', url: '/', headers: { cookie: s.cookie } });
    const card =
      new RegExp(
        `<article class="audio-merge-result" data-result-id="${result.id}"[\\s\\S]*?</article>`,
      ).exec(page.body)?.[0] ?? '';
    expect(card).toContain('<h3 class="audio-merge-result-title" dir="auto">Zauberberg &amp; Co</h3>');
    expect(card).toContain(`src="/app/merge/resultCover/${result.id}" alt="Cover of Zauberberg &amp; Co"`);
    expect(card).toContain('<dd dir="auto">Thomas Mann</dd>');
    expect(card).toContain('<dd dir="auto">Gert Westphal</dd>');

    // Deleting the result deletes its cover; the session's own cover stays.
    const resultsDir = path.join(env.app.dataDir, 'results', s.sid);
    expect((await readdir(resultsDir)).sort()).toEqual([result.cover, result.file].sort());
    expect((await env.post(other, '/app/merge/deleteResult', { id: result.id })).statusCode).toBe(403);
    expect((await readdir(resultsDir)).length).toBe(2);
    expect((await env.post(s, '/app/merge/deleteResult', { id: result.id })).statusCode).toBe(200);
    expect(await readdir(resultsDir)).toEqual([]);
    expect((await getResultCover(s, result.id)).statusCode).toBe(404);
    expect((await getCover(s)).statusCode).toBe(200);
  });

  it('keeps the picture of an input that carries one when the session has no cover', async () => {
    const s = await env.session();
    const picture = await image(file('own.png'), '24x36');
    await withPicture(file('one.mp3'), file('own.png'), file('with-picture.mp3'));
    expect(
      (await env.upload(s, [{ path: file('with-picture.mp3') }, { path: file('two.mp3') }])).statusCode,
    ).toBe(200);
    const items = await env.items(s);
    const merged = await env.post(s, '/app/merge/mergemp3', {
      items: items.map(({ id }) => ({ id })),
      options: { format: 'm4b', title: 'Own picture' },
    });
    expect(merged.statusCode, merged.body).toBe(200);
    const [result] = await env.app.store.listResults(s.sid);
    const got = await getResultCover(s, result.id);
    expect(got.statusCode, got.body).toBe(200);
    expect(got.headers['content-type']).toBe('image/png');
    expect(got.rawPayload.equals(picture)).toBe(true);
  });

  it('answers 404, never 500, for odd ids and for a cover gone from the disk, also while its result is deleted', async () => {
    const s = await env.session();
    expect((await env.upload(s, [{ path: file('one.mp3') }])).statusCode).toBe(200);
    const items = await env.items(s);
    expect((await postCover(s, await image(file('odd.png'), '20x20'))).statusCode).toBe(200);
    const merged = await env.post(s, '/app/merge/mergemp3', {
      items: items.map(({ id }) => ({ id })),
      options: { format: 'm4b' },
    });
    expect(merged.statusCode, merged.body).toBe(200);
    const [result] = await env.app.store.listResults(s.sid);
    for (const id of ['../x', '..', '%2e%2e', `../${result.id}`, result.cover!])
      expect((await getResultCover(s, id)).statusCode, id).toBe(404);
    const long = await getResultCover(s, 'x'.repeat(5000));
    expect(long.statusCode).toBe(400);
    expect(long.json()).toMatchObject({ code: expect.any(String), error: expect.any(String) });
    const traversal = await env.inject({
      method: 'GET',
      url: `/app/merge/resultCover/%2e%2e%2f${result.id}`,
      headers: { cookie: s.cookie },
    });
    expect(traversal.statusCode).toBe(404);

    // deleteResult landing between the look-up of the row and the opening of its cover.
    const open = env.app.files.open;
    env.app.files.open = async (ref) => {
      await env.app.files.remove(ref);
      return open(ref);
    };
    try {
      const raced = await getResultCover(s, result.id);
      expect(raced.statusCode, raced.body).toBe(404);
      expect(raced.json()).toMatchObject({ code: 'notFound' });
    } finally {
      env.app.files.open = open;
    }
    // The row still names the cover, the file is gone: the same 404.
    expect((await getResultCover(s, result.id)).statusCode).toBe(404);
  });

  it('keeps no cover from an input whose picture is over the limits, and merges the input', async () => {
    const s = await env.session();
    await image(file('huge.png'), '4100x16');
    await withPicture(file('one.mp3'), file('huge.png'), file('huge-picture.mp3'));
    expect((await env.upload(s, [{ path: file('huge-picture.mp3') }])).statusCode).toBe(200);
    const items = await env.items(s);
    const merged = await env.post(s, '/app/merge/mergemp3', {
      items: items.map(({ id }) => ({ id })),
      options: { format: 'm4b' },
    });
    expect(merged.statusCode, merged.body).toBe(200);
    const [result] = await env.app.store.listResults(s.sid);
    expect(result.cover).toBeNull();
    expect((await getResultCover(s, result.id)).statusCode).toBe(404);
    expect(await readdir(path.join(env.app.dataDir, 'results', s.sid))).toEqual([result.file]);
  });

  it('has no cover when the merge left the cover out, and is headed by the default title', async () => {
    const s = await env.session();
    expect((await env.upload(s, [{ path: file('one.mp3') }])).statusCode).toBe(200);
    const items = await env.items(s);
    expect((await postCover(s, await image(file('unused.png'), '16x16'))).statusCode).toBe(200);
    const merged = await env.post(s, '/app/merge/mergemp3', {
      items: items.map(({ id }) => ({ id })),
      options: { format: 'm4b', cover: false },
    });
    expect(merged.statusCode, merged.body).toBe(200);
    const [result] = await env.app.store.listResults(s.sid);
    expect(result.cover).toBeNull();
    expect((await getResultCover(s, result.id)).statusCode).toBe(404);
    const page = await env.inject({ method: 'GET', url: '/', headers: { cookie: s.cookie } });
    // No title given: the book's default one (here the first input's name), as written into the file.
    expect(result.details.title).toBe('one');
    expect(page.body).toContain('<h3 class="audio-merge-result-title" dir="auto">one</h3>');
    expect(page.body).not.toContain('<img class="audio-merge-result-cover"');
  });
});
