import { describe, expect, it } from 'vitest';
import { AbortError, InputError, OutputError } from '../errors.js';
import {
  aacPartReason,
  checkStage,
  FastPathError,
  fallbackLine,
  fallbackOf,
  gainedFramesReason,
  joinedFramesReason,
  lengthReason,
  mp4ShapeReason,
  plainSound,
} from './fallback.js';
import type { SoundPlan } from './sound-plan.js';

describe('checkStage', () => {
  it('passes when the check finds nothing, and throws the stage with the reason it finds', () => {
    expect(() => checkStage(undefined, 'mp3-join', () => undefined)).not.toThrow();
    expect(() => checkStage([], 'mp3-join', () => 'lost a part')).toThrow(
      expect.objectContaining({ stage: 'mp3-join', reason: 'lost a part' }),
    );
  });

  it("fails a forced stage without running its check, and leaves the other stages' checks alone", () => {
    let ran = false;
    const check = () => {
      ran = true;
      return undefined;
    };
    expect(() => checkStage(['aac-copy'], 'aac-copy', check)).toThrow(FastPathError);
    expect(ran).toBe(false);
    expect(() => checkStage(new Set(['aac-copy'] as const), 'mp3-join', check)).not.toThrow();
    expect(ran).toBe(true);
  });
});

describe('fallbackOf', () => {
  it("falls back for a failed check (its own stage) and for the fast path's own error (the route's stage)", () => {
    expect(fallbackOf(new FastPathError('chunked-encode', 'primed 288'), 'aac-copy')).toEqual({
      stage: 'chunked-encode',
      reason: 'primed 288',
    });
    expect(fallbackOf(new Error('internal: a region is short'), 'mp3-splice')).toEqual({
      stage: 'mp3-splice',
      reason: 'a region is short',
    });
    expect(fallbackOf(new Error('the encode failed (\n  line one\nline two)'), 'aac-copy')?.reason).toBe(
      'the encode failed ( line one line two)',
    );
  });

  it("never for an input's fault, the output's, a full disk or a cancel", () => {
    expect(fallbackOf(new InputError('a.mp3', 'bad-mp3', 'no frames', 0), 'mp3-join')).toBeUndefined();
    expect(fallbackOf(new OutputError('cannot write', 'disk-full'), 'mp3-join')).toBeUndefined();
    expect(fallbackOf(new AbortError(), 'mp3-join')).toBeUndefined();
    const enospc = Object.assign(new Error('ENOSPC: no space left'), { syscall: 'write', code: 'ENOSPC' });
    expect(fallbackOf(enospc, 'aac-copy')).toBeUndefined();
    expect(fallbackOf('a string', 'aac-copy')).toBeUndefined();
  });
});

