import { describe, expect, it } from 'vitest';
import { defaultBookTitle, tagsFor } from './tags-plan.js';

const all = {
  title: 'The Book',
  artist: 'An Author',
  albumArtist: 'An Author',
  album: 'The Series',
  narrator: 'A Reader',
  genre: 'Audiobook',
  year: '2024',
  description: 'First line\nSecond line',
  comment: 'Ripped with care',
};

describe('the details each format holds', () => {
  it('are every detail in MP3 and MP4, by the names ffprobe reads', () => {
    for (const f of ['mp3', 'm4b', 'm4a'] as const)
      expect(tagsFor(f, all)).toEqual({
        title: 'The Book',
        artist: 'An Author',
        album_artist: 'An Author',
        album: 'The Series',
        composer: 'A Reader',
        genre: 'Audiobook',
        date: '2024',
        description: 'First line\nSecond line',
        comment: 'Ripped with care',
      });
  });

  it('put the description into the comment where the format has no description', () => {
    const vorbis = tagsFor('flac', all);
    expect(vorbis.description).toBeUndefined();
    expect(vorbis.comment).toBe('First line\nSecond line\n\nRipped with care');
    expect(tagsFor('opus', { description: 'Only this' }).comment).toBe('Only this');
  });

  it('leave out what WAV has no field for, and empty values everywhere', () => {
    const wav = tagsFor('wav', { ...all, genre: '  ' });
    expect(wav).not.toHaveProperty('album_artist');
    expect(wav).not.toHaveProperty('composer');
    expect(wav).not.toHaveProperty('genre');
    expect(wav.title).toBe('The Book');
  });
});

describe("the book's default title", () => {
  it('is the album the inputs share, else the first title', () => {
    expect(defaultBookTitle(['My Book', 'My Book '], 'Opening credits')).toBe('My Book');
    expect(defaultBookTitle(['My Book', undefined], 'Opening credits')).toBe('Opening credits');
    expect(defaultBookTitle(['One', 'Two'], 'Opening credits')).toBe('Opening credits');
  });
});
