import { describe, expect, it } from 'vitest';
import type { MergeReport } from '../engine/index.js';
import { summaryLine } from './summary.js';

const report = (over: Partial<MergeReport>): MergeReport => ({
  output: '/b/book.m4b',
  format: 'm4b',
  durationSeconds: 3725.4,
  inputs: 3,
  transcoded: [],
  chapters: [
    { title: 'One', start: 0, end: 2000 },
    { title: 'Two', start: 2000, end: 3725.4 },
  ],
  bytes: 5_000_000,
  sampleRate: 44100,
  channels: 2,
  tags: {},
  cover: false,
  fallbacks: [],
  ...over,
});

describe('the line a finished run prints', () => {
  it('names the output, its length, size and chapter count', () => {
    expect(summaryLine(report({}))).toBe('audio-merge: wrote /b/book.m4b (1:02:05, 4.8 MB, 2 chapters)');
  });

  it('names the parts when the book was split', () => {
    const part = (k: number) => ({
      output: `/b/book-0${k}.m4b`,
      start: 0,
      end: 1,
      durationSeconds: 1,
      chapters: [],
      bytes: 1,
    });
    expect(summaryLine(report({ parts: [part(1), part(2)] }))).toBe(
      'audio-merge: wrote 2 parts, /b/book-01.m4b to /b/book-02.m4b (1:02:05, 4.8 MB, 2 chapters)',
    );
  });
});

describe('the summary line names files as the person reads them', () => {
  it('takes a way to show each path (relative to where they are)', () => {
    const shown = (f: string) => f.replace('/b/', '');
    expect(summaryLine(report({}), shown)).toMatch(/^audio-merge: wrote book\.m4b \(/);
  });
});
