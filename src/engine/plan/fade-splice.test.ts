import { describe, expect, it } from 'vitest';
import { constantPowerGains } from './crossfade.js';
import {
  DECODER_DELAY,
  decodedLength,
  decodeSpan,
  ENCODE_DECODE_DELAY,
  mixSpan,
  placeInputs,
  planSplice,
  regionCodec,
  spliceGain,
  type Segment,
  type SpliceInput,
} from './fade-splice.js';

const SPF = 1152;
const lame = (frames: number, padding = 1000): SpliceInput => ({ frames, delay: 576, padding });

/** Output frames each segment fills, in order, as [from, to) of the output. */
function outputFrames(segments: Segment[], shifts: number[]): Array<[number, number]> {
  return segments.map((s) =>
    s.kind === 'copy' ? [s.from + shifts[s.input], s.to + shifts[s.input]] : [s.from, s.to],
  );
}

describe('placing copied MP3s for crossfades', () => {
  it('puts each next input where the previous ends less the fade, to within half a frame, on whole frames', () => {
    const inputs = [lame(200), lame(300, 700), lame(150)];
    const fades = [44100, 22050];
    const { placements, fades: placed } = placeInputs(inputs, fades, SPF);
    expect(placements[0]).toEqual({
      start: 576 + DECODER_DELAY,
      end: 576 + DECODER_DELAY + decodedLength(inputs[0], SPF),
      shift: 0,
    });
    for (let i = 1; i < 3; i++) {
      const p = placements[i];
      expect(Math.abs(placed[i - 1] - fades[i - 1])).toBeLessThanOrEqual(SPF / 2);
      expect(placed[i - 1]).toBe(placements[i - 1].end - p.start);
      // Its own frames land on output frames: sample 0 sits its own delay into its frame 0.
      expect(p.start - p.shift * SPF).toBe(576 + DECODER_DELAY);
      expect(p.end - p.start).toBe(decodedLength(inputs[i], SPF));
    }
  });

  it('never overlaps more than half of either input, even when rounding would', () => {
    const inputs = [lame(100), lame(10, 0)];
    const half = Math.floor(decodedLength(inputs[1], SPF) / 2);
    const { fades } = placeInputs(inputs, [half], SPF);
    expect(fades[0]).toBeLessThanOrEqual(half);
    expect(fades[0]).toBeGreaterThan(half - SPF);
  });
});

describe('splicing crossfades into copied frames', () => {
  it('copies every frame but a region around each fade, the output frames back to back', () => {
    const inputs = [lame(500), lame(400), lame(300)];
    const plan = planSplice(inputs, [44100, 44100], SPF);
    const shifts = plan.placements.map((p) => p.shift);
    expect(plan.segments.map((s) => s.kind)).toEqual(['copy', 'region', 'copy', 'region', 'copy']);
    const spans = outputFrames(plan.segments, shifts);
    expect(spans[0][0]).toBe(0);
    for (let k = 1; k < spans.length; k++) expect(spans[k][0]).toBe(spans[k - 1][1]);
    expect(spans[spans.length - 1][1]).toBe(plan.totalFrames);
    // Each region holds its fade with two frames to spare on either side, and no more than one over.
    for (const j of [0, 1]) {
      const r = plan.segments[2 * j + 1] as Extract<Segment, { kind: 'region' }>;
      const fadeFrom = plan.placements[j + 1].start;
      const fadeTo = plan.placements[j].end;
      expect(r.from * SPF).toBeLessThanOrEqual(fadeFrom - 2 * SPF);
      expect(r.from * SPF).toBeGreaterThan(fadeFrom - 3 * SPF);
      expect(r.to * SPF).toBeGreaterThanOrEqual(fadeTo + 2 * SPF);
      expect(r.to * SPF).toBeLessThan(fadeTo + 3 * SPF);
    }
    // The copies are whole runs of each input's own frames, from its first to its last.
    expect(plan.segments[0]).toMatchObject({ input: 0, from: 0 });
    expect(plan.segments[4]).toMatchObject({ input: 2, to: 300 });
  });

  it('pads the output so a decoder ends on the last input last sample', () => {
    const inputs = [lame(500), lame(400, 1300)];
    const plan = planSplice(inputs, [44100], SPF);
    const heard = plan.totalFrames * SPF - plan.delay - plan.padding;
    expect(heard).toBe(plan.placements[1].end - plan.placements[0].start);
    expect(plan.padding).toBe(1300);
  });

  it('takes an input shorter than its fades and margins whole into one region', () => {
    const inputs = [lame(300), lame(60), lame(300)];
    const half = Math.floor(decodedLength(inputs[1], SPF) / 2);
    const plan = planSplice(inputs, [half, half], SPF);
    expect(plan.segments.map((s) => s.kind)).toEqual(['copy', 'region', 'copy']);
    expect(plan.segments.some((s) => s.kind === 'copy' && s.input === 1)).toBe(false);
    const spans = outputFrames(
      plan.segments,
      plan.placements.map((p) => p.shift),
    );
    expect(spans[1][0]).toBe(spans[0][1]);
    expect(spans[2][0]).toBe(spans[1][1]);
  });

  it('lets a region run to the end when the last input is all fade', () => {
    const inputs = [lame(300), lame(5, 600)];
    const plan = planSplice(inputs, [Math.floor(decodedLength(inputs[1], SPF) / 2)], SPF);
    expect(plan.segments.map((s) => s.kind)).toEqual(['copy', 'region']);
    expect((plan.segments[1] as { to: number }).to).toBe(plan.totalFrames);
  });
});

