import { describe, expect, it } from 'vitest';
import {
  AbortError,
  FormatChangeError,
  FreeFormatError,
  INPUT_ERROR_CODES,
  InputError,
  Mp4Error,
  OutputError,
  ToolError,
  type InputErrorCode,
} from '../../engine/index.js';
import { ERRORS } from '../errors.js';
import { asJobFailure, inputFailure } from './job-errors.js';
import {
  describedDownloadName,
  downloadName,
  inputFailureMessage,
  SHUTDOWN_MESSAGE,
  waitingText,
} from './job-messages.js';

describe('job messages', () => {
  // One sentence per kind, whatever words the engine used (its reasons are the command line's).
  const SENTENCES: Record<InputErrorCode, string> = {
    empty: 'notes.txt is empty',
    unreadable: 'notes.txt cannot be read',
    'not-audio': 'notes.txt is not usable audio',
    'bad-rate': 'notes.txt claims a sample rate no real audio has (below 1,000 or above 768,000 Hz)',
    'bad-mp3': 'notes.txt is a damaged MP3 file',
    'free-format': 'notes.txt uses a free-format MP3 bit rate, which cannot be joined',
    'format-change': 'notes.txt changes its MP3 format part-way and cannot be joined',
    'bad-mp4': 'notes.txt is a damaged MP4 file',
    'reencode-failed': 'notes.txt could not be re-encoded',
    'measure-failed': 'notes.txt could not be measured for loudness',
    'not-image': 'notes.txt is not a JPEG or PNG image',
    'same-as-output': 'notes.txt is also the output',
  };

  it.each(INPUT_ERROR_CODES)('words a refused input (%s) by its code, naming the original file', (code) => {
    const names = ['intro.mp3', 'notes.txt'];
    // The engine's reason names the stored path and ffmpeg's words: neither reaches the person.
    const err = new InputError(
      '/data/uploads/x/abc.bin',
      code,
      'not audio (/data/uploads/x/abc.bin: EOF)',
      1,
    );
    expect(inputFailureMessage(err, names)).toBe(`Could not merge: ${SENTENCES[code]}`);
  });

  it('never names a path on the server: a refused file that is none of the list is the cover or a file of the merge', () => {
    const dataDir = '/srv/audio-merge/data';
    const scratch = `${dataDir}/tmp/job-1a2b/part-0.mp3`;
    expect(
      inputFailureMessage(new InputError(scratch, 'not-audio', `not audio (${scratch})`), ['a.mp3']),
    ).toBe('Could not merge: a file made during the merge is not usable audio');
    expect(
      inputFailureMessage(new InputError(`${dataDir}/uploads/s/session-cover.img`, 'not-image', 'x'), [
        'a.mp3',
      ]),
    ).toBe('Could not merge: the cover is not a JPEG or PNG image');
    for (const code of INPUT_ERROR_CODES) {
      for (const file of [scratch, 'C:\\data\\tmp\\job-1\\part.mp3', `${dataDir}/uploads/s/x.mp3`]) {
        const message = inputFailureMessage(new InputError(file, code, `${code} (${file})`, -1), ['a.mp3']);
        expect(message).not.toContain(dataDir);
        expect(message).not.toMatch(/(^|\s)\/\w|[A-Za-z]:\\|\btmp\b|job-/);
      }
    }
  });

  it('has no path in any sentence of the error table', () => {
    const sentences = Object.values(ERRORS).flatMap((e) => [
      e.message,
      ...('named' in e ? [(e.named as (n: string) => string)('a.mp3')] : []),
    ]);
    for (const sentence of sentences) expect(sentence).not.toMatch(/(^|\s)\/\w|[A-Za-z]:\\|DATA_DIR|\btmp\//);
  });

  it('keeps internal details out of the message, tells shutdown apart, and never retries bad input', () => {
    expect(asJobFailure(new Error('EACCES /data/tmp'), false)).toMatchObject({
      message: ERRORS.mergeFailed.message,
      code: 'mergeFailed',
      retryable: true,
    });
    expect(asJobFailure(new AbortError(), false)).toMatchObject({
      message: SHUTDOWN_MESSAGE,
      code: 'mergeStopped',
      retryable: true,
    });
    expect(asJobFailure(new Error('killed'), true)).toMatchObject({
      message: SHUTDOWN_MESSAGE,
      code: 'mergeStopped',
    });
    const refused = inputFailure('empty', 'Could not merge: a is an empty file');
    expect(asJobFailure(refused, true)).toBe(refused);
    expect(refused).toMatchObject({ code: 'empty', retryable: false });
    expect(asJobFailure(new InputError('a.mp3', 'not-audio', 'not audio (x)', 0), false)).toMatchObject({
      code: 'not-audio',
      retryable: false,
    });
    // The engine's other input errors, met unworded, are the input's fault too, by their codes.
    expect(asJobFailure(new FreeFormatError(), false)).toMatchObject({
      code: 'free-format',
      message: 'An MP3 file uses a free-format bit rate, which cannot be joined',
      retryable: false,
    });
    expect(asJobFailure(new FormatChangeError('a', 'b'), false)).toMatchObject({
      code: 'format-change',
      retryable: false,
    });
    expect(asJobFailure(new Mp4Error('/tmp/x.m4a', 'no audio track'), false)).toMatchObject({
      code: 'bad-mp4',
      message: 'An MP4 file is damaged',
      retryable: false,
    });
  });

  it('tells a full disk apart from other faults, by its code and never by words', () => {
    const enospc = Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
    expect(asJobFailure(enospc, false)).toMatchObject({
      code: 'disk-full',
      message: "The server's disk is full",
      retryable: true,
    });
    expect(
      asJobFailure(
        new OutputError('cannot write /x/merged.mp3: no space left on the device', 'disk-full'),
        false,
      ),
    ).toMatchObject({ code: 'disk-full' });
    expect(asJobFailure(new OutputError('cannot write /x: permission denied'), false)).toMatchObject({
      code: 'output-unwritable',
    });
    expect(asJobFailure(new ToolError('ffmpeg not found'), false)).toMatchObject({ code: 'tool-missing' });
    // Wrapped (the cause chain is followed), a spent quota, and SQLite's own code.
    expect(
      asJobFailure(new Error('cannot write out.mp3: no space left on the device', { cause: enospc }), false),
    ).toMatchObject({ code: 'disk-full' });
    expect(asJobFailure(Object.assign(new Error('quota'), { code: 'EDQUOT' }), false)).toMatchObject({
      code: 'disk-full',
    });
    expect(
      asJobFailure(Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL' }), false),
    ).toMatchObject({ code: 'disk-full' });
    // A message that only looks like a full disk is not one.
    expect(asJobFailure(new Error('No space left on device'), false)).toMatchObject({ code: 'mergeFailed' });
  });

  it('counts the merges ahead in plain words', () => {
    expect(waitingText(1)).toBe('Waiting: 1 merge ahead of yours');
    expect(waitingText(3)).toBe('Waiting: 3 merges ahead of yours');
  });

  it('names the download after the local time, like merged-2026-11-21-1430.mp3', () => {
    expect(downloadName(new Date(2026, 10, 21, 14, 30, 59))).toBe('merged-2026-11-21-1430.mp3');
    expect(downloadName(new Date(2027, 0, 2, 3, 4))).toBe('merged-2027-01-02-0304.mp3');
  });

  it('names a download by its title and date, safe as a file name, in its format', () => {
    const at = new Date(2026, 10, 21, 14, 30);
    expect(describedDownloadName('My Book: Part 1/2', at, 'm4b')).toBe(
      'My Book Part 1 2 2026-11-21 1430.m4b',
    );
    expect(describedDownloadName('..\u0000', at, 'opus')).toBe('merged-2026-11-21-1430.opus');
    expect(describedDownloadName('Next\u0085Line\u009b', at, 'mp3')).toBe('Next Line 2026-11-21 1430.mp3');
    expect(describedDownloadName(undefined, at, 'flac')).toBe('merged-2026-11-21-1430.flac');
  });
});
