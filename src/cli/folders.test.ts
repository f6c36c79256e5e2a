import { describe, expect, it } from 'vitest';
import { audioFilesOf, expandFolders, naturalCompare, type FolderReader } from './folders.js';

describe('natural order', () => {
  it('puts 2 before 10 and ignores case, ties broken the same way every time', () => {
    const names = [
      'Track 10.mp3',
      'track 2.mp3',
      'Track 1.mp3',
      'track 01.mp3',
      'Intro.mp3',
      'b.mp3',
      'a10b2.mp3',
      'a10b10.mp3',
    ];
    expect([...names].sort(naturalCompare)).toEqual([
      'a10b2.mp3',
      'a10b10.mp3',
      'b.mp3',
      'Intro.mp3',
      'Track 1.mp3',
      'track 01.mp3',
      'track 2.mp3',
      'Track 10.mp3',
    ]);
    expect([...names].reverse().sort(naturalCompare)).toEqual([...names].sort(naturalCompare));
  });
});

describe('a folder as input', () => {
  it('keeps the audio files by extension (any case), skipping others and hidden files', () => {
    expect(
      audioFilesOf([
        'cover.jpg',
        '10.FLAC',
        '2.mp3',
        'notes.txt',
        '.3.mp3',
        'list.m3u',
        '1.m4b',
        'x.opus.part',
      ]),
    ).toEqual(['1.m4b', '2.mp3', '10.FLAC']);
  });

  const reader = (tree: Record<string, string[] | 'unreadable'>): FolderReader => ({
    isFolder: (p) => p in tree,
    filesIn: (p) => {
      const entry = tree[p];
      if (entry === 'unreadable') throw Object.assign(new Error('denied'), { code: 'EACCES' });
      return entry;
    },
    same: (a, b) => a === b,
  });

  it('stands for its audio files in place, between the other inputs, leaving the output out', () => {
    const fs = reader({ book: ['10.mp3', '9.mp3', 'all.mp3', 'cover.png'], 'more/': ['b.wav', 'a.wav'] });
    expect(expandFolders(['intro.mp3', 'book', 'more/', 'outro.mp3'], 'book/all.mp3', fs)).toEqual({
      ok: true,
      inputs: ['intro.mp3', 'book/9.mp3', 'book/10.mp3', 'more/a.wav', 'more/b.wav', 'outro.mp3'],
    });
  });

  it('refuses a folder with no audio files, or one it cannot read, naming it', () => {
    const fs = reader({ pics: ['a.jpg'], locked: 'unreadable' });
    expect(expandFolders(['a.mp3', 'pics'], 'out.mp3', fs)).toMatchObject({
      ok: false,
      input: 'pics',
      reason: expect.stringMatching(/^a folder with no audio files/),
    });
    expect(expandFolders(['locked'], 'out.mp3', fs)).toEqual({
      ok: false,
      input: 'locked',
      reason: 'cannot read the folder (EACCES)',
    });
  });
});
