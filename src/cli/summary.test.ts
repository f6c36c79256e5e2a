import { describe, expect, it } from 'vitest';
import { byteSize, clockTime, summaryLine } from './summary.js';
import { nearestOption } from './suggest.js';
import { OPTION_NAMES } from './args.js';

describe('the line a finished job prints', () => {
  it('names the output, its length, its size and its chapter count', () => {
    const report = { output: '/b/book.m4b', durationSeconds: 3723.4, bytes: 45_200_000, chapters: [{}, {}] };
    expect(summaryLine(report as never)).toBe('audio-merge: wrote /b/book.m4b: 1:02:03, 45.2 MB, 2 chapters');
  });

  it('names the first and last part, and how many, for an output in parts', () => {
    const report = {
      output: 'book.mp3',
      durationSeconds: 59.6,
      bytes: 1,
      chapters: [{}],
      parts: [
        { output: 'book-01.mp3', bytes: 600 },
        { output: 'book-02.mp3' },
        { output: 'book-03.mp3', bytes: 500 },
      ],
    };
    expect(summaryLine(report as never, (f) => `./${f}`)).toBe(
      'audio-merge: wrote ./book-01.mp3 ... ./book-03.mp3 (3 parts): 1:00, 1 KB, 1 chapter',
    );
  });

  it.each([
    [0, '0:00'],
    [59.5, '1:00'],
    [3599.4, '59:59'],
    [36000, '10:00:00'],
  ])('%s s reads %s', (s, text) => expect(clockTime(s)).toBe(text));

  it.each([
    [999, '999 B'],
    [812_400, '812 KB'],
    [4_700_000, '4.7 MB'],
    [450_000_000, '450 MB'],
    [1_200_000_000, '1.20 GB'],
  ])('%s bytes read %s', (b, text) => expect(byteSize(b)).toBe(text));
});

describe('the option meant', () => {
  it.each([
    ['--loudnes', '--loudness'],
    ['--loudness=-16x', '--loudness'],
    ['--gpa', '--gap'],
    ['--trimsilence', '--trim-silence'],
    ['--samplerate', '--sample-rate'],
    ['--cov', '--cover'],
    ['--co', undefined],
    ['--xyz', undefined],
    ['--help-me-please', undefined],
  ])('%s: %s', (typed, meant) => expect(nearestOption(typed, OPTION_NAMES)).toBe(meant));
});
