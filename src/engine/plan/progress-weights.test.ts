import { describe, expect, it } from 'vitest';
import { ProgressTracker } from './progress.js';
import { progressWeights, STEP_COST } from './progress-weights.js';

/** Where the bar stands once every input is measured, and once every input is decoded or encoded. */
function barAtPhaseEnds(
  format: Parameters<typeof progressWeights>[0],
  route: Parameters<typeof progressWeights>[1],
  mixing = false,
) {
  const w = progressWeights(format, route, mixing);
  const durations = [60, 60, 60];
  const all = [0, 1, 2];
  const t = new ProgressTracker(durations, all, () => {}, w.last, all, w.measure);
  for (const i of all) t.measure(i, 1);
  const measured = t.percent;
  for (const i of all) t.transcode(i, 1);
  return { measured, decoded: t.percent };
}

/** The share of the work done at the same points, from the cost table directly. */
function costShares(perInput: number, last: number) {
  const total = STEP_COST.measure + perInput + last;
  return {
    measured: (100 * STEP_COST.measure) / total,
    decoded: (100 * (STEP_COST.measure + perInput)) / total,
  };
}

describe('progress weights', () => {
  it('an MP3 merge: encodes outweigh measuring, and the in-process join is a sliver', () => {
    const bar = barAtPhaseEnds('mp3', 'mp3-frames');
    const cost = costShares(STEP_COST.encode.mp3, STEP_COST.joinInProcess);
    expect(Math.abs(bar.measured - cost.measured)).toBeLessThanOrEqual(1);
    expect(bar.measured).toBeLessThan(20);
    expect(bar.decoded).toBeGreaterThanOrEqual(99);
  });

  it('an Opus merge: decoding to samples is quick, the one final encode is most of the bar', () => {
    const bar = barAtPhaseEnds('opus', 'pcm-encode');
    const cost = costShares(STEP_COST.decodeToPcm, STEP_COST.encode.opus);
    expect(Math.abs(bar.decoded - cost.decoded)).toBeLessThanOrEqual(1);
    expect(bar.decoded).toBeLessThan(20);
  });

  it('a crossfade into M4B ends in one AAC encode, weighed as such', () => {
    const mixed = progressWeights('m4b', 'mp4-packets', true);
    expect(mixed.last * STEP_COST.decodeToPcm).toBeCloseTo(STEP_COST.encode.m4b);
    // Without mixing, the AAC encodes are per input and the join is copying packets.
    const plain = progressWeights('m4b', 'mp4-packets', false);
    expect(plain.last * STEP_COST.encode.m4b).toBeCloseTo(STEP_COST.joinInProcess);
    expect(plain.measure * STEP_COST.encode.m4b).toBeCloseTo(STEP_COST.measure);
  });

  it('FLAC and WAV: the final write costs little, but not nothing', () => {
    for (const format of ['flac', 'wav'] as const) {
      const w = progressWeights(format, 'pcm-encode', false);
      expect(w.last).toBeGreaterThan(0);
      expect(w.last).toBeLessThan(w.measure);
    }
  });
});
