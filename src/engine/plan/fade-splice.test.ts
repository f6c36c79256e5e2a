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

describe('splicing trims into copied frames', () => {
  const copies = (plan: ReturnType<typeof planSplice>) =>
    plan.segments.filter((s): s is Extract<Segment, { kind: 'copy' }> => s.kind === 'copy');

  it('places each kept span exactly: the first within the first frame, the next right after the previous', () => {
    const inputs: SpliceInput[] = [
      { ...lame(500), keep: { start: 44100 * 3 + 17, end: 44100 * 9 + 5 } },
      { ...lame(400), keep: { start: 1000, end: 44100 * 8 } },
    ];
    const plan = planSplice(inputs, [0], SPF);
    const [a, b] = plan.placements;
    expect(a.end - a.start).toBe(44100 * 6 - 12);
    expect(b.end - b.start).toBe(44100 * 8 - 1000);
    // The kept sample plays where its own frame lands: own raw position plus the shift.
    expect(a.start).toBe(a.shift * SPF + 576 + DECODER_DELAY + 44100 * 3 + 17);
    expect(b.start).toBe(b.shift * SPF + 576 + DECODER_DELAY + 1000);
    // The output's decoded audio starts at the first kept sample (the LAME delay skips the rest).
    expect(plan.delay).toBe(a.start - DECODER_DELAY);
    expect(plan.delay).toBeGreaterThanOrEqual(0);
    expect(plan.delay).toBeLessThan(SPF);
    // A hard join never overlaps, and leaves less than a frame between the two.
    expect(b.start).toBeGreaterThanOrEqual(a.end);
    expect(b.start - a.end).toBeLessThan(SPF);
    expect(plan.fades).toEqual([0]);
    // The decoded output ends at the last kept sample.
    expect(plan.totalFrames * SPF - plan.delay - plan.padding).toBe(b.end - a.start);
  });

  it('re-encodes only frames near a cut; every other kept frame is copied, nothing cut away', () => {
    const keepA = { start: 44100 * 3, end: 44100 * 9 };
    const keepB = { start: 44100, end: 44100 * 8 };
    const inputs: SpliceInput[] = [
      { ...lame(500), keep: keepA },
      { ...lame(400), keep: keepB },
    ];
    const plan = planSplice(inputs, [0], SPF);
    const shifts = plan.placements.map((p) => p.shift);
    const spans = outputFrames(plan.segments, shifts);
    expect(spans[0][0]).toBe(0);
    for (let k = 1; k < spans.length; k++) expect(spans[k][0]).toBe(spans[k - 1][1]);
    expect(spans.at(-1)![1]).toBe(plan.totalFrames);
    expect(plan.segments.map((s) => s.kind)).toEqual(['region', 'copy', 'region', 'copy', 'region']);
    // Each copy holds only frames of the kept span, and starts or ends within 3 frames of its cut.
    const own = (samples: number) => (samples + 576 + DECODER_DELAY) / SPF;
    const [ca, cb] = copies(plan);
    expect(ca.from).toBeGreaterThan(own(keepA.start));
    expect(ca.from - own(keepA.start)).toBeLessThanOrEqual(4);
    expect(ca.to).toBeLessThan(own(keepA.end));
    expect(own(keepA.end) - ca.to).toBeLessThanOrEqual(4);
    expect(cb.from).toBeGreaterThan(own(keepB.start));
    expect(cb.from - own(keepB.start)).toBeLessThanOrEqual(4);
    expect(own(keepB.end) - cb.to).toBeLessThanOrEqual(4);
    expect(cb.to).toBeLessThan(own(keepB.end));
  });

  it('mixes only the kept samples: nothing of an input outside its span reaches a region', () => {
    const inputs: SpliceInput[] = [{ ...lame(100), keep: { start: 5000, end: 50000 } }, lame(100)];
    const plan = planSplice(inputs, [0], SPF);
    const p = plan.placements[0];
    expect(spliceGain(plan.placements, plan.fades, 0, p.start - 1)).toBe(0);
    expect(spliceGain(plan.placements, plan.fades, 0, p.start)).toBe(1);
    expect(spliceGain(plan.placements, plan.fades, 0, p.end - 1)).toBe(1);
    expect(spliceGain(plan.placements, plan.fades, 0, p.end)).toBe(0);
  });

  it('puts a gap of silence between trimmed inputs, to within half a frame', () => {
    const inputs: SpliceInput[] = [{ ...lame(300), keep: { start: 0, end: 100000 } }, lame(300)];
    const plan = planSplice(inputs, [0], SPF, 2, 44100);
    const [a, b] = plan.placements;
    expect(Math.abs(b.start - a.end - 44100)).toBeLessThanOrEqual(SPF / 2);
    expect(plan.segments.map((s) => s.kind)).toEqual(['copy', 'region', 'copy']);
  });

  it('an untrimmed splice is as before: no region at either end', () => {
    const plan = planSplice([lame(300), lame(300)], [44100], SPF);
    expect(plan.segments.map((s) => s.kind)).toEqual(['copy', 'region', 'copy']);
    expect(plan.delay).toBe(576);
  });
});
