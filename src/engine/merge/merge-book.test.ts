import { execFile } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { parseFile } from 'music-metadata';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ffprobeJson, makeTone, tempDir } from '../../../test/support/audio-fixtures.js';
import { tools } from '../../../test/support/engine-kit.js';
import { ffprobeChapters } from '../../../test/support/chapter-readers.js';
import { makeImage } from '../../../test/support/pictures.js';
import type { OutputFormat } from '../plan/formats.js';
import { mergeFiles } from './merge.js';

const exec = promisify(execFile);

const DETAILS = {
  title: 'The Long Road',
  artist: 'Ana Author',
  albumArtist: 'Ana Author',
  album: 'Road Books',
  narrator: 'Nils Narrator',
  genre: 'Audiobook',
  year: '2024',
  description: 'A book about a road.\nIn two lines.',
  comment: 'Made for the tests',
};

async function image(file: string, size: string): Promise<string> {
  await makeImage(file, { size });
  return file;
}

/** ffprobe's tags of the file and its audio stream, keys lower-cased (Ogg carries them on the stream). */
async function probedTags(file: string): Promise<Record<string, string>> {
  const { stdout } = await exec(tools.ffprobe, [
    '-v',
    'error',
    '-print_format',
    'json',
    '-show_entries',
    'format_tags:stream=codec_type:stream_tags',
    file,
  ]);
  const json = JSON.parse(stdout) as {
    format?: { tags?: Record<string, string> };
    streams?: { codec_type?: string; tags?: Record<string, string> }[];
  };
  const all = {
    ...json.format?.tags,
    ...Object.assign(
      {},
      ...(json.streams ?? []).filter((s) => s.codec_type === 'audio').map((s) => s.tags ?? {}),
    ),
  };
  return Object.fromEntries(Object.entries(all).map(([k, v]) => [k.toLowerCase(), String(v)]));
}

