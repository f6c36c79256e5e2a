import { describe, expect, it } from 'vitest';
import {
  checkSpan,
  formatTime,
  keptSeconds,
  parseTime,
  parseTrimArg,
  resolveTrims,
  trimLabel,
} from './trim-span.js';

describe('times as people write them', () => {
  it('reads seconds and [h:]m:ss[.mmm]', () => {
    expect(parseTime('12.5')).toBe(12.5);
    expect(parseTime('0')).toBe(0);
    expect(parseTime('1:30')).toBe(90);
    expect(parseTime('1:02:03.5')).toBeCloseTo(3723.5, 9);
    expect(parseTime('0:00.250')).toBeCloseTo(0.25, 9);
    expect(parseTime('75:00')).toBe(4500);
  });

  it('refuses what is not a time', () => {
    for (const t of ['', 'abc', '1:60', '1:2', '-3', '1e3', '1:02:60', '1::02', '0x10'])
      expect(parseTime(t), t).toBeNaN();
  });

  it('writes times back as a clock does', () => {
    expect(formatTime(65.25)).toBe('1:05.250');
    expect(formatTime(3723.5)).toBe('1:02:03.500');
    expect(parseTime(formatTime(3723.5))).toBeCloseTo(3723.5, 9);
  });
});

describe('--trim N=START-END', () => {
  it('reads either side, or both', () => {
    expect(parseTrimArg('2=1:00-2:30.5')).toEqual({ ok: true, trim: { input: 1, start: 60, end: 150.5 } });
    expect(parseTrimArg('5=12.5-')).toEqual({ ok: true, trim: { input: 4, start: 12.5 } });
    expect(parseTrimArg('1=-1:30')).toEqual({ ok: true, trim: { input: 0, end: 90 } });
  });

  it('says what cannot be read', () => {
    expect(parseTrimArg('0=1-2')).toMatchObject({ ok: false });
    expect(parseTrimArg('x=1-2')).toMatchObject({ ok: false });
    expect(parseTrimArg('1=1-2-3')).toMatchObject({ ok: false, reason: expect.stringContaining('one "-"') });
    expect(parseTrimArg('1=1:99-2')).toMatchObject({
      ok: false,
      reason: expect.stringContaining('start "1:99"'),
    });
    expect(parseTrimArg('1=5')).toMatchObject({ ok: false });
  });

  it('names a trim as it was typed', () => {
    expect(trimLabel({ input: 2, start: 5 })).toBe('--trim 3=5-');
  });
});

describe('a span against its input', () => {
  it('fills a missing side with the input own start or end', () => {
    expect(checkSpan(undefined, undefined, 10)).toEqual({ ok: true, start: 0, end: 10 });
    expect(checkSpan(2, undefined, 10)).toEqual({ ok: true, start: 2, end: 10 });
  });

  it('refuses a span past the end, an empty one, a negative start', () => {
    expect(checkSpan(0, 10.5, 10)).toEqual({ ok: false, problem: 'end' });
    expect(checkSpan(11, undefined, 10)).toEqual({ ok: false, problem: 'start' });
    expect(checkSpan(-1, 5, 10)).toEqual({ ok: false, problem: 'start' });
    expect(checkSpan(5, 5, 10)).toEqual({ ok: false, problem: 'empty' });
    expect(checkSpan(6, 5, 10)).toEqual({ ok: false, problem: 'empty' });
    expect(checkSpan(10, undefined, 10)).toEqual({ ok: false, problem: 'empty' });
  });

  it('takes an end up to 50 ms past the length as the end, and no further', () => {
    expect(checkSpan(0, 10.0005, 10)).toEqual({ ok: true, start: 0, end: 10 });
    expect(checkSpan(2, 10.05, 10)).toEqual({ ok: true, start: 2, end: 10 });
    expect(checkSpan(2, 10.051, 10)).toEqual({ ok: false, problem: 'end' });
  });

  it('resolves every trim in input order, naming the one that does not fit', () => {
    expect(
      resolveTrims(
        [
          { input: 1, start: 1 },
          { input: 0, end: 2 },
        ],
        [5, 6],
      ),
    ).toEqual({
      ok: true,
      spans: [
        { input: 0, start: 0, end: 2 },
        { input: 1, start: 1, end: 6 },
      ],
    });
    const missing = resolveTrims([{ input: 2, start: 1 }], [5, 6]);
    expect(missing).toMatchObject({
      ok: false,
      index: 0,
      reason: 'input 3 does not exist (there are 2 inputs)',
    });
    const past = resolveTrims([{ input: 0 }, { input: 1, end: 7 }], [5, 6]);
    expect(past).toMatchObject({
      ok: false,
      index: 1,
      reason: expect.stringContaining("past the input's end"),
    });
    const twice = resolveTrims(
      [
        { input: 0, start: 1 },
        { input: 0, end: 2 },
      ],
      [5],
    );
    expect(twice).toMatchObject({ ok: false, index: 1, reason: 'input 1 is trimmed twice' });
    const empty = resolveTrims([{ input: 0, start: 3, end: 2 }], [5]);
    expect(empty).toMatchObject({ ok: false, reason: expect.stringContaining('keeps nothing') });
  });
});

describe('what a trimmed input keeps', () => {
  it('is its end (its own when null) less its start (0 when null)', () => {
    expect(keptSeconds({ duration: 600 })).toBe(600);
    expect(keptSeconds({ duration: 600, start: null, end: null })).toBe(600);
    expect(keptSeconds({ duration: 600, start: 100, end: 250 })).toBe(150);
    expect(keptSeconds({ duration: 600, start: 590, end: null })).toBe(10);
    expect(keptSeconds({ duration: 600, start: null, end: 30 })).toBe(30);
    // An end a hair past the file (forgiven by checkSpan) keeps no more than the file.
    expect(keptSeconds({ duration: 600, start: 0, end: 600.0005 })).toBe(600);
  });
});
