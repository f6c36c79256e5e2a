import { describe, expect, it } from 'vitest';
import {
  bookOptionsOf,
  carriesChapters,
  initialBookChoice,
  makeLabelFor,
  qualitiesFor,
  restoreChoices,
} from './book-choice.js';
import { initialSoundChoice } from '../components/sound-choice.js';

describe("the book's choices", () => {
  it('names the chosen format in a make label that holds {format}, and leaves any other label as it is', () => {
    expect(makeLabelFor('Make {format}', 'm4b')).toBe('Make M4B');
    expect(makeLabelFor('Make {format}', 'opus')).toBe('Make Opus');
    expect(makeLabelFor('Merge', 'flac')).toBe('Merge');
  });

  it('asks for no chapters, and offers no chapters switch, where the format carries none', () => {
    expect(carriesChapters('wav')).toBe(false);
    expect(carriesChapters('flac')).toBe(true);
    expect(bookOptionsOf({ ...initialBookChoice('wav'), chapters: true })).toMatchObject({ chapters: false });
  });

  it('offers qualities for lossy formats only, and sends the bit rate and channels of the one chosen', () => {
    expect(qualitiesFor('flac')).toEqual([]);
    expect(qualitiesFor('m4b')).toContain('speechSmall');
    expect(bookOptionsOf({ ...initialBookChoice('m4b'), quality: 'speechSmall' })).toEqual({
      format: 'm4b',
      chapters: true,
      bitrate: 64,
      channels: 1,
    });
    expect(bookOptionsOf({ ...initialBookChoice('wav'), quality: 'high' })).toEqual({
      format: 'wav',
      chapters: false,
    });
  });

  it('sends only the details that are set, trimmed (a description as typed)', () => {
    const options = bookOptionsOf({
      ...initialBookChoice('mp3'),
      details: { title: '  The Book ', artist: '', description: 'Line one\nline two' },
    });
    expect(options).toEqual({
      format: 'mp3',
      chapters: true,
      title: 'The Book',
      description: 'Line one\nline two',
    });
  });

  it('reads saved choices back as they were set, sound included; what does not fit is left out', () => {
    const book = {
      ...initialBookChoice('m4b'),
      quality: 'high' as const,
      details: { title: 'T', narrator: 'N' },
    };
    const saved = { ...bookOptionsOf(book), loudness: -19, crossfade: 2, gapless: true };
    const back = restoreChoices(saved, ['mp3', 'm4b']);
    expect(back.book).toEqual(book);
    expect(back.sound).toEqual({
      ...initialSoundChoice,
      loudness: true,
      target: -19,
      between: 'crossfade',
      seconds: '2',
      gapless: true,
    });
    // A format the page no longer offers falls back to its first; the rest is kept.
    expect(restoreChoices({ format: 'flac', chapters: false }, ['mp3', 'm4b']).book).toEqual({
      ...initialBookChoice('mp3'),
      chapters: false,
    });
    expect(restoreChoices({}, ['opus']).book).toEqual(initialBookChoice('opus'));
  });
});
