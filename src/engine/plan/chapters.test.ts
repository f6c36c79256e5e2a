import { describe, expect, it } from 'vitest';
import {
  chapterTitles,
  chaptersFromList,
  chaptersWithOwn,
  ownChaptersFrom,
  chaptersFromStarts,
  defaultChapterTitle,
  fileTitle,
  vorbisChapterComments,
  vorbisTime,
} from './chapters.js';

describe('chapters', () => {
  it('are titled per input: its title tag, else its file name; files forces file names', () => {
    const names = ['/a/01 Intro.mp3', 'b/Two.flac', 'three'];
    expect(chapterTitles(names, ['Intro', 'Second', 'Third'])).toEqual(['Intro', 'Second', 'Third']);
    // One input without a title no longer turns every title into a file name.
    expect(chapterTitles(names, ['Intro', '', 'Third'])).toEqual(['Intro', 'Two', 'Third']);
    expect(chapterTitles(names, ['Same', 'Same', 'Other'])).toEqual(['Same', 'Same', 'Other']);
    expect(chapterTitles(names, ['Intro', 'Second', 'Third'], 'files')).toEqual(['01 Intro', 'Two', 'three']);
    expect(chapterTitles(names, ['Same', undefined, '  '], 'tags')).toEqual(['Same', 'Two', 'three']);
    expect(fileTitle('.hidden')).toBe('.hidden');
    // One input's title alone, as the page shows it before a merge.
    expect([
      defaultChapterTitle('01 Intro.mp3', ' Opening '),
      defaultChapterTitle('01 Intro.mp3', null),
    ]).toEqual(['Opening', '01 Intro']);
  });

  it('take a title tag as one line, without control or bidirectional characters', () => {
    expect(defaultChapterTitle('a.mp3', 'Part\r\nTwo\tof\u0007 Three')).toBe('Part Two of Three');
    expect(defaultChapterTitle('a.mp3', '\u202eevil\u2066 \u001b[31mred\u2069')).toBe('evil [31mred');
    expect(chapterTitles(['a.mp3'], ['\u0007\u202e\n'])).toEqual(['a']);
    expect(defaultChapterTitle('a.mp3', 'الفصل \u200f1')).toBe('الفصل \u200f1');
    // At most 500 characters (code points, as a title a person gives); never half of a character.
    expect(defaultChapterTitle('a.mp3', 'x'.repeat(600))).toBe('x'.repeat(500));
    expect(defaultChapterTitle('a.mp3', `${'x'.repeat(499)}\u{1F3B5}`)).toBe(`${'x'.repeat(499)}\u{1F3B5}`);
    expect(defaultChapterTitle('a.mp3', '\u{1F3B5}'.repeat(501))).toBe('\u{1F3B5}'.repeat(500));
  });

  it('take the title given for an input over the rule, an empty or null one leaving the rule', () => {
    const names = ['a.mp3', 'b.mp3', 'c.mp3'];
    expect(chapterTitles(names, ['A', 'B', undefined], undefined, ['Prologue', null, ' '])).toEqual([
      'Prologue',
      'B',
      'c',
    ]);
    expect(chapterTitles(names, ['A', 'B', 'C'], 'files', [undefined, 'Two'])).toEqual(['a', 'Two', 'c']);
  });

  it("keep an input's own chapters, moved to where it starts, and one chapter for the others", () => {
    const made = chaptersWithOwn(
      ['Intro', 'Book', 'Outro'],
      [
        undefined,
        [
          { start: 0, title: 'One' },
          { start: 10, title: 'Two' },
          { start: 20, title: '' },
          { start: 31, title: 'Past its end' },
        ],
        [],
      ],
      { starts: [0, 5, 35], lengths: [5, 30, 4], total: 39 },
      255,
    );
    expect(made).toEqual([
      { title: 'Intro', start: 0, end: 5 },
      { title: 'One', start: 5, end: 15 },
      { title: 'Two', start: 15, end: 25 },
      { title: 'Book 3', start: 25, end: 35 },
      { title: 'Outro', start: 35, end: 39 },
    ]);
  });

  it("make an input's own titles one readable line and leave out own chapters that last no time", () => {
    const made = chaptersWithOwn(
      ['Book'],
      [
        [
          { start: 0, title: 'Bad\u0001 one\u202e' },
          { start: 1, title: 'x'.repeat(20_000) },
          { start: 2, title: 'Empty' },
          { start: 2.0005, title: 'Two' },
          { start: 3, title: '\u0007' },
        ],
      ],
      { starts: [0], lengths: [4], total: 4 },
      255,
    );
    expect(made).toEqual([
      { title: 'Bad one', start: 0, end: 1 },
      { title: 'x'.repeat(500), start: 1, end: 2.0005 },
      { title: 'Two', start: 2.0005, end: 3 },
      { title: 'Book 4', start: 3, end: 4 },
    ]);
  });

  it("seen from a trim's start: the chapter it falls inside and those after, whatever ends the file claims", () => {
    const own = [
      { start: 0, end: 10, title: 'One' },
      { start: 5, end: 1, title: 'Ends before it starts' },
      { start: 8, end: 0, title: 'Ends at zero' },
    ];
    expect(ownChaptersFrom(own, 6).map((c) => [c.title, c.start])).toEqual([
      ['Ends before it starts', -1],
      ['Ends at zero', 2],
    ]);
    expect(ownChaptersFrom(own, 0).map((c) => c.title)).toEqual([
      'One',
      'Ends before it starts',
      'Ends at zero',
    ]);
  });

  it("fall back to one chapter per input when the inputs' own would pass the limit", () => {
    const own = Array.from({ length: 4 }, (_, k) => ({ start: k, title: `c${k}` }));
    const made = chaptersWithOwn(['a', 'b'], [own, own], { starts: [0, 4], lengths: [4, 4], total: 8 }, 5);
    expect(made.map((c) => c.title)).toEqual(['a', 'b']);
  });

  it('take a given list as it is, ending each where the next begins, refusing a start past the end', () => {
    const list = [
      { start: 0, title: 'Opening' },
      { start: 62, title: 'Part Two' },
    ];
    expect(chaptersFromList(list, 100)).toEqual([
      { title: 'Opening', start: 0, end: 62 },
      { title: 'Part Two', start: 62, end: 100 },
    ]);
    expect(chaptersFromList(list, 62)).toEqual({ pastEnd: 1 });
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
