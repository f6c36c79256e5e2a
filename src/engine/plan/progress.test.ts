import { describe, expect, it } from 'vitest';
import { JOIN_WEIGHT, MEASURE_WEIGHT, ProgressTracker } from './progress.js';

function track(durations: number[], transcoded: number[]) {
  const seen: number[] = [];
  const t = new ProgressTracker(durations, transcoded, (p) => seen.push(p));
  return { t, seen };
}

describe('progress arithmetic', () => {
  it('weighs each transcode by its input duration', () => {
    const { t, seen } = track([30, 10], [0, 1]);
    t.start();
    t.transcode(0, 1); // 30 of 30 + 10 + 0.05 * 40 = 42 units
    expect(seen.at(-1)).toBe(Math.floor((30 / (40 + 40 * JOIN_WEIGHT)) * 100));
    t.transcode(1, 1);
    expect(seen.at(-1)).toBe(Math.floor((40 / (40 + 40 * JOIN_WEIGHT)) * 100));
  });

  it('is join work only when nothing is transcoded', () => {
    const { t, seen } = track([5, 5], []);
    t.start();
    t.join(50, 100);
    expect(seen).toEqual([0, 50]);
  });

  it('never goes backwards and emits only on change', () => {
    const { t, seen } = track([10], [0]);
    t.start();
    t.transcode(0, 0.5);
    t.transcode(0, 0.3); // a late, smaller report
    t.transcode(0, 0.5);
    t.transcode(0, 0.501);
    expect(seen).toEqual([0, 47]);
    for (let i = 1; i < seen.length; i++) expect(seen[i]).toBeGreaterThan(seen[i - 1]);
  });

  it('holds at 99 until the output is complete, then says exactly 100', () => {
    const { t, seen } = track([10, 10], [1]);
    t.start();
    t.transcode(1, 1);
    t.join(100, 100);
    expect(seen.at(-1)).toBe(99);
    t.complete();
    expect(seen.at(-1)).toBe(100);
    t.join(100, 100);
    expect(seen.filter((p) => p === 100)).toHaveLength(1);
  });

  it('gives whole numbers for any fractions', () => {
    const { t, seen } = track([1.37, 2.91, 0.5], [0, 2]);
    t.start();
    for (let f = 0; f <= 1; f += 0.013) {
      t.transcode(0, f);
      t.transcode(2, f * 0.7);
    }
    t.join(333, 1000);
    t.complete();
    expect(seen.every((p) => Number.isInteger(p) && p >= 0 && p <= 100)).toBe(true);
    expect(seen.at(-1)).toBe(100);
  });

  it('ignores nonsense fractions', () => {
    const { t, seen } = track([10], [0]);
    t.start();
    t.transcode(0, Number.NaN);
    t.transcode(0, -3);
    t.transcode(0, 7);
    expect(seen).toEqual([0, Math.floor((10 / 10.5) * 100)]);
  });
});

describe('progress with measuring first', () => {
  it('weighs each measured input at a third of its transcode, never going back', () => {
    const seen: number[] = [];
    // Two 10 s inputs, both measured, one transcoded; join weight 0.05 per second of all audio.
    const t = new ProgressTracker([10, 10], [1], (p) => seen.push(p), 0.05, [0, 1]);
    t.start();
    t.measure(0, 1);
    t.measure(1, 1);
    const total = 2 * 10 * MEASURE_WEIGHT + 10 + 20 * 0.05;
    expect(t.percent).toBe(Math.floor((6 / total) * 100));
    t.measure(0, 0.5); // a late, lower report changes nothing
    t.transcode(1, 1);
    expect(t.percent).toBe(Math.floor((16 / total) * 100));
    t.join(1, 1);
    expect(t.percent).toBe(99);
    t.complete();
    expect(seen).toEqual([...seen].sort((a, b) => a - b));
    expect(seen.at(-1)).toBe(100);
  });
});

describe('progress of crossfades spliced into copies', () => {
  it('weighs each input by the seconds re-encoded around its fade, not its whole length', () => {
    // Two 600 s inputs copied but for 2.3 s around the one fade; join weight 0.05 per second.
    const t = new ProgressTracker([600, 600], [0], () => {}, 0.05, [], undefined, [2.3, 0]);
    const total = 2.3 + 1200 * 0.05;
    t.transcode(0, 1);
    expect(t.percent).toBe(Math.floor((2.3 / total) * 100));
    t.join(1, 2);
    expect(t.percent).toBe(Math.floor(((2.3 + 30) / total) * 100));
  });
});
