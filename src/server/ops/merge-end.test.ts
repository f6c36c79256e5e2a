import { describe, expect, it } from 'vitest';
import type { MergeJobData } from '../jobs/queue.js';
import { createPrometheusMetrics } from './prometheus.js';
import { formatLabel, mergeEndFields, mergeEndOf, mergeEndReporter, reportedFallbacks } from './merge-end.js';

const data: MergeJobData = {
  jobId: 'J1',
  sid: 'S',
  appid: 'A',
  itemIds: ['a', 'b', 'a'],
  options: { format: 'm4b' },
  requestId: 'R1',
};

describe("a merge's end", () => {
  it('takes what the run made on success, and the job data otherwise', () => {
    const ok = mergeEndOf(
      data,
      {
        outcome: 'succeeded',
        result: {
          resultId: 'J1',
          durationSeconds: 61.25,
          inputs: 3,
          format: 'm4b',
          engineSeconds: 2.5,
          fallbacks: [{ stage: 'mp3-join', reason: 'bad frame' }],
        },
      },
      3.1234,
    );
    expect(mergeEndFields(ok)).toEqual({
      job: 'J1',
      requestId: 'R1',
      outcome: 'succeeded',
      format: 'm4b',
      inputs: 3,
      length: 61.25,
      seconds: 3.123,
      engineSeconds: 2.5,
      fallbacks: [{ stage: 'mp3-join', reason: 'bad frame' }],
      code: null,
    });
    const failed = mergeEndOf({ ...data, options: {} }, { outcome: 'failed', code: 'not-audio' }, 0.5);
    expect(failed).toMatchObject({
      outcome: 'failed',
      format: 'mp3',
      inputs: 3,
      lengthSeconds: null,
      code: 'not-audio',
    });
  });

  it('never makes a label of a format the client made up', () => {
    expect(formatLabel('opus')).toBe('opus');
    expect(formatLabel('x"}\n')).toBe('other');
    expect(formatLabel(undefined)).toBe('other');
  });

  it("reads the engine report's fallbacks, none when it has no such field", () => {
    expect(reportedFallbacks({})).toEqual([]);
    expect(reportedFallbacks({ fallbacks: [{ stage: 's', reason: 'r' }] })).toEqual([
      { stage: 's', reason: 'r' },
    ]);
  });

  it('logs one line and counts the merge and each fallback', async () => {
    const lines: Array<[object, string]> = [];
    const metrics = createPrometheusMetrics();
    const report = mergeEndReporter({ log: { info: (o, m) => lines.push([o, m]) }, metrics });
    const result = {
      resultId: 'J1',
      durationSeconds: 1,
      inputs: 3,
      format: 'mp3',
      fallbacks: [
        { stage: 'mp3-join', reason: 'a' },
        { stage: 'mp3-join', reason: 'b' },
      ],
    };
    report(mergeEndOf(data, { outcome: 'succeeded', result }, 1));
    expect(lines).toHaveLength(1);
    expect(lines[0][1]).toBe('merge succeeded');
    const text = await metrics.text();
    expect(text).toContain('audio_merge_fallbacks_total{stage="mp3-join"} 2');
    expect(text).toContain('audio_merge_merges_total{outcome="succeeded",format="mp3"} 1');
    expect(text).toContain('audio_merge_merge_seconds_count{format="mp3"} 1');
  });
});
