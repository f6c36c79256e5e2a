// An item's kept span and chapter title through the real app: saved with saveItem, listed by
// getDataJson, used by the next merge (cut at the sample), refused saying which field is wrong,
// never for another session's item.
import { execFile } from 'node:child_process';
import { access, readdir, readFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeChaptered, makeTone, tools } from './support/audio-fixtures.js';
import { useMediaApp } from './support/media-app.js';
import { decodeFloat } from './support/pcm-measure.js';
import type { TestSession } from './support/server-harness.js';

const env = useMediaApp({
  prefix: 'item-edit-',
  media: async (file) => {
    await makeTone(file('a.wav'), { seconds: 2, frequency: 300 });
    await makeTone(file('b.flac'), { seconds: 1, frequency: 700 });
    await makeChaptered(file('part.m4b'), [
      ['Inner One', 0],
      ['Inner Two', 2],
    ]);
    // 5 s of silence, then 5 s of a tone peaking at 0.35: the sine source plays at 1/8, times 4, and
    // spread from mono to stereo at -3 dB.
    await promisify(execFile)(tools.ffmpeg, [
      ...['-hide_banner', '-v', 'error', '-f', 'lavfi', '-i', 'anullsrc=r=44100:cl=stereo:d=5'],
      ...['-f', 'lavfi', '-i', 'sine=frequency=440:sample_rate=44100:duration=5'],
      ...['-filter_complex', '[1]volume=4,aformat=channel_layouts=stereo[t];[0][t]concat=n=2:v=0:a=1'],
      ...['-c:a', 'libmp3lame', '-b:a', '128k', file('quiet-loud.mp3')],
    ]);
  },
  config: { mergeConcurrency: 1 },
});
const { sessionWith } = env;

const save = (s: TestSession, body: Record<string, unknown>) => env.post(s, '/app/merge/saveItem', body);

describe('saveItem', () => {
  it('saves the span and the chapter title; getDataJson lists duration, start, end and chapterTitle', async () => {
    const { s, items } = await sessionWith(['a.wav', 'b.flac']);
    expect(items.map((i) => [i.start, i.end, i.chapterTitle])).toEqual([
      [null, null, null],
      [null, null, null],
    ]);
    expect(items[0].duration).toBeCloseTo(2, 3);
    const res = await save(s, { id: items[0].id, start: 0.25, end: 1.5, chapterTitle: 'Opening' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ ok: true });
    expect(await env.items(s)).toMatchObject([
      { id: items[0].id, start: 0.25, end: 1.5, chapterTitle: 'Opening' },
      { id: items[1].id, start: null, end: null, chapterTitle: null },
    ]);
    // A field left out keeps its value; null puts it back.
    expect((await save(s, { id: items[0].id, start: null })).statusCode).toBe(200);
    expect((await env.items(s))[0]).toMatchObject({
      start: null,
      end: 1.5,
      chapterTitle: 'Opening',
    });
  });

  it('answers 400 naming the field for a span that does not fit or a title with control characters; nothing saved', async () => {
    const { s, items } = await sessionWith(['a.wav']);
    const id = items[0].id;
    expect((await save(s, { id, start: 0.5, end: 1 })).statusCode).toBe(200);
    for (const [body, field] of [
      [{ id, end: 3 }, 'end'],
      [{ id, start: 2.5 }, 'start'],
      [{ id, start: -1 }, 'start'],
      [{ id, start: 1.2 }, 'start'],
      [{ id, start: 1, end: 1 }, 'end'],
      // Less than a sample, or than one frame of any output: no format could hold it.
      [{ id, start: 0, end: 5e-324 }, 'end'],
      [{ id, start: 1.5, end: 1.5000000001 }, 'end'],
      [{ id, start: 1, end: 1.001 }, 'end'],
      [{ id, end: 'soon' }, 'end'],
      [{ id, chapterTitle: 'two\nlines' }, 'chapterTitle'],
      [{ id, chapterTitle: 'x'.repeat(501) }, 'chapterTitle'],
      [{ id, chapterTitle: '\u{1F3B5}'.repeat(501) }, 'chapterTitle'],
      // A lone surrogate would come back from the store as U+FFFD: not what was saved.
      [{ id, chapterTitle: 'half \ud83c' }, 'chapterTitle'],
      ...['\u202a', '\u202b', '\u202c', '\u202d', '\u202e', '\u2066', '\u2067', '\u2068', '\u2069'].map(
        (bidi) => [{ id, chapterTitle: `gpj${bidi}.exe` }, 'chapterTitle'] as const,
      ),
    ] as const) {
      const res = await save(s, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().field).toBe(field);
      expect(res.json().error).toContain(field);
      if (field === 'chapterTitle') expect(res.json().code).toBe('badChapterTitle');
    }
    expect((await env.items(s))[0]).toMatchObject({ start: 0.5, end: 1, chapterTitle: null });
    // At the limit, a title is kept whole.
    expect((await save(s, { id, chapterTitle: 'x'.repeat(500) })).statusCode).toBe(200);
    expect((await env.items(s))[0].chapterTitle).toBe('x'.repeat(500));
    // Counted in characters: 500 emoji (1000 UTF-16 units) are a title at the limit.
    expect((await save(s, { id, chapterTitle: '\u{1F3B5}'.repeat(500) })).statusCode).toBe(200);
    expect((await env.items(s))[0].chapterTitle).toBe('\u{1F3B5}'.repeat(500));
    // The direction marks right-to-left titles use are no controls.
    expect((await save(s, { id, chapterTitle: 'الفصل \u200f1' })).statusCode).toBe(200);
  });

  it("refuses another session's item with 403 and leaves it as it was", async () => {
    const mine = await sessionWith(['a.wav']);
    const other = await env.session();
    const res = await save(other, { id: mine.items[0].id, start: 0.5 });
    expect(res.statusCode).toBe(403);
    expect((await env.items(mine.s))[0]).toMatchObject({ start: null, end: null });
    expect((await save(other, { id: 'no-such-item', start: 0.5 })).statusCode).toBe(404);
  });

  it('every later merge uses the saved spans, cut at the sample', async () => {
    const { s, items } = await sessionWith(['a.wav', 'b.flac']);
    expect((await save(s, { id: items[0].id, start: 0.5, end: 1.25 })).statusCode).toBe(200);
    expect((await save(s, { id: items[1].id, end: 0.4 })).statusCode).toBe(200);
    const merged = await env.post(s, '/app/merge/mergemp3', {
      items: items.map((i) => ({ id: i.id })),
      options: { format: 'wav' },
    });
    expect(merged.statusCode, merged.body).toBe(200);
    const [result] = await env.app.store.listResults(s.sid);
    const file = path.join(env.app.dataDir, 'results', s.sid, result.file);
    expect((await readFile(file)).subarray(0, 4).toString()).toBe('RIFF');
    const pcm = await decodeFloat(file);
    // 0.75 s of the first and 0.4 s of the second, within 1 ms.
    expect(Math.abs(pcm.length - 1.15 * 44100)).toBeLessThanOrEqual(44);
  });
});

