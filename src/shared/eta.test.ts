import { describe, expect, it } from 'vitest';
import { secondsLeft, TimeLeft } from './eta.js';

describe('time left', () => {
  it('is what is left at the pace so far', () => {
    expect(secondsLeft(10_000, 25)).toBe(30);
    expect(secondsLeft(60_000, 50)).toBe(60);
    expect(secondsLeft(3_000, 75)).toBe(1);
  });

  it('is unknown in the first second, below 1 %, and at the end', () => {
    expect(secondsLeft(999, 50)).toBeNull();
    expect(secondsLeft(5_000, 0)).toBeNull();
    expect(secondsLeft(5_000, 0.5)).toBeNull();
    expect(secondsLeft(5_000, 100)).toBeNull();
  });

  it('follows one merge from its first reading, falling at a steady pace, 0 when done', () => {
    let now = 50_000;
    const left = new TimeLeft(() => now);
    expect(left.at(0)).toBeNull();
    const seen: (number | null)[] = [];
    for (let s = 1; s <= 9; s++) {
      now += 1000;
      seen.push(left.at(s * 10));
    }
    // 10 % a second: 9 s left after the first second, then one less each second.
    expect(seen).toEqual([9, 8, 7, 6, 5, 4, 3, 2, 1]);
    now += 500;
    expect(left.at(100)).toBe(0);
  });

  it('grows when the pace drops, as an honest estimate must', () => {
    let now = 0;
    const left = new TimeLeft(() => now);
    left.at(0);
    now = 2000;
    const early = left.at(50)!;
    now = 10_000;
    expect(left.at(55)!).toBeGreaterThan(early);
  });
});
