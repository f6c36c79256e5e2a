// A 30-minute spoken book, as a person's audiobook is: chapters found at its long silences (none
// at the pauses between sentences), the same from CD-rip-like tracks cut mid-sentence, long
// chapters split in pauses, and the book in parts that are the book end to end. Slow (minutes):
// run with the conformance script, not npm test.
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mergeFiles } from '../../src/engine/index.js';
import type { Chapter } from '../../src/engine/index.js';
import { tempDir } from '../support/audio-fixtures.js';
import { tools } from '../support/engine-kit.js';
import { decodeFloat, peakOf } from '../support/pcm-measure.js';
import { spokenBook, writeSpoken, type SpokenBook, type Stretch } from '../support/spoken-book.js';

const RATE = 22050;
const SILENT = 10 ** (-45 / 20);
const MP3 = ['-c:a', 'libmp3lame', '-b:a', '48k'];
const BREAKS = [240, 530, 800, 1100, 1390, 1650];

let dir: string;
let cleanup: () => Promise<void>;
let book: SpokenBook;
let whole: string;
beforeAll(async () => {
  ({ dir, cleanup } = await tempDir('conformance-chapters-'));
  book = spokenBook({ seconds: 1800, breaksAt: BREAKS, sampleRate: RATE, seed: 30 });
  whole = await writeSpoken(book, path.join(dir, 'book.mp3'), undefined, MP3);
}, 300_000);
afterAll(() => cleanup());

/** Every chapter after the first in its own long silence, at most 1 s before its sound, silent as decoded. */
async function expectInSilences(out: string, chapters: Chapter[], silences: Stretch[]): Promise<void> {
  expect(chapters).toHaveLength(silences.length + 1);
  const pcm = await decodeFloat(out, RATE);
  chapters.slice(1).forEach((c, k) => {
    const s = silences[k];
    expect(c.start).toBeGreaterThanOrEqual(s.start);
    expect(c.start).toBeLessThanOrEqual(s.end);
    expect(s.end - c.start).toBeLessThanOrEqual(1);
    expect(peakOf(pcm, Math.round(c.start * RATE), Math.round((s.end - 0.03) * RATE))).toBeLessThan(SILENT);
  });
}

describe('chapters at silences in a 30-minute book', () => {
  it('stands a chapter in each of the six long silences and none at the pauses, in MP3 (copied) and M4B', async () => {
    expect(book.silences).toHaveLength(BREAKS.length);
    expect(book.pauses.length).toBeGreaterThan(200);
    for (const format of ['mp3', 'm4b']) {
      const out = path.join(dir, `at-silences.${format}`);
      const report = await mergeFiles([whole], out, { tools, chaptersAt: 'silences' });
      await expectInSilences(out, report.chapters, book.silences);
      expect(report.chapters.slice(1).map((c) => c.title)).toEqual(BREAKS.map((_, k) => `Chapter ${k + 2}`));
      if (format === 'mp3') expect(report.transcoded).toEqual([]);
    }
  }, 600_000);

  it('finds the same chapters in CD-rip-like tracks cut mid-sentence, none at the cuts', async () => {
    const mids = book.midSentence;
    const cuts = Array.from({ length: 11 }, (_, k) => mids[Math.floor(((k + 1) * mids.length) / 12)]);
    const edges = [0, ...cuts, book.seconds];
    const tracks: string[] = [];
    for (let k = 0; k + 1 < edges.length; k++)
      tracks.push(
        await writeSpoken(book, path.join(dir, `track-${String(k + 1).padStart(2, '0')}.wav`), {
          start: edges[k],
          end: edges[k + 1],
        }),
      );
    const out = path.join(dir, 'tracks.flac');
    const report = await mergeFiles(tracks, out, { tools, chaptersAt: 'silences' });
    await expectInSilences(out, report.chapters, book.silences);
    // Nothing at a cut: a chapter stands 0.5 s before a sentence, a cut at least 0.5 s into one.
    for (const cut of cuts) expect(report.chapters.some((c) => Math.abs(c.start - cut) < 0.9)).toBe(false);
  }, 600_000);

  it('--chapter-max splits every long chapter inside a pause', async () => {
    const report = await mergeFiles([whole], path.join(dir, 'max.mp3'), {
      tools,
      chaptersAt: 'silences',
      chapterMax: 180,
    });
    expect(report.chapters.every((c) => c.end - c.start <= 180)).toBe(true);
    const stretches = [...book.pauses, ...book.silences];
    for (const c of report.chapters.slice(1))
      expect(stretches.some((p) => c.start >= p.start && c.start <= p.end)).toBe(true);
  }, 600_000);

  it('writes the book in parts of at most ten minutes, each part the book at its place', async () => {
    const unsplit = await mergeFiles([whole], path.join(dir, 'unsplit.m4b'), {
      tools,
      chaptersAt: 'silences',
    });
    const report = await mergeFiles([whole], path.join(dir, 'parts.m4b'), {
      tools,
      chaptersAt: 'silences',
      split: 600,
    });
    const parts = report.parts!;
    expect(parts.length).toBeGreaterThanOrEqual(3);
    const book = await decodeFloat(unsplit.output, RATE);
    let end = 0;
    for (const p of parts) {
      expect(p.start).toBeCloseTo(end, 6);
      expect(p.end - p.start).toBeLessThanOrEqual(600);
      end = p.end;
      const part = await decodeFloat(p.output, RATE);
      // Matched where it stands: the mean difference is the codec's, not a shifted signal's.
      const at = Math.round(p.start * RATE);
      let diff = 0;
      let n = 0;
      for (let i = 0; i < Math.min(part.length, book.length - at); i += 11, n++)
        diff += Math.abs(part[i] - book[at + i]);
      expect(diff / n).toBeLessThan(0.02);
    }
    expect(end).toBeCloseTo(unsplit.durationSeconds, 6);
  }, 900_000);
});
