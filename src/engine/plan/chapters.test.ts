import { describe, expect, it } from 'vitest';
import {
  chapterTitles,
  chaptersFromStarts,
  fileTitle,
  vorbisChapterComments,
  vorbisTime,
} from './chapters.js';

describe('chapters', () => {
  it('are titled by the tags when every input has a distinct one, else by file names', () => {
    const names = ['/a/01 Intro.mp3', 'b/Two.flac', 'three'];
    expect(chapterTitles(names, ['Intro', 'Second', 'Third'])).toEqual(['Intro', 'Second', 'Third']);
    expect(chapterTitles(names, ['Intro', '', 'Third'])).toEqual(['01 Intro', 'Two', 'three']);
    expect(chapterTitles(names, ['Same', 'Same', 'Other'])).toEqual(['01 Intro', 'Two', 'three']);
    expect(chapterTitles(names, ['Intro', 'Second', 'Third'], 'files')).toEqual(['01 Intro', 'Two', 'three']);
    expect(chapterTitles(names, ['Same', undefined, 'Same'], 'tags')).toEqual(['Same', 'Two', 'Same']);
    expect(fileTitle('.hidden')).toBe('.hidden');
  });

  it('start where each input starts and end where the next begins, the last at the total', () => {
    expect(chaptersFromStarts(['a', 'b', 'c'], [0, 1.5, 2.25], 4, 255)).toEqual([
      { title: 'a', start: 0, end: 1.5 },
      { title: 'b', start: 1.5, end: 2.25 },
      { title: 'c', start: 2.25, end: 4 },
    ]);
  });

  it("group consecutive inputs evenly above the format's limit, each group starting at its first input", () => {
    const n = 300;
    const starts = Array.from({ length: n }, (_, i) => i * 2);
    const titles = starts.map((_, i) => `t${i}`);
    const grouped = chaptersFromStarts(titles, starts, n * 2, 255);
    expect(grouped).toHaveLength(150);
    expect(grouped[1]).toEqual({ title: 't2', start: 4, end: 8 });
    expect(grouped.at(-1)).toEqual({ title: 't298', start: 596, end: 600 });
    expect(chaptersFromStarts(titles.slice(0, 255), starts.slice(0, 255), 510, 255)).toHaveLength(255);
  });

  it('spell Vorbis chapter times as HH:MM:SS.mmm, numbered from 001', () => {
    expect(vorbisTime(0)).toBe('00:00:00.000');
    expect(vorbisTime(3723.4567)).toBe('01:02:03.457');
    expect(vorbisTime(59.9996)).toBe('00:01:00.000');
    expect(vorbisChapterComments([{ title: 'One', start: 2.624, end: 5 }])).toEqual([
      ['CHAPTER001', '00:00:02.624'],
      ['CHAPTER001NAME', 'One'],
    ]);
  });
});
