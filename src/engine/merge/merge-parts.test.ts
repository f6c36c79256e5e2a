import { existsSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { tools, scratchFiles } from '../../../test/support/engine-kit.js';
import { ffprobeJson } from '../../../test/support/audio-fixtures.js';
import { ffprobeChapters } from '../../../test/support/chapter-readers.js';
import { decodeFloat } from '../../../test/support/pcm-measure.js';
import { makeImage } from '../../../test/support/pictures.js';
import { spokenBook, writeSpoken, type SpokenBook } from '../../../test/support/spoken-book.js';
import type { MergeReport } from '../types.js';
import { mergeFiles } from './merge.js';

const file = scratchFiles('parts-');
const RATE = 22050;
/** 1 ms at the test's rate: what each cut may be off by. */
const MS = RATE / 1000;

let book: SpokenBook;
let input: string;
let cover: string;
beforeAll(async () => {
  book = spokenBook({ seconds: 100, breaksAt: [30, 65], sampleRate: RATE });
  input = await writeSpoken(book, file('book.mp3'), undefined, ['-c:a', 'libmp3lame', '-b:a', '64k']);
  cover = file('cover.jpg');
  await makeImage(cover);
});

/** The lag (samples, within +-1 ms) at which `part` best matches `whole` from `at`, and how far off it then is. */
function bestLag(whole: Float32Array, part: Float32Array, at: number): { lag: number; meanDiff: number } {
  let best = { lag: 0, meanDiff: Infinity };
  const n = Math.min(part.length, whole.length - at - Math.ceil(MS)) - Math.ceil(MS);
  for (let lag = -Math.floor(MS); lag <= Math.floor(MS); lag++) {
    let sum = 0;
    let count = 0;
    for (let i = Math.ceil(MS); i < n; i += 7) {
      const w = whole[at + i + lag];
      if (w === undefined) continue;
      sum += Math.abs(part[i] - w);
      count++;
    }
    if (sum / count < best.meanDiff) best = { lag, meanDiff: sum / count };
  }
  return best;
}

/**
 * Each part's decoded audio is the unsplit output's over its span (within 1 ms), lasts its span
 * (within 1 ms), and the parts tile the book end to end.
 */
async function expectTheBook(whole: string, report: MergeReport): Promise<void> {
  const parts = report.parts!;
  const pcm = await decodeFloat(whole, RATE);
  let end = 0;
  for (const p of parts) {
    expect(p.start).toBeCloseTo(end, 6);
    end = p.end;
    const decoded = await decodeFloat(p.output, RATE);
    // ffmpeg decodes an MP4's last packet whole, past the edit list's end (as it does the unsplit
    // book's): up to one AAC frame more. Where each part starts is checked to the millisecond below.
    const over = decoded.length - (p.end - p.start) * RATE;
    expect(over).toBeGreaterThanOrEqual(-MS);
    expect(over).toBeLessThanOrEqual(MS + (report.format === 'mp3' ? 0 : 1024));
    const { lag, meanDiff } = bestLag(pcm, decoded, Math.round(p.start * RATE));
    expect(Math.abs(lag)).toBeLessThanOrEqual(MS);
    // Speech-like noise a sample apart differs by about its own level (0.1); matched, by the codec's error.
    expect(meanDiff).toBeLessThan(0.02);
  }
  expect(end).toBeCloseTo(report.durationSeconds, 6);
}

async function trackAndTitle(out: string): Promise<{ track?: string; title?: string; pictures: number }> {
  const probed = await ffprobeJson(out);
  const tags = Object.fromEntries(
    Object.entries(probed.format.tags ?? {}).map(([k, v]) => [k.toLowerCase(), v]),
  );
  return {
    track: tags.track,
    title: tags.title,
    pictures: probed.streams.filter((s) => s.codec_type === 'video').length,
  };
}

describe('a book in parts', () => {
  it.each(['mp3', 'm4b'] as const)(
    'one chapter a part in %s: the parts end to end are the unsplit book, each with its chapter, details, cover and track',
    async (format) => {
      const opts = { tools, concurrency: 2, chaptersAt: 'silences' as const, title: 'The Book', cover };
      const unsplit = await mergeFiles([input], file(`whole.${format}`), opts);
      const out = file(`parts.${format}`);
      const report = await mergeFiles([input], out, { ...opts, split: 'chapters' });
      expect(existsSync(out)).toBe(false);
      expect(report.chapters).toEqual(unsplit.chapters);
      const parts = report.parts!;
      expect(parts.map((p) => p.output)).toEqual([1, 2, 3].map((k) => file(`parts-0${k}.${format}`)));
      expect(parts.map((p) => p.start)).toEqual(unsplit.chapters.map((c) => c.start));
      await expectTheBook(unsplit.output, report);
      for (const [k, p] of parts.entries()) {
        expect(p.chapters).toEqual([{ title: unsplit.chapters[k].title, start: 0, end: p.durationSeconds }]);
        const written = await ffprobeChapters(p.output);
        expect(written.map((c) => c.title)).toEqual([unsplit.chapters[k].title]);
        expect(await trackAndTitle(p.output)).toEqual({
          track: `${k + 1}/3`,
          title: 'The Book',
          pictures: 1,
        });
      }
      // Copied MP3 frames stay copied: nothing of the book went through an encoder for the parts.
      if (format === 'mp3') expect(report.transcoded).toEqual([]);
    },
  );

  it('by seconds: whole chapters while they fit, a longer one cut in a silence of its last tenth', async () => {
    const whole = await mergeFiles([input], file('one-chapter.mp3'), { tools });
    const report = await mergeFiles([input], file('hour.mp3'), { tools, split: 40 });
    const parts = report.parts!;
    expect(parts).toHaveLength(3);
    for (const p of parts.slice(0, -1)) {
      expect(p.end - p.start).toBeLessThanOrEqual(40);
      expect(p.end - p.start).toBeGreaterThanOrEqual(36);
    }
    // The one chapter goes on in every part, from its start.
    expect(parts.map((p) => p.chapters.map((c) => [c.title, c.start]))).toEqual([
      [['book', 0]],
      [['book', 0]],
      [['book', 0]],
    ]);
    await expectTheBook(whole.output, report);
    expect((await trackAndTitle(parts[2].output)).track).toBe('3/3');
  });
});
