import { describe, expect, it } from 'vitest';
import type { Measurement } from '../ffmpeg/loudness.js';
import { GAIN_STEP_DB } from '../mp3/gain.js';
import {
  decodesEverything,
  keptRange,
  needsMeasuring,
  planSound,
  type SoundPlanInput,
} from './sound-plan.js';
import { KEEP_SECONDS } from './trim-silence.js';

const mp3In = (name: string, seconds: number): SoundPlanInput => ({
  name,
  durationSeconds: seconds,
  copy: true,
  mp3Copy: true,
  lossyOutput: true,
  mp3: {
    frames: Math.ceil((seconds * 44100 + 1105) / 1152),
    samplesPerFrame: 1152,
    sampleRate: 44100,
    encoderDelay: 576,
  },
});
const wavIn = (name: string, seconds: number): SoundPlanInput => ({
  name,
  durationSeconds: seconds,
  copy: false,
  mp3Copy: false,
  lossyOutput: true,
});
const measured = (
  lufs: number | null,
  peak: number | null,
  seconds: number,
  silences: Measurement['silences'] = [],
): Measurement => ({
  integratedLufs: lufs,
  truePeakDb: peak,
  decodedSeconds: seconds,
  silences,
});

describe('planning the sound of a merge', () => {
  it('matches loudness: copied MP3s in whole steps and still copied, decoded inputs in dB, all reported', () => {
    const plan = planSound(
      [mp3In('a.mp3', 10), wavIn('b.wav', 10), wavIn('c.wav', 10)],
      [measured(-24, -20, 10), measured(-9, -6, 10), measured(-30, -3, 10)],
      { loudness: -16 },
    );
    expect(plan.inputs[0]).toMatchObject({ copy: true, gain: { steps: 5, limited: false } });
    expect(plan.inputs[1]).toMatchObject({ copy: false, gain: { gainDb: -7, limited: false } });
    // Its peaks would hold a plain gain 12.5 dB short: the whole gain, and a limiter.
    expect(plan.inputs[2].gain).toEqual({ gainDb: 14, limited: false, limiter: true });
    expect(plan.loudness).toEqual([
      { input: 0, measured: -24, gainDb: Math.round(5 * GAIN_STEP_DB * 100) / 100 },
      { input: 1, measured: -9, gainDb: -7 },
      { input: 2, measured: -30, gainDb: 14, limiter: true },
    ]);
    expect(plan.messages).toEqual([]);
  });

  it('decodes a copied MP3 whose peaks keep its steps from the target, to limit it', () => {
    const plan = planSound(
      [mp3In('a.mp3', 10), mp3In('b.mp3', 10)],
      [measured(-24, -20, 10), measured(-30, -2, 10)],
      {
        loudness: -16,
      },
    );
    expect(plan.inputs[0]).toMatchObject({ copy: true, gain: { steps: 5 } });
    expect(plan.inputs[1]).toMatchObject({ copy: false, gain: { gainDb: 14, limiter: true } });
  });

  it('still limits the gain a little where that is within half a decibel, saying so', () => {
    const plan = planSound([wavIn('c.wav', 10)], [measured(-18.8, -6, 10)], { loudness: -16 });
    expect(plan.inputs[0].gain).toEqual({ gainDb: 2.5, limited: true });
    expect(plan.messages).toEqual([
      'c.wav: gain limited to 2.5 dB (0.3 dB short of -16 LUFS) to keep peaks under -1 dBTP',
    ]);
  });

  it('places inputs after gaps, and chapters with them', () => {
    const plan = planSound([wavIn('a', 2), wavIn('b', 3), wavIn('c', 1)], [], { gap: 0.5 });
    expect(plan.starts).toEqual([0, 2.5, 6]);
    expect(plan.fades.every((f) => f.seconds === 0)).toBe(true);
  });

  it('fits crossfades to short pairs, says so, and decodes every input for them', () => {
    const plan = planSound([mp3In('a.mp3', 10), mp3In('b.mp3', 1), mp3In('c.mp3', 10)], [], { crossfade: 2 });
    expect(plan.inputs.every((p) => !p.copy)).toBe(true);
    expect(plan.fades.map((f) => f.seconds)).toEqual([0.5, 0.5]);
    expect(plan.messages).toHaveLength(2);
    expect(plan.messages[0]).toMatch(/^crossfade between a\.mp3 and b\.mp3 shortened to 0\.500 s/);
    expect(plan.starts).toEqual([0, 9.5, 10]);
  });

  it('trims a decoded input in seconds and a copied MP3 in whole frames, and times the rest by what is kept', () => {
    const silences = [
      { start: 0, end: 1 },
      { start: 4, end: 5 },
    ];
    const plan = planSound(
      [wavIn('a.wav', 5), mp3In('b.mp3', 5)],
      [measured(-20, -10, 5, silences), measured(-20, -10, 5, silences)],
      { trimSilence: true },
    );
    expect(plan.inputs[0].keep).toEqual({ start: 0.97, end: 4.03 });
    expect(plan.inputs[0].durationSeconds).toBeCloseTo(3.06, 9);
    const f = plan.inputs[1].keepFrames!;
    const frame = 1152 / 44100;
    const shift = (576 + 529) / 44100;
    expect(f.first * frame).toBeLessThanOrEqual(0.97 + shift);
    expect(f.end * frame).toBeGreaterThanOrEqual(4.03 + shift);
    expect(plan.inputs[1].copy).toBe(true);
    expect(plan.starts[1]).toBeCloseTo(3.06, 9);
  });

  it('knows when measuring is needed and when everything must be decoded', () => {
    expect(needsMeasuring({})).toBe(false);
    expect(needsMeasuring({ loudness: -16 })).toBe(true);
    expect(needsMeasuring({ trimSilence: true })).toBe(true);
    expect(decodesEverything({ gap: 2 })).toBe(false);
    expect(decodesEverything({ gapless: true })).toBe(true);
    expect(decodesEverything({ crossfade: 1 })).toBe(true);
  });
});

