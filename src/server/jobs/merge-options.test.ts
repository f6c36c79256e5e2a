import { describe, expect, it } from 'vitest';
import { checkMergeOptions, engineOptions } from './merge-options.js';

describe('mergemp3 options', () => {
  it('takes none as an MP3 exactly as before', () => {
    expect(checkMergeOptions(undefined)).toEqual({ ok: true, options: {} });
    expect(engineOptions({})).toMatchObject({ format: 'mp3', chapters: undefined });
  });

  it('takes every documented option with a valid value', () => {
    const all = {
      format: 'm4b',
      bitrate: 96,
      chapters: false,
      chapterTitles: 'files',
      title: 'T',
      artist: 'A',
      albumArtist: 'AA',
      album: 'B',
      narrator: 'N',
      genre: 'Audiobook',
      year: '2024',
      description: 'Two lines,\n\tthe second indented.',
      comment: 'C',
      channels: 1,
      sampleRate: 22050,
      inputChapters: 'flatten',
      cover: false,
      loudness: -16,
      gap: 0.5,
      crossfade: 0,
      trimSilence: true,
      gapless: false,
    };
    expect(checkMergeOptions(all)).toEqual({ ok: true, options: all });
    expect(checkMergeOptions({ loudness: null })).toMatchObject({ ok: true });
    expect(
      engineOptions({
        format: 'flac',
        bitrate: 96,
        title: 'T',
        narrator: 'N',
        year: '2024',
        channels: 1,
        sampleRate: 16000,
        inputChapters: 'flatten',
      }),
    ).toMatchObject({
      format: 'flac',
      bitRateKbps: 96,
      title: 'T',
      narrator: 'N',
      year: '2024',
      channels: 1,
      sampleRate: 16000,
      inputChapters: 'flatten',
    });
  });

  it('hands the sound options to the engine (a null loudness is off)', () => {
    expect(engineOptions({ loudness: -16, gap: 0.5, trimSilence: true, gapless: true })).toMatchObject({
      loudness: -16,
      gap: 0.5,
      trimSilence: true,
      gapless: true,
    });
    expect(engineOptions({ loudness: null, crossfade: 2 })).toMatchObject({
      loudness: undefined,
      crossfade: 2,
    });
  });

  it.each([
    [{ format: 'aiff' }, /Option "format" must be one of/],
    [{ bitrate: 96.5 }, /Option "bitrate" must be a whole number/],
    [{ bitrate: 1000 }, /Option "bitrate"/],
    [{ chapters: 'yes' }, /Option "chapters" must be true or false/],
    [{ chapterTitles: 'names' }, /Option "chapterTitles"/],
    [{ title: 5 }, /Option "title" must be text/],
    [{ loudness: 3 }, /Option "loudness"/],
    [{ narrator: 'A\nB' }, /Option "narrator" must be one line/],
    [{ title: 'gpj\u202e.exe' }, /Option "title" must be one line without control or bidirectional control/],
    [{ artist: '\u{1F3B5}'.repeat(501) }, /Option "artist" must be text of at most 500 characters/],
    [
      { description: 'bell\u0007' },
      /Option "description" must not hold control or bidirectional control characters/,
    ],
    [{ channels: 6 }, /Option "channels" must be 1 or 2/],
    [{ sampleRate: 4000 }, /Option "sampleRate" must be a whole number of Hz/],
    [{ inputChapters: 'merge' }, /Option "inputChapters"/],
    [{ cover: 'yes' }, /Option "cover" must be true or false/],
    [{ constructor: 1 }, /Unknown option "constructor"/],
    [{ volume: 3 }, /Unknown option "volume"/],
    [{ gap: 1, crossfade: 1 }, /"gap" and "crossfade" cannot be used together/],
    [[1], /"options" must be an object/],
  ])('refuses %j, naming the option', (raw, message) => {
    const r = checkMergeOptions(raw);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.message).toMatch(message);
  });
});

describe('mergemp3 chapter-finding options', () => {
  it('takes them by the command line rules and hands them to the engine', () => {
    const finding = {
      chaptersAt: 'silences',
      silenceMin: 2.5,
      silenceDb: -50,
      chapterMin: 60,
      chapterMax: 1800,
    };
    const checked = checkMergeOptions(finding);
    expect(checked).toEqual({ ok: true, options: finding });
    expect(engineOptions(checked.ok ? checked.options : {})).toMatchObject(finding);
  });

  it.each([
    [{ chaptersAt: 'pauses' }, 'Option "chaptersAt" must be one of files, silences, both'],
    [{ silenceMin: 0 }, 'Option "silenceMin" must be a number of seconds from 0.1 to 30'],
    [{ silenceDb: -5 }, 'Option "silenceDb" must be a level in dBFS from -90 to -10'],
    [{ chapterMax: '60' }, 'Option "chapterMax" must be'],
    [{ split: 'chapters' }, 'Unknown option "split"'],
  ])('refuses %j naming it', (raw, said) => {
    const checked = checkMergeOptions(raw);
    expect(checked.ok).toBe(false);
    expect(checked.ok ? '' : checked.message).toContain(said);
  });
});
