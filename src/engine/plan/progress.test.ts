import { describe, expect, it } from 'vitest';
import { ProgressTracker } from './progress.js';

/** A join at a twentieth of a transcode per second of audio; measuring at three tenths. */
const weights = { last: 0.05, measure: 0.3 };

function track(durations: number[], transcoded: number[]) {
  const seen: number[] = [];
  const t = new ProgressTracker({ durations, transcoded, weights, onPercent: (p) => seen.push(p) });
  return { t, seen };
}

describe('progress arithmetic', () => {
  it('weighs each transcode by its input duration', () => {
    const { t, seen } = track([30, 10], [0, 1]);
    t.start();
    t.transcode(0, 1); // 30 of 30 + 10 + 0.05 * 40 = 42 units
    expect(seen.at(-1)).toBe(Math.floor((30 / 42) * 100));
    t.transcode(1, 1);
    expect(seen.at(-1)).toBe(Math.floor((40 / 42) * 100));
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
    const t = new ProgressTracker({
      durations: [10, 10],
      transcoded: [1],
      weights,
      onPercent: (p) => seen.push(p),
      measured: [0, 1],
    });
    t.start();
    t.measure(0, 1);
    t.measure(1, 1);
    const total = 2 * 10 * 0.3 + 10 + 20 * 0.05;
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
    const t = new ProgressTracker({
      durations: [600, 600],
      transcoded: [0],
      weights,
      encodedSeconds: [2.3, 0],
    });
    const total = 2.3 + 1200 * 0.05;
    t.transcode(0, 1);
    expect(t.percent).toBe(Math.floor((2.3 / total) * 100));
    t.join(1, 2);
    expect(t.percent).toBe(Math.floor(((2.3 + 30) / total) * 100));
  });
});

describe('where the work stands', () => {
  function follow(durations: number[], transcoded: number[], measured: number[] = []) {
    const seen: string[] = [];
    const t = new ProgressTracker({
      durations,
      transcoded,
      weights,
      measured,
      onPercent: (p, w) => seen.push(`${p} ${w.stage} ${w.file}/${w.files}`),
    });
    return { t, seen };
  }

  it('reads while measuring, encodes input by input, writes once the audio is made', () => {
    const { t, seen } = follow([10, 10, 10], [0, 1, 2], [0, 1, 2]);
    t.start();
    expect(seen.at(-1)).toMatch(/^0 reading 1\/3$/);
    for (const i of [0, 1, 2]) t.measure(i, 1);
    expect(seen.at(-1)).toMatch(/ encoding 1\/3$/);
    t.transcode(0, 1);
    expect(seen.at(-1)).toMatch(/ encoding 2\/3$/);
    t.transcode(1, 1);
    t.transcode(2, 1);
    // Every transcode done: the join is what is left, and it is at its first input.
    expect(seen.at(-1)).toMatch(/ encoding 1\/3$/);
    t.join(1, 1);
    expect(seen.at(-1)).toBe('99 writing 3/3');
    t.complete();
    expect(seen.at(-1)).toBe('100 writing 3/3');
  });

  it('follows a copy join through its inputs by their share of the audio', () => {
    const { t, seen } = follow([60, 20, 20], []);
    t.start();
    t.join(50, 100); // half the bytes: still inside the first minute-long input
    expect(seen.at(-1)).toBe('50 encoding 1/3');
    t.join(70, 100);
    expect(seen.at(-1)).toBe('70 encoding 2/3');
    t.join(90, 100);
    expect(seen.at(-1)).toBe('90 encoding 3/3');
  });

  it('tells a move to the next file even when the percentage stays, and never the same twice', () => {
    const { t, seen } = follow([1, 1000], [0, 1]);
    t.start();
    t.transcode(0, 1); // 1 of ~1051 units: still 0 %
    t.transcode(0, 1);
    expect(seen).toEqual(['0 encoding 1/2', '0 encoding 2/2']);
  });
});
