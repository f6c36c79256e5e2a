import { describe, expect, it } from 'vitest';
import {
  constantPowerGains,
  fitCrossfade,
  inputStarts,
  planCrossfades,
  shortenedMessage,
} from './crossfade.js';

describe('crossfade arithmetic', () => {
  it('keeps the summed power constant through the fade, -3 dB each at the midpoint', () => {
    for (let t = 0; t <= 1; t += 0.05) {
      const g = constantPowerGains(t);
      expect(g.out ** 2 + g.in ** 2).toBeCloseTo(1, 12);
    }
    const mid = constantPowerGains(0.5);
    expect(20 * Math.log10(mid.out)).toBeCloseTo(-3.01, 2);
    expect(constantPowerGains(0)).toEqual({ out: 1, in: 0 });
    expect(constantPowerGains(1).in).toBe(1);
    expect(constantPowerGains(1).out).toBeCloseTo(0, 12);
  });

  it('uses the asked length when both inputs are at least twice as long', () => {
    expect(fitCrossfade(2, 4, 10)).toEqual({ seconds: 2, shortened: false });
    expect(fitCrossfade(0, 1, 1)).toEqual({ seconds: 0, shortened: false });
  });

  it('shortens the fade to half the shorter input, and says so', () => {
    const fit = fitCrossfade(2, 3, 10);
    expect(fit).toEqual({ seconds: 1.5, shortened: true });
    expect(shortenedMessage('a.mp3', 'b.wav', 2, fit)).toBe(
      'crossfade between a.mp3 and b.wav shortened to 1.500 s (asked 2 s): one of them is shorter than 4.000 s',
    );
  });

  it('fits each join on its own and puts each input where its fade in begins', () => {
    const fades = planCrossfades(1, [10, 1.5, 10]);
    expect(fades).toEqual([
      { seconds: 0.75, shortened: true },
      { seconds: 0.75, shortened: true },
    ]);
    expect(inputStarts([10, 1.5, 10], 0, fades)).toEqual([0, 9.25, 10]);
  });

  it('places inputs after gaps', () => {
    expect(inputStarts([2, 3, 4], 0.5)).toEqual([0, 2.5, 6]);
    expect(inputStarts([2], 0.5)).toEqual([0]);
  });
});
