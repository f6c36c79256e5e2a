import { describe, expect, it } from 'vitest';
import { cutInside, partChapters, partPath, planParts } from './parts.js';

const ch = (starts: number[], total: number) =>
  starts.map((start, k) => ({
    title: `C${k + 1}`,
    start,
    end: k + 1 < starts.length ? starts[k + 1] : total,
  }));

describe('a book in parts', () => {
  it('makes one part per chapter', () => {
    expect(planParts(ch([0, 10, 25], 40), 40, 'chapters')).toEqual([
      { start: 0, end: 10 },
      { start: 10, end: 25 },
      { start: 25, end: 40 },
    ]);
    expect(planParts([], 40, 'chapters')).toEqual([{ start: 0, end: 40 }]);
  });

  it('puts as many whole chapters in a part as fit', () => {
    expect(planParts(ch([0, 10, 25, 30, 55], 70), 70, 30)).toEqual([
      { start: 0, end: 30 },
      { start: 30, end: 55 },
      { start: 55, end: 70 },
    ]);
  });

  it('cuts a chapter longer than a part in a silence of its last tenth before the limit, else at the limit', () => {
    const silences = [
      { start: 50, end: 52 },
      { start: 95, end: 96 },
      { start: 97, end: 99.5 }, // the longest in 95..105 (the part starts at 5): cut at its middle
    ];
    const parts = planParts(ch([0, 5], 200), 200, 100, silences);
    expect(parts).toEqual([
      { start: 0, end: 5 },
      { start: 5, end: 98.25 },
      { start: 98.25, end: 198.25 },
      { start: 198.25, end: 200 },
    ]);
    expect(cutInside(0, 100, [{ start: 50, end: 52 }])).toBe(100);
  });

  it('gives each part its chapters counted from its start, one it starts inside at 0', () => {
    const chapters = ch([0, 10, 40], 60);
    expect(partChapters(chapters, { start: 30, end: 60 })).toEqual([
      { title: 'C2', start: 0, end: 10 },
      { title: 'C3', start: 10, end: 30 },
    ]);
  });

  it('names the parts before the extension, with at least two digits', () => {
    expect(partPath('/b/book.m4b', 0, 3)).toBe('/b/book-01.m4b');
    expect(partPath('/b/book.m4b', 99, 120)).toBe('/b/book-100.m4b');
    expect(partPath('book.mp3', 4, 120)).toBe('book-005.mp3');
  });
});
