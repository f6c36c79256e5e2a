import { describe, expect, it, beforeAll } from 'vitest';
import { tools, scratchFiles } from '../../../test/support/engine-kit.js';
import { ffprobeChapters } from '../../../test/support/chapter-readers.js';
import { decodeFloat, peakOf } from '../../../test/support/pcm-measure.js';
import { spokenBook, writeSpoken, type SpokenBook, type Stretch } from '../../../test/support/spoken-book.js';
import type { Chapter } from '../plan/chapters.js';
import type { OutputFormat } from '../plan/formats.js';
import { mergeFiles } from './merge.js';

const file = scratchFiles('silence-chapters-');
const MP3 = ['-c:a', 'libmp3lame', '-b:a', '64k'];
const RATE = 22050;
const SILENT = 10 ** (-45 / 20);

/** A book of two and a half minutes with three long silences: four chapters. */
let book: SpokenBook;
beforeAll(() => {
  book = spokenBook({ seconds: 150, breaksAt: [35, 75, 110], sampleRate: RATE });
});

/**
 * Each chapter after the first stands in its own long silence, at most 1 s before the sound that
 * ends it, and the decoded output is silent (below -45 dBFS) from the chapter to that sound.
 */
async function expectInSilences(out: string, chapters: Chapter[], silences: Stretch[]): Promise<void> {
  expect(chapters.map((c) => c.start).slice(1)).toHaveLength(silences.length);
  const pcm = await decodeFloat(out, RATE);
  chapters.slice(1).forEach((c, k) => {
    const s = silences[k];
    expect(c.start).toBeGreaterThanOrEqual(s.start);
    expect(c.start).toBeLessThanOrEqual(s.end);
    expect(s.end - c.start).toBeLessThanOrEqual(1);
    // Silent as decoded, up to a frame before the sound (an MP3 or AAC frame's pre-echo).
    expect(peakOf(pcm, Math.round(c.start * RATE), Math.round((s.end - 0.03) * RATE))).toBeLessThan(SILENT);
  });
}

describe('chapters at silences', () => {
  it.each<OutputFormat>(['mp3', 'm4b', 'flac'])(
    'in %s, stand in each long silence (none at the pauses), numbered, the first the file title',
    async (format) => {
      const input = await writeSpoken(book, file(`book-${format}.mp3`), undefined, MP3);
      const out = file(`at-silences.${format}`);
      const report = await mergeFiles([input], out, { tools, concurrency: 2, chaptersAt: 'silences' });
      expect(report.chapters.map((c) => c.title)).toEqual([
        'book-' + format,
        'Chapter 2',
        'Chapter 3',
        'Chapter 4',
      ]);
      await expectInSilences(out, report.chapters, book.silences);
      const written = await ffprobeChapters(out);
      expect(written.map((c) => c.title)).toEqual(report.chapters.map((c) => c.title));
      written.forEach((c, k) =>
        expect(Math.abs(c.start - report.chapters[k].start)).toBeLessThanOrEqual(0.0011),
      );
      // A copied MP3 stays copied: chapters are marks, not cuts.
      if (format === 'mp3') expect(report.transcoded).toEqual([]);
    },
  );

  it('finds none at the cuts of tracks cut mid-sentence, and one in a silence an input starts in takes its title', async () => {
    const m = book.midSentence;
    // Four tracks cut mid-word, and one cut 0.4 s before the sound that ends the second silence.
    const cutInSilence = book.silences[1].end - 0.4;
    const cuts = [
      m[Math.floor(m.length * 0.2)],
      m[Math.floor(m.length * 0.4)],
      cutInSilence,
      m[Math.floor(m.length * 0.85)],
    ];
    const edges = [0, ...cuts, book.seconds];
    const tracks = await Promise.all(
      edges
        .slice(1)
        .map((end, k) =>
          writeSpoken(book, file(`track-${k + 1}.wav`), { start: edges[k], end }, ['-c:a', 'pcm_s16le']),
        ),
    );
    const out = file('tracks.flac');
    const percents: number[] = [];
    const report = await mergeFiles(tracks, out, {
      tools,
      concurrency: 2,
      chaptersAt: 'silences',
      onProgress: (p) => percents.push(p),
    });
    expect(report.chapters.map((c) => c.title)).toEqual(['track-1', 'Chapter 2', 'track-4', 'Chapter 4']);
    // The decodes that find the silences move the bar, input by input, never back.
    expect(percents.filter((p) => p > 0 && p < 50).length).toBeGreaterThanOrEqual(3);
    expect(percents.every((p, i) => i === 0 || p >= percents[i - 1])).toBe(true);
    expect(percents.at(-1)).toBe(100);
    await expectInSilences(out, report.chapters, book.silences);
    // The third track starts a chapter exactly where it starts (its sound 0.4 s later).
    expect(Math.abs(report.chapters[2].start - cutInSilence)).toBeLessThan(0.03);
  });

  it('with both, keeps a chapter at every input and adds those in silences inside them', async () => {
    const half = book.midSentence[Math.floor(book.midSentence.length / 2)];
    const a = await writeSpoken(book, file('half-1.mp3'), { start: 0, end: half }, MP3);
    const b = await writeSpoken(book, file('half-2.mp3'), { start: half, end: book.seconds }, MP3);
    const report = await mergeFiles([a, b], file('both.mp3'), { tools, chaptersAt: 'both' });
    const starts = report.chapters.map((c) => c.start);
    expect(report.chapters.map((c) => c.title)).toContain('half-2');
    expect(starts.length).toBe(5);
    // Where the second file starts: after the first one's MP3 padding (at most two 22.05 kHz frames).
    expect(starts.some((s) => s - half >= 0 && s - half < 0.11)).toBe(true);
  });

  it('--chapter-max splits each long chapter inside a pause, and --chapter-min drops close ones', async () => {
    const input = await writeSpoken(book, file('max.flac'), undefined, ['-c:a', 'flac']);
    const report = await mergeFiles([input], file('max.opus'), {
      tools,
      chaptersAt: 'silences',
      chapterMax: 25,
    });
    const chapters = report.chapters;
    expect(chapters.every((c) => c.end - c.start <= 25 + 1e-6)).toBe(true);
    expect(chapters.length).toBeGreaterThan(6);
    const stretches = [...book.pauses, ...book.silences];
    for (const c of chapters.slice(1))
      expect(stretches.some((p) => c.start >= p.start && c.start <= p.end)).toBe(true);
    const fewer = await mergeFiles([input], file('min.flac'), {
      tools,
      chaptersAt: 'silences',
      chapterMin: 45,
    });
    // The silences near 35, 75 and 110 s: the second and third come about 40 s after the one before.
    expect(fewer.chapters.length).toBeLessThan(4);
  });
});
