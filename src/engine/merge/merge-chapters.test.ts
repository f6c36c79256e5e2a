import { copyFile } from 'node:fs/promises';
import path from 'node:path';
import { parseFile } from 'music-metadata';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodePcm, tempDir } from '../../../test/support/audio-fixtures.js';
import { tools } from '../../../test/support/engine-kit.js';
import { ffprobeChapters } from '../../../test/support/chapter-readers.js';
import { findOnsets, makeOnsetInput, makeOnsetInputs, ONSET_KINDS } from '../../../test/support/onsets.js';
import { vorbisTime } from '../plan/chapters.js';
import type { OutputFormat } from '../plan/formats.js';
import { mergeFiles } from './merge.js';

const COUNT = 60;

describe('chapters land where each input starts', () => {
  let dir: string;
  let cleanup: () => Promise<void>;
  let inputs: string[];
  beforeAll(async () => {
    ({ dir, cleanup } = await tempDir());
    inputs = await makeOnsetInputs(dir, COUNT);
  }, 120_000);
  afterAll(() => cleanup());

  it.each<OutputFormat>(['mp3', 'm4b', 'opus', 'ogg', 'flac', 'wav'])(
    'within 5 ms (30 are promised) at every one of 60 mixed inputs, in %s, as ffprobe and music-metadata read them',
    async (format) => {
      const out = path.join(dir, `sixty.${format}`);
      const report = await mergeFiles(inputs, out, { tools, concurrency: 2 });
      const onsets = findOnsets(await decodePcm(out));
      expect(onsets).toHaveLength(COUNT);
      expect(report.chapters).toHaveLength(COUNT);
      // docs/reference/command-line.md promises 30 ms; the counted starts land within a few (worst seen 3.1 ms, M4B), so
      // 5 ms is asserted: an encoder delay or priming left out (23-25 ms) must fail here.
      const worst = Math.max(...report.chapters.map((c, i) => Math.abs(c.start - onsets[i])));
      expect(worst).toBeLessThanOrEqual(0.005);
      // Every input carries a distinct title tag: those are the titles.
      expect(report.chapters.map((c) => c.title)).toEqual(inputs.map((_, i) => `Part ${i + 1}`));
      expect(report.chapters.every((c, i) => i === 0 || c.start === report.chapters[i - 1].end)).toBe(true);
      if (format === 'wav') return; // WAV carries no chapters; the report still says where inputs start
      const probed = await ffprobeChapters(out);
      expect(probed.map((c) => c.title)).toEqual(report.chapters.map((c) => c.title));
      probed.forEach((c, i) =>
        expect(Math.abs(c.start - report.chapters[i].start)).toBeLessThanOrEqual(0.0011),
      );
      const mm = await parseFile(out, { includeChapters: true });
      if (format === 'mp3' || format === 'm4b') {
        const chapters = mm.format.chapters ?? [];
        expect(chapters.map((c) => c.title)).toEqual(report.chapters.map((c) => c.title));
        // music-metadata gives MP4 starts in its timescale, ID3 ones in seconds.
        chapters.forEach((c, i) =>
          expect(
            Math.abs((c.timeScale ? c.start / c.timeScale : c.start) - report.chapters[i].start),
          ).toBeLessThanOrEqual(0.0011),
        );
      } else {
        const comments = new Map(
          Object.values(mm.native)
            .flat()
            .map((t) => [t.id.toUpperCase(), String(t.value)]),
        );
        report.chapters.forEach((c, i) => {
          const key = `CHAPTER${String(i + 1).padStart(3, '0')}`;
          expect(comments.get(key)).toBe(vorbisTime(c.start));
          expect(comments.get(`${key}NAME`)).toBe(c.title);
        });
      }
    },
    120_000,
  );

  it("groups 300 MP3 inputs two to a chapter (a CTOC holds at most 255), each within 5 ms of its first input's real start", async () => {
    const one = await makeOnsetInput(path.join(dir, 'short.mp3'), ONSET_KINDS[0], 0.4, 500);
    const many = Array.from({ length: 300 }, (_, i) =>
      path.join(dir, `short-${String(i).padStart(3, '0')}.mp3`),
    );
    for (const f of many) await copyFile(one, f);
    const out = path.join(dir, 'three-hundred.mp3');
    const report = await mergeFiles(many, out, { tools });
    expect(report.transcoded).toEqual([]);
    const onsets = findOnsets(await decodePcm(out));
    expect(onsets).toHaveLength(300);
    expect(report.chapters).toHaveLength(150);
    report.chapters.forEach((c, k) => {
      expect(c.title).toBe(`short-${String(2 * k).padStart(3, '0')}`);
      expect(Math.abs(c.start - onsets[2 * k])).toBeLessThanOrEqual(0.005);
    });
    expect((await ffprobeChapters(out)).length).toBe(150);
  }, 60_000);
});
