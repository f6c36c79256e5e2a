import { describe, expect, it } from 'vitest';
import { GAIN_STEP_DB } from '../mp3/gain.js';
import { chooseGain, limitedMessage, needsLimiter, peakLimit } from './loudness-plan.js';

const plain = { mp3Steps: false, lossyEncode: false };
const encoded = { mp3Steps: false, lossyEncode: true };
const mp3 = { mp3Steps: true, lossyEncode: false };

describe("choosing each input's gain", () => {
  it('brings a quiet and a loud input to the target when their peaks allow', () => {
    expect(chooseGain({ integratedLufs: -32, truePeakDb: -30 }, -16, plain)).toEqual({
      gainDb: 16,
      limited: false,
    });
    expect(chooseGain({ integratedLufs: -9, truePeakDb: -8 }, -16, plain)).toEqual({
      gainDb: -7,
      limited: false,
    });
  });

  it('lowers the gain by a little rather than let the true peak pass -1 dBTP, and says it was limited', () => {
    const c = chooseGain({ integratedLufs: -19.3, truePeakDb: -4 }, -16, plain);
    expect(c).toEqual({ gainDb: 3, limited: true });
  });

  it('applies the whole gain with a limiter where the peaks would hold it back by more than half a decibel', () => {
    // A quiet interview with a few loud peaks: 8 dB wanted, 3 dB of headroom.
    expect(chooseGain({ integratedLufs: -24, truePeakDb: -4 }, -16, plain)).toEqual({
      gainDb: 8,
      limited: false,
      limiter: true,
    });
    expect(needsLimiter({ integratedLufs: -24, truePeakDb: -4 }, -16, false)).toBe(true);
    expect(needsLimiter({ integratedLufs: -19.3, truePeakDb: -4 }, -16, false)).toBe(false);
    expect(needsLimiter({ integratedLufs: null, truePeakDb: null }, -16, false)).toBe(false);
  });

  it('leaves more headroom for inputs that a lossy encoder will see', () => {
    expect(peakLimit(-6, true)).toBe(2.5);
    expect(chooseGain({ integratedLufs: -18.8, truePeakDb: -6 }, -16, encoded)).toEqual({
      gainDb: 2.5,
      limited: true,
    });
  });

  it('moves a copied MP3 by the nearest whole 1.5 dB step', () => {
    const c = chooseGain({ integratedLufs: -21.1, truePeakDb: -20 }, -16, mp3);
    expect(c.steps).toBe(3); // 5.1 dB wanted: 3 steps (4.52) is nearer than 4 (6.02)
    expect(c.gainDb).toBeCloseTo(3 * GAIN_STEP_DB, 2);
    expect(c.limited).toBe(false);
    expect(chooseGain({ integratedLufs: -9, truePeakDb: -8 }, -16, mp3).steps).toBe(-5); // -7 dB: -7.53
  });

  it('takes the step below when the nearest would pass the ceiling', () => {
    // 8 dB wanted (5 steps = 7.53 nearest), but only 6.5 dB of headroom: 4 steps (6.02).
    const c = chooseGain({ integratedLufs: -24, truePeakDb: -7.5 }, -16, mp3);
    expect(c).toMatchObject({ steps: 4, limited: true });
    expect(-7.5 + c.gainDb).toBeLessThanOrEqual(-1);
  });

  it('leaves digital silence alone', () => {
    expect(chooseGain({ integratedLufs: null, truePeakDb: null }, -16, mp3)).toEqual({
      gainDb: 0,
      steps: 0,
      limited: false,
    });
    expect(chooseGain({ integratedLufs: null, truePeakDb: null }, -16, plain)).toEqual({
      gainDb: 0,
      limited: false,
    });
  });

  it('says how far short of the target a limited input stays', () => {
    expect(limitedMessage('b.wav', { gainDb: 3, limited: true }, -16, -24)).toBe(
      'b.wav: gain limited to 3.0 dB (5.0 dB short of -16 LUFS) to keep peaks under -1 dBTP',
    );
  });
});