describe("a chapter title and a file's own chapters", () => {
  // Why a row whose file has chapters shows their count rather than a title field.
  it('a merge keeps the chapters the file carries, not the title saved for it, unless it flattens them', async () => {
    const { s, items } = await sessionWith(['part.m4b', 'b.flac']);
    expect(items.map((i) => i.chapters)).toEqual([2, 0]);
    for (const [id, chapterTitle] of [
      [items[0].id, 'Typed for the part'],
      [items[1].id, 'Typed for b'],
    ])
      expect((await save(s, { id, chapterTitle })).statusCode).toBe(200);
    const titlesOf = async (options: Record<string, unknown>) => {
      const before = new Set((await env.app.store.listResults(s.sid)).map((r) => r.id));
      const res = await env.post(s, '/app/merge/mergemp3', {
        items: items.map((i) => ({ id: i.id })),
        options: { format: 'wav', ...options },
      });
      expect(res.statusCode, res.body).toBe(200);
      const made = (await env.app.store.listResults(s.sid)).filter((r) => !before.has(r.id));
      expect(made).toHaveLength(1);
      return made[0].chapters.map((c) => c.title);
    };
    expect(await titlesOf({})).toEqual(['Inner One', 'Inner Two', 'Typed for b']);
    expect(await titlesOf({ inputChapters: 'flatten' })).toEqual(['Typed for the part', 'Typed for b']);
  });
});

const peaks = (s: TestSession | null, id: string, query = '') =>
  env.inject({
    method: 'GET',
    url: `/app/merge/peaks/${id}${query}`,
    headers: s ? { cookie: s.cookie } : {},
  });

