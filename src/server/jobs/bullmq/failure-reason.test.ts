// A final failure crosses from a worker to the web process as BullMQ's failedReason text: what
// the widget needs to word it (its code, the input at fault) must survive the trip.
import { describe, expect, it } from 'vitest';
import { inputFailure, JobFailure } from '../job-errors.js';
import { decodeFailure, encodeFailure } from './bullmq-queue.js';

describe('failedReason', () => {
  it('keeps the code, the message and the original name of the input at fault', () => {
    const failure = inputFailure('not-audio', 'Could not merge: notes.txt is not usable audio', 'notes.txt');
    expect(decodeFailure(encodeFailure(failure))).toEqual({
      code: 'not-audio',
      message: 'Could not merge: notes.txt is not usable audio',
      file: 'notes.txt',
    });
  });

  it('names no file for a failure about no one input', () => {
    expect(decodeFailure(encodeFailure(new JobFailure('mergeFailed')))).not.toHaveProperty('file');
  });

  it('tells a reason BullMQ wrote itself as an interruption, whatever it holds', () => {
    expect(decodeFailure('job stalled more than allowable limit')).toMatchObject({ code: 'interrupted' });
    expect(decodeFailure('{"code":"nope","message":"x","file":"a.mp3"}')).toMatchObject({
      code: 'interrupted',
    });
  });
});
