import { describe, expect, it } from 'vitest';
import { KEEP_SECONDS, keepFrames, keepRange } from './trim-silence.js';

describe('what --trim-silence keeps', () => {
  it('cuts leading and trailing silence but keeps a few milliseconds at each end', () => {
    const r = keepRange(
      [
        { start: 0, end: 1.2 },
        { start: 4, end: 4.3 },
        { start: 8.5, end: 10 },
      ],
      10,
    );
    expect(r.start).toBeCloseTo(1.2 - KEEP_SECONDS, 9);
    expect(r.end).toBeCloseTo(8.5 + KEEP_SECONDS, 9);
    expect(KEEP_SECONDS).toBeGreaterThanOrEqual(0.01);
    expect(KEEP_SECONDS).toBeLessThanOrEqual(0.05);
  });

  it('leaves pauses in the middle, and inputs without silence at the ends, alone', () => {
    expect(keepRange([{ start: 4, end: 4.3 }], 10)).toEqual({ start: 0, end: 10 });
    expect(keepRange([], 10)).toEqual({ start: 0, end: 10 });
  });

  it('keeps a sliver of an input that is silence throughout', () => {
    expect(keepRange([{ start: 0, end: 5 }], 5)).toEqual({ start: 0, end: KEEP_SECONDS });
  });

  it("rounds a copied MP3's range outwards to whole frames, counting the encoder delay", () => {
    const frame = 1152 / 44100;
    const r = { start: 1.0, end: 2.0 };
    const f = keepFrames(r, frame, 200, 1105 / 44100);
    expect(f.first * frame).toBeLessThanOrEqual(1.0 + 1105 / 44100);
    expect((f.first + 1) * frame).toBeGreaterThan(1.0 + 1105 / 44100);
    expect(f.end * frame).toBeGreaterThanOrEqual(2.0 + 1105 / 44100);
    expect((f.end - 1) * frame).toBeLessThan(2.0 + 1105 / 44100);
    expect(keepFrames({ start: 0, end: 100 }, frame, 200)).toEqual({ first: 0, end: 200 });
  });
});
