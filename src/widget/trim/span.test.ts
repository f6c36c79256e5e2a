import { describe, expect, it } from 'vitest';
import { clock, isTrimmed, keyTarget, limitsOf, moveHandle, savedSpan, spanOf, spokenTime } from './span.js';

describe('a row span', () => {
  it('is the saved ends, or the file own, held inside the file', () => {
    expect(spanOf({}, 10)).toEqual({ start: 0, end: 10 });
    expect(spanOf({ start: 2, end: null }, 10)).toEqual({ start: 2, end: 10 });
    expect(spanOf({ start: -1, end: 12 }, 10)).toEqual({ start: 0, end: 10 });
  });

  it('moves a handle by the keys: arrows 0.1 s, Page Up/Down 1 s, Home/End to its ends', () => {
    const span = { start: 2, end: 8 };
    expect(keyTarget('ArrowRight', span, 'start', 10)).toBeCloseTo(2.1);
    expect(keyTarget('ArrowDown', span, 'end', 10)).toBeCloseTo(7.9);
    expect(keyTarget('PageUp', span, 'end', 10)).toBe(9);
    expect(keyTarget('PageDown', span, 'start', 10)).toBe(1);
    expect(keyTarget('Home', span, 'start', 10)).toBe(0);
    expect(keyTarget('End', span, 'end', 10)).toBe(10);
    // The start's End stops short of the end handle; the end's Home short of the start.
    expect(keyTarget('End', span, 'start', 10)).toBeCloseTo(7.9);
    expect(keyTarget('Home', span, 'end', 10)).toBeCloseTo(2.1);
    expect(keyTarget('Enter', span, 'start', 10)).toBeUndefined();
  });

  it('never lets the handles cross or leave the file', () => {
    const span = { start: 2, end: 8 };
    expect(moveHandle(span, 'start', 9, 10)).toEqual({ start: 7.9, end: 8 });
    expect(moveHandle(span, 'end', 1, 10)).toEqual({ start: 2, end: 2.1 });
    expect(moveHandle(span, 'start', -3, 10)).toEqual({ start: 0, end: 8 });
    expect(moveHandle(span, 'end', 30, 10)).toEqual({ start: 2, end: 10 });
    expect(limitsOf(span, 'end', 10)).toEqual({ min: 2.1, max: 10 });
  });

  it('is saved with null for the file own ends, and says when it is trimmed', () => {
    expect(savedSpan({ start: 0, end: 10 }, 10)).toEqual({ start: null, end: null });
    expect(savedSpan({ start: 1.5, end: 10 }, 10)).toEqual({ start: 1.5, end: null });
    expect(isTrimmed({ start: 0, end: 10 }, 10)).toBe(false);
    expect(isTrimmed({ start: 0, end: 9.9 }, 10)).toBe(true);
  });

  it('is written as a clock and spoken in minutes and seconds', () => {
    expect(clock(65.24)).toBe('1:05.2');
    expect(clock(7)).toBe('0:07.0');
    expect(spokenTime(65.24)).toBe('1 minute 5.2 seconds');
    expect(spokenTime(1)).toBe('1 second');
    expect(spokenTime(125)).toBe('2 minutes 5 seconds');
  });
});

describe('a handle put back at the end', () => {
  it('is at the end exactly, so the row is not trimmed (no scissors) and saves null', () => {
    const duration = 30.81234;
    const trimmed = moveHandle({ start: 0, end: duration }, 'end', 20, duration);
    expect(isTrimmed(trimmed, duration)).toBe(true);
    for (const at of [duration, duration + 5, 30.8124, 30.79]) {
      const back = moveHandle(trimmed, 'end', at, duration);
      expect(back.end).toBe(duration);
      expect(isTrimmed(back, duration)).toBe(false);
      expect(savedSpan(back, duration)).toEqual({ start: null, end: null });
    }
    expect(moveHandle(trimmed, 'start', -1, duration).start).toBe(0);
  });
});
