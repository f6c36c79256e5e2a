// Hostile title tags in uploads: what getDataJson gives as each row's default chapter title, and
// what is kept of it.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ffprobeJson, makeTone } from './support/audio-fixtures.js';
import { useMediaApp } from './support/media-app.js';

const env = useMediaApp({
  prefix: 'title-tags-',
  media: (file) => makeTone(file('plain.mp3'), { seconds: 1 }),
});
const { file } = env;

const synchsafe = (n: number) => Buffer.from([(n >> 21) & 127, (n >> 14) & 127, (n >> 7) & 127, n & 127]);

/** The MP3's audio behind an ID3v2.4 tag holding one UTF-8 TIT2 frame. */
function withTitle(mp3: Buffer, title: string): Buffer {
  const text = Buffer.concat([Buffer.from([3]), Buffer.from(title, 'utf8')]);
  const frame = Buffer.concat([Buffer.from('TIT2'), synchsafe(text.length), Buffer.from([0, 0]), text]);
  const header = Buffer.concat([Buffer.from('ID3'), Buffer.from([4, 0, 0]), synchsafe(frame.length)]);
  return Buffer.concat([header, frame, mp3]);
}

describe("an upload's title tag", () => {
  it('of megabytes is taken, and its default chapter title is kept to 500 characters', async () => {
    const s = await env.session();
    const content = withTitle(await readFile(file('plain.mp3')), 'Long '.repeat(600_000));
    const res = await env.upload(s, [{ content, filename: 'long.mp3' }]);
    expect(res.statusCode, res.body).toBe(200);
    const [item] = await env.items(s);
    expect(item.defaultChapterTitle).toMatch(/^Long Long /);
    expect(item.defaultChapterTitle.length).toBeLessThanOrEqual(500);
  });

  it('cut at 500 characters (code points, as a typed title) is never cut inside a character', async () => {
    const s = await env.session();
    const content = withTitle(await readFile(file('plain.mp3')), `${'a'.repeat(499)}\u{1F3B5}tail`);
    expect((await env.upload(s, [{ content, filename: 'emoji.mp3' }])).statusCode).toBe(200);
    const [item] = await env.items(s);
    expect(item.defaultChapterTitle).toBe(`${'a'.repeat(499)}\u{1F3B5}`);
  });

  it('with control characters and bidirectional overrides gives a default title without them', async () => {
    const s = await env.session();
    const title = 'Chapter\u0007 One\u202E\u2066 \u001bend\u2069';
    const content = withTitle(await readFile(file('plain.mp3')), title);
    const res = await env.upload(s, [{ content, filename: 'odd.mp3' }]);
    expect(res.statusCode, res.body).toBe(200);
    const [item] = await env.items(s);
    expect(item.defaultChapterTitle).toBe('Chapter One end');
  });
});

describe("a book's details taken from an input's tags", () => {
  it('are one line of at most 500 characters, in the file, the result and its card', async () => {
    const s = await env.session();
    const title = `Book\u0007 of\u202e ${'words '.repeat(200)}`;
    const content = withTitle(await readFile(file('plain.mp3')), title);
    expect((await env.upload(s, [{ content, filename: 'tagged.mp3' }])).statusCode).toBe(200);
    const items = await env.items(s);
    const merged = await env.post(s, '/app/merge/mergemp3', {
      items: items.map(({ id }) => ({ id })),
      options: { format: 'm4b' },
    });
    expect(merged.statusCode, merged.body).toBe(200);
    const [result] = await env.app.store.listResults(s.sid);
    const shown = result.details.title!;
    expect(shown).toMatch(/^Book of words words /);
    expect(shown.length).toBeLessThanOrEqual(500);
    // The download name comes from the title: no bidirectional control reorders it either.
    expect(result.downloadName).toMatch(/^Book of words/);
    expect(result.downloadName).not.toMatch(/[\u202a-\u202e\u2066-\u2069]/);
    const written = (await ffprobeJson(path.join(env.app.dataDir, 'results', s.sid, result.file))).format
      .tags;
    expect(written?.title).toBe(shown);
    const page = await env.inject({ method: 'GET', url: '/', headers: { cookie: s.cookie } });
    expect(page.body).toContain(`dir="auto">${shown}</h3>`);
  });
});
