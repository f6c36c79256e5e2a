import { describe, expect, it } from 'vitest';
import { AbortError, InputError } from '../../engine/errors.js';
import {
  DISK_FULL_MESSAGE, downloadName, failureMessage, INTERNAL_MESSAGE, INTERRUPTED_MESSAGE, jobFailureKind, SHUTDOWN_MESSAGE, waitingText,
} from './job-messages.js';

describe('job messages', () => {
  it('names the original file, not the stored path, and reads as a sentence', () => {
    const names = ['intro.mp3', 'notes.txt'];
    const msg = (reason: string) => failureMessage(new InputError('/data/uploads/x/abc.bin', reason, 1), names, false);
    expect(msg('not audio (no audio stream)')).toBe('Could not merge: notes.txt is not audio (no audio stream)');
    expect(msg('empty file')).toBe('Could not merge: notes.txt is an empty file');
    expect(msg('no decodable audio (zero duration)')).toBe('Could not merge: notes.txt has no decodable audio (zero duration)');
    expect(msg('could not be re-encoded (bad frame)')).toBe('Could not merge: notes.txt could not be re-encoded (bad frame)');
    expect(msg('truncated')).toBe('Could not merge: notes.txt: truncated');
  });

  it('falls back to the engine display name when the index is unknown', () => {
    expect(failureMessage(new InputError('b.wav', 'not audio (x)'), ['a.mp3'], false)).toBe('Could not merge: b.wav is not audio (x)');
  });

  it('keeps internal details out of the message and tells shutdown apart', () => {
    expect(failureMessage(new Error('ENOSPC /data/tmp'), [], false)).toBe(INTERNAL_MESSAGE);
    expect(failureMessage(new AbortError(), [], false)).toBe(SHUTDOWN_MESSAGE);
    expect(jobFailureKind(failureMessage(new InputError('a', 'empty file', 0), ['a'], false))).toBe('input');
    expect(jobFailureKind(SHUTDOWN_MESSAGE)).toBe('unavailable');
    expect(jobFailureKind(INTERRUPTED_MESSAGE)).toBe('unavailable');
    expect(jobFailureKind(INTERNAL_MESSAGE)).toBe('internal');
  });

  it('counts the merges ahead in plain words', () => {
    expect(waitingText(1)).toBe('Waiting: 1 merge ahead of yours');
    expect(waitingText(3)).toBe('Waiting: 3 merges ahead of yours');
  });

  it('names the download after the local time, like merged-2026-11-21-1430.mp3', () => {
    expect(downloadName(new Date(2026, 10, 21, 14, 30, 59))).toBe('merged-2026-11-21-1430.mp3');
    expect(downloadName(new Date(2027, 0, 2, 3, 4))).toBe('merged-2027-01-02-0304.mp3');
  });

  it('tells a full disk as such, known by the error code wherever the engine wrapped it', () => {
    const enospc = Object.assign(new Error('write failed'), { code: 'ENOSPC' });
    expect(failureMessage(enospc, [], false)).toBe("The server's disk is full");
    expect(failureMessage(new Error('cannot write out.mp3: no space left on the device', { cause: enospc }), [], false)).toBe(DISK_FULL_MESSAGE);
    expect(failureMessage(Object.assign(new Error('quota'), { code: 'EDQUOT' }), [], false)).toBe(DISK_FULL_MESSAGE);
    expect(failureMessage(Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL' }), [], false)).toBe(DISK_FULL_MESSAGE);
    expect(failureMessage(new Error('No space left on device'), [], false)).toBe(INTERNAL_MESSAGE);
    expect(jobFailureKind(DISK_FULL_MESSAGE)).toBe('diskFull');
  });
});

