import { describe, expect, it } from 'vitest';
import {
  bookEnvelope,
  chaptersAtSilences,
  placeInSilence,
  silenceRuns,
  splitPoint,
  type Envelope,
  type SilenceChapterJob,
} from './silence-chapters.js';

/** An envelope of 10 ms bins: loud (0.5) everywhere but the given silent spans (seconds). */
function envelope(seconds: number, silent: [number, number][], binSeconds = 0.01): Envelope {
  const peaks = new Uint16Array(Math.round(seconds / binSeconds)).fill(32768);
  for (const [a, b] of silent)
    for (let k = Math.round(a / binSeconds); k < Math.round(b / binSeconds); k++) peaks[k] = 30;
  return { binSeconds, peaks };
}

const job = (over: Partial<SilenceChapterJob>): SilenceChapterJob => ({
  mode: 'silences',
  silences: [],
  pauses: [],
  inputs: [{ start: 0, title: 'Book' }],
  fileChapters: [],
  total: 100,
  limit: 255,
  ...over,
});

describe('the book envelope and its silences', () => {
  it('finds a silence inside an input and one made of two inputs with a gap between them', () => {
    const a = envelope(10, [
      [4, 7],
      [9, 10],
    ]);
    const b = envelope(10, [[0, 0.5]]);
    const amps = bookEnvelope(
      [
        { envelope: a, from: 0, to: 10, at: 0 },
        { envelope: b, from: 0, to: 10, at: 11 },
      ],
      21,
    );
    expect(silenceRuns(amps, 2, -45, 21)).toEqual([
      { start: 4, end: 7 },
      { start: 9, end: 11.5 },
    ]);
    // Shorter runs count only when the minimum allows them.
    expect(silenceRuns(amps, 3, -45, 21)).toEqual([{ start: 4, end: 7 }]);
  });

  it('lays a trimmed input where it plays and applies its gain before the level is judged', () => {
    // Quiet (-50 dBFS) from 2 to 5 s of the input; trimmed to 1..6, placed at 10 s.
    const peaks = new Uint16Array(600).fill(32768);
    for (let k = 200; k < 500; k++) peaks[k] = Math.round(65535 * 10 ** (-50 / 20));
    const e: Envelope = { binSeconds: 0.01, peaks };
    const plain = bookEnvelope([{ envelope: e, from: 1, to: 6, at: 10 }], 15);
    expect(silenceRuns(plain, 2, -45, 15)).toEqual([
      { start: 0, end: 10 },
      { start: 11, end: 14 },
    ]);
    const louder = bookEnvelope([{ envelope: e, from: 1, to: 6, at: 10, gainDb: 10 }], 15);
    expect(silenceRuns(louder, 2, -45, 15)).toEqual([{ start: 0, end: 10 }]);
  });

  it('maps bins of another length (an odd sample rate) without calling sound silent', () => {
    const e = envelope(6, [[2, 5]], 0.0125);
    const amps = bookEnvelope([{ envelope: e, from: 0, to: 6, at: 0.003 }], 6.003);
    const [run] = silenceRuns(amps, 2, -45, 6.003);
    expect(run.start).toBeGreaterThanOrEqual(2.003);
    expect(run.end).toBeLessThanOrEqual(5.003);
    expect(run.end - run.start).toBeGreaterThan(2.95);
  });
});

describe('chapters at silences', () => {
  it('places each inside its silence, half a second before the sound, a short one in its middle', () => {
    expect(placeInSilence({ start: 10, end: 14 })).toBe(13.5);
    expect(placeInSilence({ start: 10, end: 10.4 })).toBe(10.2);
  });

  it('starts the book with the first input and numbers the found ones by place', () => {
    const chapters = chaptersAtSilences(
      job({
        silences: [
          { start: 20, end: 23 },
          { start: 50, end: 54 },
          { start: 97, end: 100 }, // the end: no sound follows
        ],
      }),
    );
    expect(chapters).toEqual([
      { title: 'Book', start: 0, end: 22.5 },
      { title: 'Chapter 2', start: 22.5, end: 53.5 },
      { title: 'Chapter 3', start: 53.5, end: 100 },
    ]);
  });

  it('a silence an input starts in gives that input its chapter, at its start when within a second of the sound', () => {
    const inputs = [
      { start: 0, title: 'One' },
      { start: 40.6, title: 'Two' }, // 0.4 s before its sound at 41
      { start: 70, title: 'Three' }, // no silence here: a track cut mid-sentence
    ];
    const silences = [
      { start: 38, end: 41 },
      { start: 60, end: 63 },
    ];
    const chapters = chaptersAtSilences(job({ inputs, silences }));
    expect(chapters.map((c) => [c.title, c.start])).toEqual([
      ['One', 0],
      ['Two', 40.6],
      ['Chapter 3', 62.5],
    ]);
  });

  it('with both, keeps the inputs chapters and adds the silences that hold no input start', () => {
    const inputs = [
      { start: 0, title: 'One' },
      { start: 40, title: 'Two' },
    ];
    const fileChapters = [
      { title: 'One', start: 0, end: 40 },
      { title: 'Two', start: 40, end: 100 },
    ];
    const silences = [
      { start: 38, end: 41 },
      { start: 60, end: 63 },
    ];
    const chapters = chaptersAtSilences(job({ mode: 'both', inputs, fileChapters, silences }));
    expect(chapters.map((c) => [c.title, c.start])).toEqual([
      ['One', 0],
      ['Two', 40],
      ['Chapter 3', 62.5],
    ]);
  });

  it('drops a found chapter closer than --chapter-min to the one before', () => {
    const silences = [
      { start: 5, end: 8 },
      { start: 20, end: 23 },
      { start: 30, end: 32 },
    ];
    const chapters = chaptersAtSilences(job({ silences, min: 10 }));
    expect(chapters.map((c) => c.start)).toEqual([0, 22.5]);
  });

  it('splits a chapter longer than --chapter-max in the longest pause near its middle, again until none is', () => {
    const pauses = [
      { start: 30, end: 30.4 },
      { start: 44, end: 44.5 }, // the longest in the middle half of 0..100
      { start: 52, end: 52.3 },
      { start: 80, end: 81 },
    ];
    const chapters = chaptersAtSilences(job({ pauses, max: 60 }));
    expect(chapters.map((c) => [c.title, c.start])).toEqual([
      ['Book', 0],
      ['Chapter 2', 44.25],
    ]);
    const finer = chaptersAtSilences(job({ pauses, max: 40 }));
    expect(finer.map((c) => c.start)).toEqual([0, 30.2, 44.25, 80.5]);
    expect(finer.every((c) => c.end - c.start <= 40)).toBe(true);
  });

  it('splits at --chapter-max itself where a stretch holds no pause', () => {
    const chapters = chaptersAtSilences(job({ max: 30 }));
    expect(chapters.map((c) => c.start)).toEqual([0, 30, 60, 90]);
    expect(splitPoint(0, 100, [])).toBeUndefined();
  });

  it('keeps within the format limit by dropping the chapters found in the shortest silences', () => {
    const silences = [
      { start: 10, end: 15 },
      { start: 30, end: 32 },
      { start: 50, end: 54 },
    ];
    const chapters = chaptersAtSilences(job({ silences, limit: 3 }));
    expect(chapters.map((c) => c.start)).toEqual([0, 14.5, 53.5]);
    expect(chapters.map((c) => c.title)).toEqual(['Book', 'Chapter 2', 'Chapter 3']);
  });
});
