// Chapters found in silences through the real app: mergemp3's chapter-finding options reach the
// merge, its result lists the chapters placed in the silences, and a bad value is refused by name.
import { describe, expect, it, beforeAll } from 'vitest';
import { useMediaApp } from './support/media-app.js';
import { spokenBook, writeSpoken, type SpokenBook } from './support/spoken-book.js';

const env = useMediaApp({ prefix: 'silence-chapters-routes-' });
const { file } = env;
let book: SpokenBook;

beforeAll(async () => {
  book = spokenBook({ seconds: 45, breaksAt: [20], sampleRate: 22050 });
  await writeSpoken(book, file('talk.mp3'), undefined, ['-c:a', 'libmp3lame', '-b:a', '48k']);
});

describe('mergemp3 with chapters at silences', () => {
  it('lists the chapter found in the silence with the result', async () => {
    const s = await env.session();
    expect((await env.upload(s, [{ path: file('talk.mp3') }])).statusCode).toBe(200);
    const items = await env.items(s);
    const res = await env.post(s, '/app/merge/mergemp3', {
      items: items.map(({ id }) => ({ id })),
      options: { chaptersAt: 'silences', silenceMin: 2.5, silenceDb: -45 },
    });
    expect(res.statusCode, res.body).toBe(200);
    const [result] = await env.app.store.listResults(s.sid);
    expect(result.chapters.map((c) => c.title)).toEqual(['talk', 'Chapter 2']);
    const [silence] = book.silences;
    expect(result.chapters[1].start).toBeGreaterThanOrEqual(silence.start);
    expect(silence.end - result.chapters[1].start).toBeLessThanOrEqual(1);
  });

  it('refuses a bad value naming it, nothing queued', async () => {
    const s = await env.session();
    expect((await env.upload(s, [{ path: file('talk.mp3') }])).statusCode).toBe(200);
    const items = await env.items(s);
    const res = await env.post(s, '/app/merge/mergemp3', {
      items: items.map(({ id }) => ({ id })),
      options: { silenceDb: 0 },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toContain('"silenceDb"');
    expect(await env.app.store.listResults(s.sid)).toEqual([]);
  });
});
