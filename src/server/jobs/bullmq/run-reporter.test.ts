// The worker's "running" write: a merge starts only once its row says so. A database that
// refuses the write for a moment is tried again; one that keeps refusing fails the run as
// retryable, before any CPU is spent and before a browser is told anything.
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { RefusingJobWrites } from '../../../../test/support/memory-store.js';
import { job, RecordingBroadcaster, silentLog } from '../../../../test/support/job-kit.js';
import { until } from '../../../../test/support/until.js';
import { inputFailure, JobFailure } from '../job-errors.js';
import type { MergeJobData } from '../queue.js';
import { createRunReporter } from './run-reporter.js';

const data: MergeJobData = {
  jobId: 'j1',
  sid: 's1',
  appid: 'app',
  itemIds: ['i1'],
  options: {},
  requestId: 'r1',
};

let broadcaster: RecordingBroadcaster;
beforeEach(() => {
  broadcaster = new RecordingBroadcaster();
});

async function storeWithJob(failures: number) {
  const store = new RefusingJobWrites(failures);
  await store.createSession('h', 's1', 'c', 1);
  await store.addJob(job('j1', 's1', ['i1']));
  return store;
}

describe('the run reporter on a worker', () => {
  it('records "running" before the merge starts, trying again while the database refuses the write for a moment', async () => {
    const store = await storeWithJob(2);
    const reporter = createRunReporter({ store, broadcaster, log: silentLog, startRetryDelaysMs: [5, 5] });
    await reporter.started(data, 1);
    // Two refused tries, then the write that counts, first of all the job's writes.
    expect(store.tries - store.jobHistory.length).toBe(2);
    expect(store.jobHistory[0].patch).toMatchObject({ status: 'running', attempts: 1, percent: 0 });
    expect(await store.getJob('j1')).toMatchObject({ status: 'running', attempts: 1 });
    reporter.close();
  });

  it('fails the run as retryable when "running" cannot be written, leaving the row and the channel untouched', async () => {
    const store = await storeWithJob(Infinity);
    const reporter = createRunReporter({ store, broadcaster, log: silentLog, startRetryDelaysMs: [5, 5] });
    const started = reporter.started(data, 1);
    await expect(started).rejects.toBeInstanceOf(JobFailure);
    await expect(started).rejects.toMatchObject({ code: 'mergeFailed', retryable: true });
    expect(store.tries).toBe(3);
    expect(await store.getJob('j1')).toMatchObject({ status: 'queued' });
    // A progress report for the failed run goes nowhere, however long one waits.
    vi.useFakeTimers();
    try {
      reporter.progress(data, 50);
      await vi.runAllTimersAsync();
      expect(broadcaster.events).toEqual([]);
    } finally {
      vi.useRealTimers();
    }
    reporter.close();
  });

  it("tells a worker's merge's stage, file and time left on its channel, as the in-process queue does", async () => {
    const store = await storeWithJob(0);
    const reporter = createRunReporter({ store, broadcaster, log: silentLog, startRetryDelaysMs: [5, 5] });
    await reporter.started(data, 1);
    await vi.waitFor(() => expect(broadcaster.events.length).toBeGreaterThan(0));
    expect(broadcaster.events[0].payload).toMatchObject({ data: '0', stage: 'reading', file: 1, files: 1 });
    reporter.progress(data, 40, undefined, { stage: 'encoding', file: 1, files: 1, secondsLeft: 12 });
    await vi.waitFor(() =>
      expect(broadcaster.events.at(-1)?.payload).toMatchObject({
        data: '40',
        state: 'running',
        stage: 'encoding',
        file: 1,
        files: 1,
        secondsLeft: 12,
      }),
    );
    reporter.close();
  });

  it('starts a retried run from the percentage the run before reached: progress never goes back', async () => {
    const store = await storeWithJob(0);
    const reporter = createRunReporter({ store, broadcaster, log: silentLog, startRetryDelaysMs: [5, 5] });
    await reporter.started(data, 1);
    reporter.progress(data, 75);
    await until(async () => (await store.getJob('j1'))?.percent === 75, {
      timeoutMs: 5000,
      what: 'the first run at 75%',
    });
    await reporter.interrupted(data);
    await reporter.started(data, 2);
    expect(await store.getJob('j1')).toMatchObject({ status: 'running', attempts: 2, percent: 75 });
    reporter.progress(data, 10);
    reporter.progress(data, 80);
    await until(async () => (await store.getJob('j1'))?.percent === 80, {
      timeoutMs: 5000,
      what: 'the retry at 80%',
    });
    const told = broadcaster.events.map((e) => (e.payload as { percent: number | null }).percent);
    expect(told.filter((p) => p !== null)).toEqual(
      [...told.filter((p) => p !== null)].sort((a, b) => a! - b!),
    );
    expect(told).toContain(75);
    reporter.close();
  });

  it('keeps a failure about one input in the row with its code and file, as the browser was told', async () => {
    const store = await storeWithJob(0);
    const reporter = createRunReporter({ store, broadcaster, log: silentLog, startRetryDelaysMs: [5, 5] });
    await reporter.started(data, 1);
    const message = 'Could not merge: Aufnahme 2.wav is not usable audio';
    await reporter.ended(data, {
      state: 'failed',
      failure: inputFailure('not-audio', message, 'Aufnahme 2.wav'),
    });
    expect(await store.getJob('j1')).toMatchObject({
      status: 'failed',
      error: message,
      errorCode: 'not-audio',
      errorFile: 'Aufnahme 2.wav',
    });
    expect(broadcaster.events.at(-1)?.payload).toMatchObject({
      data: message,
      state: 'failed',
      code: 'not-audio',
      file: 'Aufnahme 2.wav',
    });
    reporter.close();
  });
});
