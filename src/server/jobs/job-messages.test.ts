import { describe, expect, it } from 'vitest';
import { AbortError, InputError, OutputError, ToolError } from '../../engine/index.js';
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
  it('names the original file, not the stored path, and reads as a sentence', () => {
    const names = ['intro.mp3', 'notes.txt'];
    const msg = (reason: string) =>
      inputFailureMessage(new InputError('/data/uploads/x/abc.bin', reason, 1), names);
    expect(msg('not audio (no audio stream)')).toBe(
      'Could not merge: notes.txt is not audio (no audio stream)',
    );
    expect(msg('empty file')).toBe('Could not merge: notes.txt is an empty file');
    expect(msg('no decodable audio (zero duration)')).toBe(
      'Could not merge: notes.txt has no decodable audio (zero duration)',
    );
    expect(msg('could not be re-encoded (bad frame)')).toBe(
      'Could not merge: notes.txt could not be re-encoded (bad frame)',
    );
    expect(msg('truncated')).toBe('Could not merge: notes.txt: truncated');
  });

  it('falls back to the engine display name when the index is unknown', () => {
    expect(inputFailureMessage(new InputError('b.wav', 'not audio (x)'), ['a.mp3'])).toBe(
      'Could not merge: b.wav is not audio (x)',
    );
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
    expect(asJobFailure(new InputError('a.mp3', 'not audio (x)', 0, 'not-audio'), false)).toMatchObject({
      code: 'not-audio',
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
    expect(describedDownloadName(undefined, at, 'flac')).toBe('merged-2026-11-21-1430.flac');
  });
});
