import { describe, expect, it } from 'vitest';
import { parseSoakArgs } from './soak-args.js';
import { exitCodeOf, formatReport, percentile, summarize, type SoakFigures } from './soak-report.js';

const figures = (over: Partial<SoakFigures> = {}): SoakFigures => ({
  people: 3,
  minutes: 1,
  elapsedSeconds: 120,
  merges: [
    { kind: 'succeeded', mergeMs: 3000, engineSeconds: 2.5 },
    { kind: 'succeeded', mergeMs: 1000, engineSeconds: null },
    { kind: 'failed', code: 'interrupted' },
  ],
  getDataJsonMs: [10, 20, 30, 40],
  peakRss: { web1: 200 * 1048576 },
  leftovers: [],
  faults: [{ at: 30, what: 'worker1 killed' }],
  stopped: [],
  ...over,
});

describe('the soak report', () => {
  it('counts merges by fate, failures by code, and the time the server adds around the engine', () => {
    const r = summarize(figures());
    expect(r).toMatchObject({ asked: 3, succeeded: 2, failed: 1, failedByCode: { interrupted: 1 }, lost: 0 });
    expect(r.mergesPerMinute).toBe(1.5);
    expect(r.mergeOverhead).toEqual({ p50: 500, p99: 500, measured: 1 });
    expect(r.getDataJson).toEqual({ p50: 20, p99: 40 });
    expect(exitCodeOf(r)).toBe(0);
    const text = formatReport(r, figures());
    expect(text).toContain('merges asked 3, succeeded 2, failed 1 (interrupted 1), lost 0');
    expect(text).toContain('web1 200 MiB');
    expect(text).toContain('soak: passed');
  });

  it('fails on a lost merge, and on a file left behind, but not on a failed merge', () => {
    const lost = summarize(figures({ merges: [{ kind: 'lost', why: 'r1: never ended' }] }));
    expect(lost.lost).toBe(1);
    expect(exitCodeOf(lost)).toBe(1);
    expect(formatReport(lost, figures())).toContain('lost: r1: never ended');
    const left = summarize(figures({ leftovers: ['s1/results/x.mp3'] }));
    expect(exitCodeOf(left)).toBe(1);
    expect(formatReport(left, figures())).toContain('FAILED');
    expect(exitCodeOf(summarize(figures({ merges: [{ kind: 'failed', code: 'not-audio' }] })))).toBe(0);
  });

  it('takes nearest-rank percentiles', () => {
    expect(percentile([5, 1, 3, 2, 4], 50)).toBe(3);
    expect(
      percentile(
        Array.from({ length: 100 }, (_, i) => i + 1),
        99,
      ),
    ).toBe(99);
    expect(percentile([7], 99)).toBe(7);
    expect(percentile([], 50)).toBeNaN();
  });

  it('reads --people and --minutes, 200 and 5 by default, and refuses anything else', () => {
    expect(parseSoakArgs([])).toEqual({ people: 200, minutes: 5 });
    expect(parseSoakArgs(['--people', '20', '--minutes', '2'])).toEqual({ people: 20, minutes: 2 });
    expect(() => parseSoakArgs(['--people', '0'])).toThrow('--people');
    expect(() => parseSoakArgs(['--people', '1e9'])).toThrow('at most');
    expect(() => parseSoakArgs(['--host', 'example.com'])).toThrow('unknown argument');
  });
});