describe('the re-encoded region', () => {
  it('feeds the encoder so its frame `skip + k` plays where output frame `from + k` does', () => {
    const codec = regionCodec({ from: 100, to: 140 }, SPF, 4, 2);
    expect(codec.skip).toBe(4);
    // Encoded frame q plays its input's sample q*spf - 1105; output frame 100 is raw 100*spf.
    expect(codec.from + 4 * SPF - ENCODE_DECODE_DELAY).toBe(100 * SPF);
    expect(codec.to).toBe(142 * SPF + ENCODE_DECODE_DELAY);
  });

  it('decodes the frames holding an input part of a span, led by frames that settle the decoder', () => {
    const p = { start: 10 * SPF + 1105, end: 200 * SPF, shift: 10 };
    const span = decodeSpan(p, 190, { from: 50 * SPF, to: 60 * SPF }, SPF, 4)!;
    expect(span).toEqual({ from: 36, to: 51, rawStart: 46 * SPF });
    expect(decodeSpan(p, 190, { from: 0, to: 5 * SPF }, SPF)).toBeUndefined();
    // Near its start nothing comes before its frame 0.
    expect(decodeSpan(p, 190, { from: 0, to: 12 * SPF }, SPF)!.from).toBe(0);
  });

  it('mixes with the constant-power curves sample for sample', () => {
    const placements = [
      { start: 0, end: 10, shift: 0 },
      { start: 6, end: 20, shift: 0 },
    ];
    const fades = [4];
    expect(spliceGain(placements, fades, 0, 5)).toBe(1);
    expect(spliceGain(placements, fades, 0, 7)).toBeCloseTo(constantPowerGains(1.5 / 4).out, 12);
    expect(spliceGain(placements, fades, 1, 7)).toBeCloseTo(constantPowerGains(1.5 / 4).in, 12);
    expect(spliceGain(placements, fades, 0, 10)).toBe(0);
    const ones = (n: number) => new Float32Array(n).fill(1);
    const mixed = mixSpan(
      { from: 4, to: 12 },
      1,
      [
        { input: 0, rawStart: 0, samples: ones(10) },
        { input: 1, rawStart: 6, samples: ones(14) },
      ],
      placements,
      fades,
    );
    expect(mixed[0]).toBe(1);
    for (let r = 6; r < 10; r++) {
      const g = constantPowerGains((r - 6 + 0.5) / 4);
      expect(mixed[r - 4]).toBeCloseTo(g.out + g.in, 6);
    }
    expect(mixed[7]).toBe(1);
  });
});