describe("the book's details, cover and chapters", () => {
  let dir: string;
  let cleanup: () => Promise<void>;
  let mp3s: string[];
  let cover: string;
  beforeAll(async () => {
    ({ dir, cleanup } = await tempDir());
    mp3s = [
      await makeTone(path.join(dir, 'one.mp3'), {
        seconds: 2,
        extraArgs: ['-metadata', 'title=Opening credits'],
      }),
      await makeTone(path.join(dir, 'two.mp3'), { seconds: 2, frequency: 660 }),
    ];
    cover = await image(path.join(dir, 'cover.png'), '32x24');
  }, 60_000);
  afterAll(() => cleanup());

  it.each<OutputFormat>(['mp3', 'm4b', 'flac', 'opus'])(
    'every detail is read back by ffprobe and music-metadata in %s, with the cover',
    async (format) => {
      const out = path.join(dir, `details.${format}`);
      const report = await mergeFiles(mp3s, out, { tools, ...DETAILS, cover, concurrency: 2 });
      const own = format === 'mp3' || format === 'm4b';
      const tags = await probedTags(out);
      expect(tags).toMatchObject({
        title: DETAILS.title,
        artist: DETAILS.artist,
        album_artist: DETAILS.albumArtist,
        album: DETAILS.album,
        composer: DETAILS.narrator,
        genre: DETAILS.genre,
        date: DETAILS.year,
      });
      if (own) {
        expect(tags.description).toBe(DETAILS.description);
        expect(tags.comment).toBe(DETAILS.comment);
      } else {
        // Vorbis comments have one field for both (ffmpeg reads DESCRIPTION as the comment).
        expect(tags.comment).toBe(`${DETAILS.description}\n\n${DETAILS.comment}`);
      }
      expect(report.tags).toMatchObject({ title: DETAILS.title, composer: DETAILS.narrator, date: '2024' });
      expect(report.cover).toBe(true);

      const mm = await parseFile(out);
      expect(mm.common).toMatchObject({
        title: DETAILS.title,
        artist: DETAILS.artist,
        albumartist: DETAILS.albumArtist,
        album: DETAILS.album,
        composer: [DETAILS.narrator],
        genre: [DETAILS.genre],
        year: 2024,
      });
      expect(mm.common.comment?.map((c) => c.text)).toContain(own ? DETAILS.comment : tags.comment);
      if (format === 'm4b') expect(mm.common.description).toEqual([DETAILS.description]);
      if (format === 'mp3') {
        const txxx = mm.native['ID3v2.3'].find((t) => t.id === 'TXXX:description');
        expect(txxx?.value).toBe(DETAILS.description);
      }
      const picture = mm.common.picture?.[0];
      expect(picture?.format).toBe('image/png');
      expect(Buffer.from(picture!.data).subarray(1, 4).toString('latin1')).toBe('PNG');
    },
  );

  it.each<OutputFormat>(['flac', 'opus', 'ogg'])(
    'keeps a detail that ends in a backslash from swallowing the next one in %s',
    async (format) => {
      const out = path.join(dir, `backslash.${format}`);
      const details = {
        title: 'Ends in \\',
        artist: 'Next \\\\',
        album: 'Third \\',
        description: 'Line\\\nTwo \\',
        comment: 'Last \\',
      };
      await mergeFiles(mp3s, out, { tools, ...details, chapters: false });
      const tags = await probedTags(out);
      expect(tags).toMatchObject({
        title: details.title,
        artist: details.artist,
        album: details.album,
        comment: `${details.description}\n\n${details.comment}`,
      });
    },
  );

  it('refuses a chapter list longer than the format holds (255 in M4B and MP3), naming the first line past it, and writes nothing', async () => {
    const list = Array.from({ length: 300 }, (_, i) => ({
      start: i * 0.01,
      title: `Part ${i + 1}`,
      line: i + 3,
    }));
    for (const format of ['m4b', 'mp3'] as const) {
      const out = path.join(dir, `too-many.${format}`);
      const refused = mergeFiles(mp3s, out, { tools, chapterList: list });
      await expect(refused).rejects.toMatchObject({ code: 'too-many-chapters', line: 258 });
      await expect(refused).rejects.toThrow(/line 258: more than 255 chapters/);
      await expect(ffprobeJson(out)).rejects.toThrow();
    }
    const flac = await mergeFiles(mp3s, path.join(dir, 'many.flac'), { tools, chapterList: list });
    expect(flac.chapters).toHaveLength(300);
  });

  it('takes the album the inputs share as the title, else the first input title', async () => {
    const a = await makeTone(path.join(dir, 'a.mp3'), {
      extraArgs: ['-metadata', 'title=Opening credits', '-metadata', 'album=Shared Book'],
    });
    const b = await makeTone(path.join(dir, 'b.mp3'), { extraArgs: ['-metadata', 'album=Shared Book'] });
    const shared = await mergeFiles([a, b], path.join(dir, 'shared.mp3'), { tools });
    expect(shared.tags.title).toBe('Shared Book');
    const first = await mergeFiles([a, mp3s[1]], path.join(dir, 'first.mp3'), { tools });
    expect(first.tags.title).toBe('Opening credits');
    // Per input: the one without a title tag is named by its file, the other keeps its tag.
    expect(first.chapters.map((c) => c.title)).toEqual(['Opening credits', 'two']);
  });

  it('puts the cover in Ogg Vorbis as a picture block', async () => {
    const out = path.join(dir, 'cover.ogg');
    await mergeFiles(mp3s, out, { tools, cover });
    const mm = await parseFile(out);
    expect(mm.common.picture?.[0]?.format).toBe('image/png');
  });

  it('copies the cover it embedded where coverCopy says, and writes none without a cover', async () => {
    const copy = path.join(dir, 'copied-cover.img');
    const report = await mergeFiles(mp3s, path.join(dir, 'copy.m4b'), { tools, cover, coverCopy: copy });
    expect(report.cover).toBe(true);
    expect((await readFile(copy)).equals(await readFile(cover))).toBe(true);
    const none = path.join(dir, 'no-cover.img');
    const bare = await mergeFiles(mp3s, path.join(dir, 'bare.m4b'), { tools, coverCopy: none });
    expect(bare.cover).toBe(false);
    await expect(readFile(none)).rejects.toThrow(/ENOENT/);
  });

  it('refuses a cover over 4096 pixels wide, or not an image, naming it, and writes nothing', async () => {
    const wide = await image(path.join(dir, 'wide.png'), '4100x8');
    const out = path.join(dir, 'refused.mp3');
    await expect(mergeFiles(mp3s, out, { tools, cover: wide })).rejects.toThrow(/wide\.png.*4100 x 8/);
    await expect(mergeFiles(mp3s, out, { tools, cover: mp3s[0] })).rejects.toThrow(/not a JPEG or PNG/);
    await expect(ffprobeJson(out)).rejects.toThrow();
  });

  it("keeps a three-chapter M4B's own chapters, moved to where it starts: five chapters with two MP3s", async () => {
    const meta = path.join(dir, 'chapters.txt');
    await writeFile(
      meta,
      ';FFMETADATA1\n' +
        [
          [0, 1000, 'First'],
          [1000, 2500, 'Second'],
          [2500, 4000, 'Third'],
        ]
          .map(([s, e, t]) => `[CHAPTER]\nTIMEBASE=1/1000\nSTART=${s}\nEND=${e}\ntitle=${t}\n`)
          .join(''),
    );
    const book = path.join(dir, 'part.m4b');
    await exec(tools.ffmpeg, [
      '-v',
      'error',
      '-y',
      '-f',
      'lavfi',
      '-i',
      'sine=f=330:d=4:sample_rate=44100',
      '-i',
      meta,
      '-map',
      '0:a',
      '-map_chapters',
      '1',
      '-c:a',
      'aac',
      '-ac',
      '2',
      '-f',
      'mp4',
      book,
    ]);
    const out = path.join(dir, 'five.m4b');
    const report = await mergeFiles([mp3s[0], book, mp3s[1]], out, { tools, concurrency: 2 });
    expect(report.chapters.map((c) => c.title)).toEqual([
      'Opening credits',
      'First',
      'Second',
      'Third',
      'two',
    ]);
    const at = report.chapters[1].start;
    expect(at).toBeCloseTo(2, 1);
    const starts = report.chapters.map((c) => c.start);
    // Moved by where the M4B starts; the file's own chapters lie 1 and 2.5 s into it.
    expect(starts[2] - at).toBeCloseTo(1, 2);
    expect(starts[3] - at).toBeCloseTo(2.5, 2);
    expect(starts[4]).toBeCloseTo(at + 4, 1);
    const probed = await ffprobeChapters(out);
    expect(probed.map((c) => c.title)).toEqual(report.chapters.map((c) => c.title));
    probed.forEach((c, i) => expect(Math.abs(c.start - starts[i])).toBeLessThanOrEqual(0.03));

    const flat = await mergeFiles([mp3s[0], book, mp3s[1]], path.join(dir, 'flat.m4b'), {
      tools,
      inputChapters: 'flatten',
      inputChapterTitles: [null, 'The Middle', ''],
    });
    expect(flat.chapters.map((c) => c.title)).toEqual(['Opening credits', 'The Middle', 'two']);

    // Trimmed to 1.5-4 s, the M4B keeps the chapters its kept part reaches, counted from the cut:
    // Second (already under way at the cut) starts with it, Third 1 s later.
    const cut = await mergeFiles([mp3s[0], book, mp3s[1]], path.join(dir, 'cut.m4b'), {
      tools,
      trims: [{ input: 1, start: 1.5, end: 4 }],
    });
    expect(cut.chapters.map((c) => c.title)).toEqual(['Opening credits', 'Second', 'Third', 'two']);
    const cutAt = cut.chapters[1].start;
    expect(cutAt).toBeCloseTo(at, 1);
    expect(cut.chapters[2].start - cutAt).toBeCloseTo(1, 2);
    expect(cut.chapters[3].start - cutAt).toBeCloseTo(2.5, 1);
  });

  it("keeps an MP3's own ID3 chapters, moved to where it starts", async () => {
    const chaptered = path.join(dir, 'chaptered.mp3');
    await mergeFiles(mp3s, chaptered, { tools, inputChapterTitles: ['Uno', 'Dos'] });
    const report = await mergeFiles([mp3s[1], chaptered], path.join(dir, 'again.mp3'), { tools });
    expect(report.chapters.map((c) => c.title)).toEqual(['two', 'Uno', 'Dos']);
    expect(report.chapters[2].start - report.chapters[1].start).toBeCloseTo(2, 1);
  });

  it('writes the channels and sample rate asked for', async () => {
    const out = path.join(dir, 'mono.mp3');
    const report = await mergeFiles(mp3s, out, { tools, channels: 1, sampleRate: 22050, bitRateKbps: 64 });
    expect(report.transcoded).toEqual([0, 1]);
    const stream = (await ffprobeJson(out)).streams[0];
    expect(stream.channels).toBe(1);
    expect(stream.sample_rate).toBe('22050');
    const flac = path.join(dir, 'mono.flac');
    await mergeFiles(mp3s, flac, { tools, channels: 1, sampleRate: 16000 });
    const f = (await ffprobeJson(flac)).streams[0];
    expect([f.channels, f.sample_rate]).toEqual([1, '16000']);
  });
});
