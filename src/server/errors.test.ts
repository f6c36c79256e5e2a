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
} from '../engine/index.js';
import { DatabaseDamagedError } from './data/sqlite/db-check.js';
import { ERRORS, errorCodeOf, inputSentence } from './errors.js';
import { AppError } from './http/errors.js';
import { JobFailure, QueueClosedError } from './jobs/job-errors.js';
import { inputFailureMessage } from './jobs/job-messages.js';
import { RedisPolicyError } from './jobs/bullmq/redis-connection.js';

describe('the error table', () => {
  // Every error class the server can meet, with the code and HTTP status a person's answer takes.
  const cases: [string, Error, string, number][] = [
    ['InputError', new InputError('a.mp3', 'empty', 'empty file', 0), 'empty', 422],
    ['FreeFormatError', new FreeFormatError(), 'free-format', 422],
    ['FormatChangeError', new FormatChangeError('MPEG-1', 'MPEG-2'), 'format-change', 422],
    ['Mp4Error', new Mp4Error('/in/book.m4a', 'no audio track', 2), 'bad-mp4', 422],
    ['OutputError', new OutputError('cannot write out.mp3'), 'output-unwritable', 500],
    ['OutputError (full disk)', new OutputError('cannot write out.mp3', 'disk-full'), 'disk-full', 507],
    ['ToolError', new ToolError('ffmpeg not found'), 'tool-missing', 500],
    ['AbortError', new AbortError(), 'cancelled', 409],
    ['RedisPolicyError', new RedisPolicyError('maxmemory-policy is allkeys-lru'), 'redis-policy', 503],
    [
      'DatabaseDamagedError',
      new DatabaseDamagedError('/data/db.sqlite', 'bad page'),
      'database-damaged',
      503,
    ],
    ['QueueClosedError', new QueueClosedError(), 'mergeStopped', 503],
    ['JobFailure', new JobFailure('interrupted'), 'interrupted', 503],
    ['AppError', new AppError('foreignItem'), 'foreignItem', 403],
  ];

  it.each(cases)('maps %s to its code and status', (_, err, code, status) => {
    expect(errorCodeOf(err)).toBe(code);
    expect(ERRORS[errorCodeOf(err)!].status).toBe(status);
    expect(ERRORS[errorCodeOf(err)!].message).toMatch(/^[A-Z].*[^.]$/);
  });

  it('has a sentence naming the file for every input code', () => {
    for (const code of INPUT_ERROR_CODES) {
      const sentence = inputSentence(code, 'Chapter 1.mp3');
      expect(sentence.startsWith('Chapter 1.mp3 ')).toBe(true);
      expect(ERRORS[code].status).toBe(422);
    }
  });

  it('names the file of the errors that carry one, from their fields', () => {
    // The Mp4Error's file and place are fields: a person reads the input's own name.
    const mp4 = new Mp4Error('/scratch/part-2.m4a', 'ends inside its audio packets', 1);
    expect(mp4).toMatchObject({ file: '/scratch/part-2.m4a', index: 1 });
    expect(inputFailureMessage(mp4, ['intro.m4a', 'book.m4a'])).toBe(
      'Could not merge: book.m4a is a damaged MP4 file',
    );
    const input = new InputError('/data/uploads/s/abc.bin', 'bad-mp3', 'not MPEG layer III audio', 0);
    expect(inputFailureMessage(input, ['talk.mp3'])).toBe('Could not merge: talk.mp3 is a damaged MP3 file');
    // The command line's one-line message names the file it was given.
    expect(input.message).toBe('/data/uploads/s/abc.bin: not MPEG layer III audio');
    // The operator's start-up refusal names the database file.
    expect(new DatabaseDamagedError('/data/db.sqlite', 'bad page').message).toContain('/data/db.sqlite');
  });
});