describe('peaks', () => {
  it('gives low peaks for 5 s of silence, then high for 5 s of a tone, at any N; computed at upload', async () => {
    const { s, items } = await sessionWith(['quiet-loud.mp3']);
    const item = items[0];
    // An MP3 is measured by its frames: its one decode starts once it is stored, before any request.
    const stored = path.join(env.app.dataDir, 'uploads', s.sid, `${item.newfilename}-peaks.bin`);
    await env.app.peaks.idle();
    await access(stored);
    const res = await peaks(s, item.id, '?bins=10');
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json() as { duration: number; peaks: number[] };
    expect(body.duration).toBeCloseTo(10, 1);
    expect(body.peaks).toHaveLength(10);
    // MP3 encoder delay moves the edge by a few ms: the slices next to 5 s are left out.
    for (const p of body.peaks.slice(0, 4)) expect(p).toBeLessThan(0.01);
    for (const p of body.peaks.slice(6)) {
      expect(p).toBeGreaterThan(0.3);
      expect(p).toBeLessThan(0.4);
    }
    const dflt = (await peaks(s, item.id)).json() as { peaks: number[] };
    expect(dflt.peaks).toHaveLength(800);
    expect(((await peaks(s, item.id, '?bins=4000')).json() as { peaks: number[] }).peaks).toHaveLength(4000);
    expect(((await peaks(s, item.id, '?bins=1')).json() as { peaks: number[] }).peaks[0]).toBeGreaterThan(
      0.3,
    );
  });

  it('answers 400 naming bins outside 1..4000; only the owner gets them (403 another session, 404 unknown)', async () => {
    const { s, items } = await sessionWith(['a.wav']);
    // A WAV is decoded at upload to be measured: its waveform comes from that same decode.
    await access(path.join(env.app.dataDir, 'uploads', s.sid, `${items[0].newfilename}-peaks.bin`));
    for (const q of ['?bins=0', '?bins=4001', '?bins=2.5', '?bins=many']) {
      const res = await peaks(s, items[0].id, q);
      expect(res.statusCode, q).toBe(400);
      expect(res.json().field).toBe('bins');
    }
    const other = await env.session();
    expect((await peaks(other, items[0].id)).statusCode).toBe(403);
    expect((await peaks(null, items[0].id)).statusCode).toBe(403);
    expect((await peaks(s, 'no-such-item')).statusCode).toBe(404);
  });

  it('are computed once on first request for an item stored without them, and go with the item', async () => {
    const { s, items } = await sessionWith(['quiet-loud.mp3']);
    const item = items[0];
    const stored = path.join(env.app.dataDir, 'uploads', s.sid, `${item.newfilename}-peaks.bin`);
    await env.app.peaks.idle();
    await env.app.files.remove({ area: 'uploads', sid: s.sid, name: `${item.newfilename}-peaks.bin` });
    const [a, b] = await Promise.all([peaks(s, item.id, '?bins=10'), peaks(s, item.id, '?bins=10')]);
    expect(a.statusCode, a.body).toBe(200);
    expect(b.json()).toEqual(a.json());
    expect((a.json() as { peaks: number[] }).peaks[9]).toBeGreaterThan(0.3);
    await access(stored);
    expect((await env.post(s, '/app/merge/deleteItem', { id: item.id })).statusCode).toBe(200);
    await expect(access(stored)).rejects.toThrow();
  });

  it('asked for while its item is deleted mid-decode answers 404, not a refusal of the file', async () => {
    const { s, items } = await sessionWith(['quiet-loud.mp3']);
    const item = items[0];
    await env.app.peaks.idle();
    await env.app.files.remove({ area: 'uploads', sid: s.sid, name: `${item.newfilename}-peaks.bin` });
    // deleteItem landing after the decode has found the file and before it reads it.
    const localPath = env.app.files.localPath;
    env.app.files.localPath = async (ref, scratch) => {
      const found = await localPath(ref, scratch);
      expect((await env.post(s, '/app/merge/deleteItem', { id: item.id })).statusCode).toBe(200);
      return found;
    };
    try {
      const res = await peaks(s, item.id);
      expect(res.statusCode, res.body).toBe(404);
      expect(res.json()).toMatchObject({ code: 'notFound' });
    } finally {
      env.app.files.localPath = localPath;
    }
  });

  it('an item deleted while its waveform is made at upload leaves no waveform behind', async () => {
    const { s, items } = await sessionWith(['quiet-loud.mp3']);
    const item = items[0];
    expect((await env.post(s, '/app/merge/deleteItem', { id: item.id })).statusCode).toBe(200);
    await env.app.peaks.idle();
    expect(await readdir(path.join(env.app.dataDir, 'uploads', s.sid)).catch(() => [])).toEqual([]);
    expect((await peaks(s, item.id)).statusCode).toBe(404);
  });
});
