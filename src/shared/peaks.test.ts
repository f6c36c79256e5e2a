import { describe, expect, it } from 'vitest';
import {
  encodePeaks,
  FIRST_BIN,
  MIN_BINS,
  parsePeaks,
  PeakAccumulator,
  peaksDuration,
  poolPeaks,
} from './peaks.js';

/** Interleaved 16-bit little-endian samples. */
function pcm(samples: number[]): Buffer {
  const b = Buffer.alloc(samples.length * 2);
  samples.forEach((v, i) => b.writeInt16LE(v, i * 2));
  return b;
}

describe('peaks', () => {
  it('takes the largest absolute sample of any channel, whatever the chunks split (mid-sample too)', () => {
    // Stereo: 4 bins of silence, then one bin whose loudest sample is on the right, negative.
    const frames: number[] = [];
    for (let i = 0; i < 4 * FIRST_BIN; i++) frames.push(0, 0);
    for (let i = 0; i < FIRST_BIN; i++) frames.push(100, i === 7 ? -16384 : 5);
    const bytes = pcm(frames);
    const whole = new PeakAccumulator(2, 8000);
    whole.push(bytes);
    const pieces = new PeakAccumulator(2, 8000);
    for (let at = 0; at < bytes.length; at += 7) pieces.push(bytes.subarray(at, at + 7));
    for (const acc of [whole, pieces]) {
      const t = acc.finish();
      expect(t.samples).toBe(5 * FIRST_BIN);
      expect(peaksDuration(t)).toBeCloseTo((5 * FIRST_BIN) / 8000, 9);
      expect(poolPeaks(t, 5)).toEqual([0, 0, 0, 0, 0.5]);
    }
  });

  it('keeps between MIN_BINS and twice that for a long file, and a peak is never lost by the merging', () => {
    const acc = new PeakAccumulator(1, 44100);
    const n = FIRST_BIN * MIN_BINS * 5 + 3;
    const samples = new Array<number>(n).fill(10);
    samples[n - 2] = 32767; // the very end
    samples[123_457] = -32768; // full scale, early on
    acc.push(pcm(samples));
    const t = acc.finish();
    expect(t.bins.length).toBeGreaterThanOrEqual(MIN_BINS);
    expect(t.bins.length).toBeLessThanOrEqual(2 * MIN_BINS);
    expect(t.samples).toBe(n);
    const p = poolPeaks(t, 1000);
    expect(p[Math.floor((123_457 / n) * 1000)]).toBe(1);
    expect(p[999]).toBe(1);
    expect(Math.max(...p.slice(200, 990))).toBeLessThan(0.001);
  });

  it('reads back what it wrote, and refuses bytes that are not a table', () => {
    const acc = new PeakAccumulator(1, 22050);
    acc.push(pcm([1000, -2000, 3000, 0, 0, 0, 0]));
    const t = acc.finish();
    const back = parsePeaks(encodePeaks(t));
    expect(back).toEqual(t);
    expect(parsePeaks(Buffer.from('not a peak table at all'))).toBeUndefined();
    expect(parsePeaks(Buffer.alloc(3))).toBeUndefined();
  });

  it('answers zeros for a file with no samples', () => {
    expect(poolPeaks(new PeakAccumulator(2, 44100).finish(), 3)).toEqual([0, 0, 0]);
  });
});
