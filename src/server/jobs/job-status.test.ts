import { describe, expect, it } from 'vitest';
import { job } from '../../../test/support/job-kit.js';
import { createJobEvents } from './queue.js';
import {
  endedRow,
  liveProgress,
  statusAnswer,
  statusOfEvent,
  statusOfJob,
  statusPayload,
} from './job-status.js';

const ref = { jobId: 'J1', sid: 'S1', appid: 'app', requestId: 'req-1' };

describe('job status', () => {
  it('data is the percentage while running and when done, and the words otherwise', () => {
    expect(
      statusPayload(
        statusOfEvent({
          ...ref,
          type: 'progress',
          state: 'queued',
          percent: null,
          text: 'Waiting: 1 merge ahead of yours',
          ahead: 1,
        }),
      ),
    ).toEqual({
      data: 'Waiting: 1 merge ahead of yours',
      requestId: 'req-1',
      state: 'queued',
      percent: null,
      code: 'queued',
      ahead: 1,
      stage: 'waiting',
      files: null,
      secondsLeft: null,
    });
    expect(
      statusPayload(
        statusOfEvent({ ...ref, type: 'progress', state: 'running', percent: 42, text: 'Merging: 42%' }),
      ),
    ).toEqual({ data: '42', requestId: 'req-1', state: 'running', percent: 42 });
    expect(statusPayload(statusOfEvent({ ...ref, type: 'completed', resultId: 'J1', text: 'Done' }))).toEqual(
      { data: '100', requestId: 'req-1', state: 'succeeded', percent: 100 },
    );
    expect(
      statusPayload(
        statusOfEvent({
          ...ref,
          type: 'failed',
          message: 'Could not merge: a.mp3 is an empty file',
          code: 'empty',
          retryable: false,
        }),
      ),
    ).toEqual({
      data: 'Could not merge: a.mp3 is an empty file',
      requestId: 'req-1',
      state: 'failed',
      percent: null,
      code: 'empty',
    });
    expect(
      statusPayload(statusOfEvent({ ...ref, type: 'cancelled', message: 'The merge was cancelled' })),
    ).toEqual({
      data: 'The merge was cancelled',
      requestId: 'req-1',
      state: 'cancelled',
      percent: null,
      code: 'cancelled',
    });
  });

  it('a job row tells the same status as the event that last changed it', () => {
    const row = (over: Parameters<typeof job>[4]) =>
      statusPayload(statusOfJob(job('J1', 'S1', [], 'app', { requestId: 'req-1', ...over })));
    expect(row({ status: 'queued', statusText: 'Waiting: 2 merges ahead of yours' })).toEqual({
      data: 'Waiting: 2 merges ahead of yours',
      requestId: 'req-1',
      state: 'queued',
      percent: null,
      code: 'queued',
      stage: 'waiting',
      files: null,
      secondsLeft: null,
    });
    expect(row({ status: 'running', percent: 7, statusText: 'Merging: 7%' })).toMatchObject({
      data: '7',
      state: 'running',
      percent: 7,
    });
    expect(row({ status: 'succeeded', percent: 100, statusText: 'Done' })).toMatchObject({
      data: '100',
      state: 'succeeded',
      percent: 100,
    });
    expect(row({ status: 'failed', error: 'The merge failed on the server; please try again' })).toEqual({
      data: 'The merge failed on the server; please try again',
      requestId: 'req-1',
      state: 'failed',
      percent: null,
    });
    expect(row({ status: 'cancelled', error: 'The merge was cancelled' })).toMatchObject({
      state: 'cancelled',
      code: 'cancelled',
    });
  });

  it('a row written from a failure tells it exactly as the failure event did: its code and file', () => {
    const failure = {
      message: 'Could not merge: Aufnahme 2.wav is not usable audio',
      code: 'not-audio' as const,
      file: 'Aufnahme 2.wav',
    };
    const fromEvent = statusPayload(statusOfEvent({ ...ref, type: 'failed', retryable: false, ...failure }));
    expect(fromEvent).toMatchObject({ code: 'not-audio', file: 'Aufnahme 2.wav' });
    const fromRow = statusPayload(
      statusOfJob(job('J1', 'S1', [], 'app', { requestId: 'req-1', ...endedRow('failed', failure) })),
    );
    expect(fromRow).toEqual(fromEvent);
    // Without a file (a failure of the server, not of one input): the code alone.
    const stopped = {
      message: 'The server restarted while this merge was running',
      code: 'interrupted' as const,
    };
    const row = statusOfJob(job('J2', 'S1', [], 'app', endedRow('failed', stopped)));
    expect(row).toEqual({
      requestId: null,
      state: 'failed',
      percent: null,
      text: stopped.message,
      code: 'interrupted',
    });
    // A cancel keeps its code as the event's.
    const cancelled = statusOfJob(
      job(
        'J3',
        'S1',
        [],
        'app',
        endedRow('cancelled', { message: 'The merge was cancelled', code: 'cancelled' }),
      ),
    );
    expect(cancelled).toMatchObject({ state: 'cancelled', code: 'cancelled' });
    expect(cancelled).not.toHaveProperty('file');
  });
});

describe('where a running merge stands', () => {
  const encoding = { stage: 'encoding', file: 37, files: 500, secondsLeft: 312 } as const;

  it('an event carries its stage, file, files and time left in the payload', () => {
    const payload = statusPayload(
      statusOfEvent({ ...ref, type: 'progress', state: 'running', percent: 40, text: '', detail: encoding }),
    );
    expect(payload).toEqual({
      data: '40',
      requestId: 'req-1',
      state: 'running',
      percent: 40,
      stage: 'encoding',
      file: 37,
      files: 500,
      secondsLeft: 312,
    });
  });

  it('a row read later takes the latest detail its events told, until the merge ends', () => {
    const events = createJobEvents(() => undefined);
    const live = liveProgress(events);
    const running = job('J1', 'S1', [], 'app', { requestId: 'req-1', status: 'running', percent: 40 });
    events.emit({ ...ref, type: 'progress', state: 'running', percent: 40, text: '', detail: encoding });
    expect(statusAnswer(statusOfJob(running, live.get('J1')))).toMatchObject({
      state: 'running',
      percent: 40,
      stage: 'encoding',
      file: 37,
      files: 500,
      secondsLeft: 312,
    });
    events.emit({ ...ref, type: 'completed', resultId: 'R1', text: 'Done' });
    expect(live.get('J1')).toBeUndefined();
    // A row that has ended shows no stage, whatever was told before.
    const done = job('J1', 'S1', [], 'app', { status: 'succeeded', percent: 100 });
    expect(statusAnswer(statusOfJob(done, encoding))).not.toHaveProperty('stage');
  });

  it("a failure's file stays its name; a running merge's file is the input's number", () => {
    const failed = job('J1', 'S1', [], 'app', { status: 'failed', errorCode: 'empty', errorFile: 'a.mp3' });
    expect(statusAnswer(statusOfJob(failed))).toMatchObject({ state: 'failed', file: 'a.mp3' });
    expect(statusAnswer(statusOfJob(failed))).not.toHaveProperty('stage');
  });
});
