// The details a merge takes from its files' tags, as the page asks for them (the Book details
// placeholders): each from the first file that has it, the title from the album they share, in
// the list's order; kept beside each upload, and gone with it.
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { detailsOfTags, inheritedDetails } from '../src/engine/index.js';
import { makeTone } from './support/audio-fixtures.js';
import { useMediaApp } from './support/media-app.js';
import type { TestSession } from './support/server-harness.js';

const tagged = (tags: Record<string, string>) =>
  Object.entries(tags).flatMap(([k, v]) => ['-metadata', `${k}=${v}`]);

const env = useMediaApp({
  prefix: 'tag-details-',
  media: async (file) => {
    await makeTone(file('plain.mp3'), { seconds: 1 });
    await makeTone(file('one.mp3'), {
      seconds: 1,
      extraArgs: tagged({ album: 'Sea Stories', artist: 'Anna Author', title: 'Chapter One' }),
    });
    await makeTone(file('two.flac'), {
      seconds: 1,
      extraArgs: tagged({ album: 'Sea Stories', composer: 'Ned Narrator', genre: 'Audiobook', date: '2024' }),
    });
  },
});

const tagDetails = (s: TestSession) =>
  env.inject({ method: 'GET', url: `/app/merge/tagDetails?appid=${s.appid}`, headers: { cookie: s.cookie } });

describe('the details from the tags', () => {
  it('are each from the first file that has it; the title the album they share', async () => {
    const { s, items } = await env.sessionWith(['plain.mp3', 'one.mp3', 'two.flac']);
    const res = await tagDetails(s);
    expect(res.statusCode, res.body).toBe(200);
    // The plain file has none, so the album is not the whole list's: the title is the first title.
    expect(res.json()).toEqual({
      details: {
        title: 'Chapter One',
        artist: 'Anna Author',
        album: 'Sea Stories',
        narrator: 'Ned Narrator',
        genre: 'Audiobook',
        year: '2024',
      },
    });
    // Without the untagged file, they share the album: it is the book's title.
    expect((await env.post(s, '/app/merge/deleteItem', { id: items[0].id })).statusCode).toBe(200);
    expect((await tagDetails(s)).json().details.title).toBe('Sea Stories');
    // A file's details go with it.
    expect((await env.post(s, '/app/merge/deleteItem', { id: items[1].id })).statusCode).toBe(200);
    const left = await readdir(path.join(env.app.dataDir, 'uploads', s.sid));
    expect(left.filter((n) => n.endsWith('-tags.json'))).toHaveLength(1);
    expect((await tagDetails(s)).json().details).toEqual({
      album: 'Sea Stories',
      narrator: 'Ned Narrator',
      genre: 'Audiobook',
      year: '2024',
      title: 'Sea Stories',
    });
  });

  it("are another session's business only: a new session has none", async () => {
    await env.sessionWith(['one.mp3']);
    const other = await env.session();
    expect((await tagDetails(other)).json()).toEqual({ details: {} });
  });

  it('never take the description or comment, and keep each to one line', () => {
    expect(detailsOfTags({ comment: 'c', description: 'd', artist: 'A\nB' })).toEqual({ artist: 'A B' });
    expect(detailsOfTags({ encoder: 'Lavf' })).toBeUndefined();
    expect(inheritedDetails([undefined, { album: 'X' }, { album: 'X', artist: 'Y' }])).toEqual({
      album: 'X',
      artist: 'Y',
    });
  });
});
