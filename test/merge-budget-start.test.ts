// The budget (MAX_MERGE_HOURS) checked on what a merge will read: the spans as they are when it
// starts, not as they were when it was queued, and the silence of its gaps. Here the server
// merges at most 0.01 h (36 s); merges of files named "hold*" wait until cancelled.
import { describe, expect, it } from 'vitest';
import { AbortError } from '../src/engine/errors.js';
import type { MergeFn } from '../src/server/jobs/merge-processor.js';
import { useMediaApp } from './support/media-app.js';
import { until } from './support/until.js';

/** The inputs of every merge the engine was asked for, by their names. */
const engineRuns: string[][] = [];

const holding: MergeFn = async (inputs, output, opts) => {
  engineRuns.push(opts.displayNames ?? []);
  if (opts.displayNames?.some((n) => n.startsWith('hold'))) {
    // A cancel may come before the merge is called (a loaded machine): then it ends at once.
    return new Promise((_resolve, reject) => {
      if (opts.signal?.aborted) reject(new AbortError());
      opts.signal?.addEventListener('abort', () => reject(new AbortError()));
    });
  }
  return (await import('../src/engine/index.js')).mergeFiles(inputs, output, opts);
};

const env = useMediaApp({
  prefix: 'merge-budget-start-',
  tones: {
    'hold.mp3': { seconds: 1 },
    'twenty.mp3': { seconds: 20, frequency: 660 },
    'blip.mp3': { seconds: 1 },
  },
  config: { maxMergeHours: 0.01, mergeConcurrency: 1 },
  deps: { merge: holding },
});

describe('the budget checked on what the merge reads', () => {
  it('refuses at its start a queued merge whose spans grew past the budget while it waited', async () => {
    const { s, items } = await env.sessionWith(['hold.mp3', 'twenty.mp3']);
    const [hold, tone] = items;
    const keep = (start: number | null, end: number | null) =>
      env.post(s, '/app/merge/saveItem', { id: tone.id, start, end });
    expect((await keep(5, 10)).statusCode).toBe(200);
    const first = env.merge(s, [hold.id], { requestId: 'first' });
    await until(
      async () => (await env.allJobs()).some((j) => j.requestId === 'first' && j.status === 'running'),
      {
        timeoutMs: 10_000,
        what: 'the first merge running',
      },
    );
    // Two uses of 5 s: 10 s fits the 36 s.
    const second = env.merge(s, [tone.id, tone.id], { requestId: 'second' });
    await until(async () => (await env.allJobs()).some((j) => j.requestId === 'second'), {
      timeoutMs: 10_000,
      what: 'the second merge queued',
    });
    // Now two uses of the whole 20 s: 40 s.
    expect((await keep(null, null)).statusCode).toBe(200);
    const runsBefore = engineRuns.length;
    expect((await env.post(s, '/app/merge/cancel', { requestId: 'first' })).statusCode).toBe(200);
    expect((await first).statusCode).toBe(409);
    const refused = await second;
    expect(refused.statusCode, refused.body).toBe(413);
    expect(refused.json()).toMatchObject({
      code: 'merge-too-long',
      error: expect.stringMatching(/at most 0.01 hours/),
    });
    expect(engineRuns.length).toBe(runsBefore);
    expect(await env.app.store.listResults(s.sid)).toEqual([]);
  });

  it('counts the silence of gaps, each use counted', async () => {
    const { s, items } = await env.sessionWith(['blip.mp3']);
    const ids = Array<string>(4).fill(items[0].id);
    // 4 s of sound and 3 gaps of 11 s: 37 s.
    const gapped = await env.merge(s, ids, { options: { gap: 11 } });
    expect(gapped.statusCode).toBe(413);
    expect(gapped.json()).toMatchObject({ code: 'merge-too-long' });
    // 3 gaps of 10 s: 34 s fits.
    expect((await env.merge(s, ids, { options: { gap: 10 } })).statusCode).toBe(200);
  });
});