describe('trims in the sound plan', () => {
  const silentEnds = (duration: number): Measurement => ({
    integratedLufs: -20,
    truePeakDb: -3,
    decodedSeconds: duration,
    silences: [
      { start: 0, end: 1 },
      { start: duration - 2, end: duration },
    ],
  });

  it('keeps the trim; with --trim-silence, what is not silence inside it (its silences counted from its start)', () => {
    expect(keptRange({ start: 5, end: 15 }, undefined, false, 30)).toEqual({ start: 5, end: 15 });
    // The measuring decode saw only 5..15: silent 5..6 and 13..15.
    const inner = keptRange({ start: 5, end: 15 }, silentEnds(10), true, 30);
    expect(inner!.start).toBeCloseTo(6 - KEEP_SECONDS, 9);
    expect(inner!.end).toBeCloseTo(13 + KEEP_SECONDS, 9);
  });

  it('gives decoded inputs and spliced MP3 copies their kept seconds, the chapters following', () => {
    const trims = [{ start: 1, end: 3 }, undefined];
    const decoded = planSound([wavIn('a', 10), wavIn('b', 4)], [], { trims });
    expect(decoded.inputs[0]).toMatchObject({ keep: { start: 1, end: 3 }, durationSeconds: 2 });
    expect(decoded.starts).toEqual([0, 2]);
    const spliced = planSound([mp3In('a', 10), mp3In('b', 4)], [], { trims, gap: 1 }, false, true);
    expect(spliced.inputs[0]).toMatchObject({ copy: true, keep: { start: 1, end: 3 }, durationSeconds: 2 });
    expect(spliced.inputs[0].keepFrames).toBeUndefined();
    expect(spliced.starts).toEqual([0, 3]);
  });
});