describe('the checks', () => {
  it('lengthReason: within the tolerance is fine; beyond it says both lengths in seconds', () => {
    expect(lengthReason('x', 44100 + 1152, 44100, 1152, 44100)).toBeUndefined();
    expect(lengthReason('the joined MP3', 44100 + 1153, 44100, 1152, 44100)).toBe(
      'the joined MP3 is 1.026 s long where 1.000 s was planned',
    );
    expect(lengthReason('x', 44100 - 1153, 44100, 1152, 44100)).toMatch(/0\.974 s long/);
  });

  it('joinedFramesReason: a part may lose a little junk, never gain frames, never lose more than the slack', () => {
    expect(joinedFramesReason([100, 50], [100, 48], 2)).toBeUndefined();
    expect(joinedFramesReason([100, 50], [100, 47], 2)).toBe(
      'the join wrote 47 frames of part 2, whose scan counted 50',
    );
    expect(joinedFramesReason([100], [101], 2)).toMatch(/101 frames of part 1/);
    expect(joinedFramesReason([100, 50], [100], 2)).toBe('the join wrote 1 parts of 2');
  });

  it('gainedFramesReason: every frame of a part with a gain has it; parts without one are not counted', () => {
    expect(gainedFramesReason([3, undefined, 0], [10, 0, 0], [10, 20, 30])).toBeUndefined();
    expect(gainedFramesReason([undefined, -2], [0, 19], [10, 20])).toBe(
      'the gain reached 19 of the 20 frames of part 2',
    );
  });

  it('mp4ShapeReason: packets, then priming, then samples, read back against the parts', () => {
    const want = { packets: 10, priming: 1024, audioSamples: 9000 };
    expect(mp4ShapeReason(want, want)).toBeUndefined();
    expect(mp4ShapeReason({ ...want, packets: 9 }, want)).toBe('the output holds 9 packets of 10');
    expect(mp4ShapeReason({ ...want, priming: 288 }, want)).toBe(
      "the output's edit list skips 288 samples, not 1024",
    );
    expect(mp4ShapeReason({ ...want, audioSamples: 8999 }, want)).toMatch(/8999 samples, not 9000/);
  });

  it('aacPartReason: an edit list that reaches past its packets, or presents nothing, is refused', () => {
    expect(aacPartReason([{ packets: 10, priming: 1024, audioSamples: 9216 }], 1024)).toBeUndefined();
    expect(aacPartReason([{ packets: 10, priming: 1024, audioSamples: 9217 }], 1024)).toBe(
      'part 1 presents 1024 + 9217 samples from 10 packets',
    );
    expect(aacPartReason([{ packets: 10, priming: 0, audioSamples: 0 }], 1024)).toMatch(/part 1/);
  });

  it("fallbackLine: one line naming the stage and the reason, in the command line's voice", () => {
    expect(fallbackLine({ stage: 'aac-copy', reason: 'the output holds 9 packets of 10' })).toBe(
      'audio-merge: fell back to decoding and one encode for aac-copy: the output holds 9 packets of 10',
    );
  });
});

describe('plainSound', () => {
  const sound = (inputs: SoundPlan['inputs']): SoundPlan => ({
    inputs,
    gap: 0.5,
    fades: [],
    starts: [],
    messages: [],
  });

  it('decodes every input, keeping its gain, its span in seconds, the gap and the fades', () => {
    const planned = sound([
      { copy: true, gain: { gainDb: -3 * 1.5, steps: -3, limited: false }, durationSeconds: 2 },
      { copy: false, keep: { start: 0.5, end: 1.5 }, durationSeconds: 1 },
    ]);
    const plain = plainSound(planned, [undefined, undefined]);
    expect(plain.inputs.map((p) => p.copy)).toEqual([false, false]);
    expect(plain.inputs[0].gain?.gainDb).toBe(-4.5);
    expect(plain.inputs[1].keep).toEqual({ start: 0.5, end: 1.5 });
    expect(plain.gap).toBe(0.5);
  });

  it("turns a copied MP3's whole-frame span into the seconds of its decode (delay and decoder delay skipped)", () => {
    const planned = sound([{ copy: true, keepFrames: { first: 10, end: 50 }, durationSeconds: 40 * 0.026 }]);
    const plain = plainSound(planned, [{ samplesPerFrame: 1152, sampleRate: 44100, skipped: 576 + 529 }]);
    expect(plain.inputs[0].keepFrames).toBeUndefined();
    expect(plain.inputs[0].keep!.start).toBeCloseTo((10 * 1152 - 1105) / 44100, 9);
    expect(plain.inputs[0].keep!.end).toBeCloseTo((50 * 1152 - 1105) / 44100, 9);
    // A span from the first frame starts at the decode's start, not before it.
    const first = plainSound(
      sound([{ copy: true, keepFrames: { first: 0, end: 5 }, durationSeconds: 0.1 }]),
      [{ samplesPerFrame: 1152, sampleRate: 44100, skipped: 1105 }],
    );
    expect(first.inputs[0].keep!.start).toBe(0);
  });
});
