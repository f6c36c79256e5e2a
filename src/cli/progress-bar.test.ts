import { describe, expect, it } from 'vitest';
import { clock, progressBar, secondsLeft } from './progress-bar.js';

describe('time left', () => {
  it('is what is left at the pace so far', () => {
    expect(secondsLeft(10_000, 25)).toBe(30);
    expect(secondsLeft(60_000, 50)).toBe(60);
    expect(secondsLeft(3_000, 75)).toBe(1);
  });

  it('is unknown in the first second, below 1 %, and at the end', () => {
    expect(secondsLeft(999, 50)).toBeUndefined();
    expect(secondsLeft(5_000, 0)).toBeUndefined();
    expect(secondsLeft(5_000, 0.5)).toBeUndefined();
    expect(secondsLeft(5_000, 100)).toBeUndefined();
  });

  it('reads as a clock, rounded up', () => {
    expect(clock(0.2)).toBe('0:01');
    expect(clock(7)).toBe('0:07');
    expect(clock(725)).toBe('12:05');
    expect(clock(3723)).toBe('1:02:03');
  });

  it('follows the bar, which is redrawn in place', () => {
    expect(progressBar(50, 30)).toBe(`\r[${'#'.repeat(15)}${'.'.repeat(15)}]  50%  0:30 left\x1b[K`);
    expect(progressBar(0)).toBe(`\r[${'.'.repeat(30)}]   0%\x1b[K`);
  });
});
