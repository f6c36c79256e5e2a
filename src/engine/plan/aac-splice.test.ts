import { describe, expect, it } from 'vitest';
import {
  planAacSplice,
  SPLICE_ROLL,
  stretchFeed,
  stretchOwner,
  stretchPackets,
  stretchSeekSeconds,
  stretchCosts,
  weightsByInput,
  type SpliceSource,
  type SplicePlan,
  type StretchSegment,
} from './aac-splice.js';
import { ProgressTracker } from './progress.js';
import { progressWeights, STEP_COST } from './progress-weights.js';

const F = 1024;
const PRIMING = 1024;

/** An input of `seconds` at 44.1 kHz as ffmpeg's AAC encoder writes it: one frame of priming. */
function source(seconds: number, keep?: [number, number]): SpliceSource {
  const audioSamples = Math.round(seconds * 44100);
  return {
    packets: Math.ceil((audioSamples + PRIMING) / F),
    priming: PRIMING,
    audioSamples,
    ...(keep ? { keep: { start: Math.round(keep[0] * 44100), end: Math.round(keep[1] * 44100) } } : {}),
  };
}

const SILENCE = -1;
/** Decoded samples of input i at index d: i * 1e8 + d (d < 0: its priming, d >= audioSamples: its padding). */
const code = (i: number, d: number) => i * 1e8 + d;

/**
 * What a decoder presents, sample by sample: every packet as 1024 samples, the first segment's
 * skip dropped (the edit list), then up to the total. Also checks that each copy after the first
 * segment starts on a frame of the decoded stream.
 */
function present(sources: SpliceSource[], plan: SplicePlan): number[] {
  const out: number[] = [];
  let decoded = 0; // samples of the decoded stream before the segment, the skip included
  for (const [k, seg] of plan.segments.entries()) {
    if (seg.kind === 'copy') {
      if (k > 0) expect(decoded % F).toBe(0);
      const s = sources[seg.input];
      for (let m = seg.from * F + seg.skip; m < seg.to * F; m++) out.push(code(seg.input, m - s.priming));
      decoded += (seg.to - seg.from) * F;
    } else {
      const { skip, count } = stretchPackets(seg, PRIMING);
      if (!seg.final) expect(skip + seg.samples).toBe(count * F);
      for (const p of seg.pieces) {
        if ('silence' in p) for (let n = 0; n < p.silence; n++) out.push(SILENCE);
        else for (let d = p.from; d < p.to; d++) out.push(code(p.input, d));
      }
      decoded += count * F;
    }
  }
  return out.slice(0, plan.total);
}

/** Each input's kept samples lie in the output contiguous from its start, in order, and nothing else of it but its priming and padding. */
function expectExact(sources: SpliceSource[], plan: SplicePlan): number[] {
  const out = present(sources, plan);
  expect(out.length).toBe(plan.total);
  sources.forEach((s, i) => {
    const from = s.keep?.start ?? 0;
    const to = s.keep?.end ?? s.audioSamples;
    const at = plan.starts[i];
    expect(out[at]).toBe(code(i, from));
    expect(out[at + (to - from) - 1]).toBe(code(i, to - 1));
    for (let n = 0; n < to - from; n += 97) expect(out[at + n]).toBe(code(i, from + n));
  });
  const stray = out.filter((v) => {
    if (v === SILENCE) return false;
    const i = Math.round(v / 1e8);
    const d = v - i * 1e8;
    const s = sources[i];
    const inside = d >= (s.keep?.start ?? 0) && d < (s.keep?.end ?? s.audioSamples);
    const uncutEdge = (d < 0 && !s.keep?.start) || (d >= s.audioSamples && s.keep?.end === undefined);
    return !(inside || uncutEdge);
  });
  expect(stray).toEqual([]);
  return out;
}

describe('planAacSplice', () => {
  it('two trimmed inputs: re-encodes only around the four cuts, copies the rest, pads one join under a frame', () => {
    const sources = [source(4, [0.5, 2]), source(4, [2.5, 3.5])];
    const plan = planAacSplice(sources);
    expect(plan.segments.map((s) => s.kind)).toEqual(['stretch', 'copy', 'stretch', 'copy', 'stretch']);
    const out = expectExact(sources, plan);
    const aKept = Math.round(1.5 * 44100);
    const pad = plan.starts[1] - aKept;
    expect(plan.starts[0]).toBe(0);
    expect(pad).toBeGreaterThanOrEqual(0);
    expect(pad).toBeLessThan(F);
    expect(out.slice(aKept, plan.starts[1]).every((v) => v === SILENCE)).toBe(true);
    expect(plan.total).toBe(plan.starts[1] + 44100);
    // Every packet more than three frames from a cut is copied; none whose window reaches a cut.
    for (const [i, seg] of [plan.segments[1], plan.segments[3]].entries()) {
      if (seg.kind !== 'copy') throw new Error('copy expected');
      const { start, end } = sources[i].keep!;
      expect(seg.from).toBeLessThanOrEqual(Math.floor((start + PRIMING) / F) + 3);
      expect(seg.to).toBeGreaterThanOrEqual(Math.ceil((end + PRIMING) / F) - 3);
      expect((seg.from - 1) * F).toBeGreaterThanOrEqual(start + PRIMING + F);
      expect((seg.to + 1) * F).toBeLessThanOrEqual(end + PRIMING - F);
    }
  });

  it('the first stretch hides its pad in the skip the edit list makes: the file starts with the kept audio', () => {
    const plan = planAacSplice([source(3, [0.123, 3])]);
    const first = plan.segments[0];
    if (first.kind !== 'stretch') throw new Error('stretch expected');
    expect(first.pieces.every((p) => 'input' in p)).toBe(true);
    // Led in by the input's own audio before the cut, which the edit list skips with the priming.
    expect(first.preroll).toEqual({
      input: 0,
      from: Math.round(0.123 * 44100) - SPLICE_ROLL,
      to: Math.round(0.123 * 44100),
    });
    const { skip, count, first: packet } = stretchPackets(first, PRIMING);
    expect(packet).toBe(0);
    expect(skip).toBe(PRIMING + first.lead + SPLICE_ROLL);
    expect((skip + first.samples) % F).toBe(0);
    expect(count).toBe((skip + first.samples) / F);
    expectExact([source(3, [0.123, 3])], plan);
    expect(plan.total).toBe(Math.round(3 * 44100) - Math.round(0.123 * 44100));
  });

  it("splices an untrimmed neighbour's side of a cut join too: no priming or padding at the join", () => {
    const sources = [source(2), source(3, [1, 2]), source(2), source(2)];
    const plan = planAacSplice(sources);
    expect(plan.segments.map((s) => s.kind)).toEqual(['copy', 'stretch', 'copy', 'stretch', 'copy', 'copy']);
    const [a, stretch, , , c, d] = plan.segments;
    if (a.kind !== 'copy' || c.kind !== 'copy' || d.kind !== 'copy' || stretch.kind !== 'stretch')
      throw new Error('copies and a stretch expected');
    // A's end and C's start go into the stretches (led in and out by their own audio); C and D join as copies do.
    expect([a.from, a.skip]).toEqual([0, PRIMING]);
    expect(a.to).toBeLessThan(sources[0].packets - 2);
    expect(stretch.preroll).toMatchObject({ input: 0 });
    expect(c.from).toBeGreaterThan(2);
    expect(c.to).toBe(sources[2].packets);
    expect([d.from, d.to, d.skip]).toEqual([0, sources[3].packets, 0]);
    const out = expectExact(sources, plan);
    // A ends, then silence under a frame, then B; likewise B to C.
    for (const [i, j] of [
      [0, 1],
      [1, 2],
    ]) {
      const end =
        plan.starts[i] +
        (sources[i].keep ? sources[i].keep!.end - sources[i].keep!.start : sources[i].audioSamples);
      expect(plan.starts[j] - end).toBeGreaterThanOrEqual(0);
      expect(plan.starts[j] - end).toBeLessThan(F);
      expect(out.slice(end, plan.starts[j]).every((v) => v === SILENCE)).toBe(true);
    }
    // C to D is a plain join of copies: C's packets to their end (its padding included), then D's priming.
    const cEnd = plan.starts[2] + (c.to * F - PRIMING);
    expect(plan.starts[3]).toBe(cEnd + PRIMING);
    expect(plan.total).toBe(plan.starts[3] + sources[3].audioSamples);
  });

  it('an input cut at its end only, too short to copy, after an untrimmed one: its stretch opens with a frame of silence', () => {
    const sources = [source(2), source(1, [0, 0.03]), source(2, [1, 2])];
    const plan = planAacSplice(sources);
    expect(plan.segments.map((s) => s.kind)).toEqual(['copy', 'stretch', 'copy']);
    const [a, stretch] = plan.segments;
    if (a.kind !== 'copy' || stretch.kind !== 'stretch') throw new Error('copy and stretch expected');
    expect(a.to).toBe(sources[0].packets);
    expect(stretch.pieces[0]).toEqual({ silence: F });
    expect(stretch.preroll).toEqual({ silence: SPLICE_ROLL });
    expectExact(sources, plan);
  });

  it('an input too short to copy a packet of is re-encoded whole, inside the stretch between its neighbours', () => {
    const sources = [source(2, [0, 1]), source(1, [0.2, 0.25]), source(2, [1, 2])];
    const plan = planAacSplice(sources);
    expect(plan.segments.map((s) => s.kind)).toEqual(['copy', 'stretch', 'copy']);
    const mid = plan.segments[1];
    if (mid.kind !== 'stretch') throw new Error('stretch expected');
    expect(mid.pieces.filter((p) => 'input' in p).map((p) => ('input' in p ? p.input : -1))).toEqual([
      0, 1, 2,
    ]);
    expectExact(sources, plan);
  });

  it('feeds a stretch real audio either side, the pre-roll whole frames, ranges of one input joined', () => {
    const sources = [source(4, [0.5, 2]), source(4, [2.5, 3.5])];
    const mid = planAacSplice(sources).segments[2];
    if (mid.kind !== 'stretch') throw new Error('stretch expected');
    expect(mid.preroll).toMatchObject({ input: 0 });
    if (!mid.preroll || !('input' in mid.preroll)) throw new Error('a pre-roll of input 0 expected');
    expect(mid.preroll.to - mid.preroll.from).toBe(SPLICE_ROLL);
    expect(mid.postroll!.to - mid.postroll!.from).toBe(SPLICE_ROLL);
    const feed = stretchFeed(mid);
    expect(feed.map((p) => ('silence' in p ? 'silence' : p.input))).toEqual(
      mid.pieces.some((p) => 'silence' in p) ? [0, 'silence', 1] : [0, 1],
    );
    const { first } = stretchPackets(mid, PRIMING);
    expect(first).toBe((SPLICE_ROLL + PRIMING) / F);
  });

  it('a final stretch keeps the packets that end its samples, the last one partly', () => {
    const plan = planAacSplice([source(2, [0, 1.5])]);
    const last = plan.segments.at(-1)!;
    if (last.kind !== 'stretch') throw new Error('stretch expected');
    expect(last.final).toBe(true);
    expect(last.postroll).toBeUndefined();
    expect(stretchPackets(last, PRIMING).count).toBe(Math.ceil(last.samples / F));
    expectExact([source(2, [0, 1.5])], plan);
  });
});

describe('the stretches in the progress bar', () => {
  const RATE = 44100;
  const stretches = (plan: SplicePlan) =>
    plan.segments.filter((s): s is StretchSegment => s.kind === 'stretch');
  /** Samples of the stretch's feed: lead, rolls, pieces. */
  const fed = (s: StretchSegment) =>
    stretchFeed(s).reduce((n, p) => n + ('silence' in p ? p.silence : p.to - p.from), 0);

  it('reads a range from a whole second at least one second before it, from the start within two', () => {
    expect(stretchSeekSeconds(100_000, RATE)).toBe(1);
    expect(stretchSeekSeconds(2 * RATE, RATE)).toBe(1);
    expect(stretchSeekSeconds(2 * RATE - 1, RATE)).toBe(0);
    expect(stretchSeekSeconds(0, RATE)).toBe(0);
  });

  const m4b = (perTool = 32) => ({ rate: RATE, format: 'm4b' as const, perTool });
  /** A tool's start in the bar's unit for M4B (seconds of an input's AAC encode). */
  const START = (STEP_COST.toolStart * STEP_COST.measure) / STEP_COST.encode.m4b;

  it('weighs a stretch at the seconds it encodes, the seconds it decodes at a decode cost, and its share of a tool start', () => {
    const plan = planAacSplice([source(4, [0.5, 2]), source(4, [2.5, 3.5])]);
    const perDecoded = STEP_COST.decodeToPcm / STEP_COST.encode.m4b;
    const costs = stretchCosts(plan, m4b());
    expect(costs).toHaveLength(3);
    for (const [j, s] of stretches(plan).entries()) {
      const encoded = fed(s) / RATE;
      // A quarter of a second or so at each cut.
      expect(encoded).toBeGreaterThan(0.1);
      expect(encoded).toBeLessThan(0.5);
      // Each range of an input is decoded from at most two seconds before it.
      const ranges = stretchFeed(s).filter((p) => 'input' in p).length;
      const w = costs[j].weight - START / 3;
      expect(w).toBeGreaterThan(encoded + encoded * perDecoded);
      expect(w).toBeLessThanOrEqual(encoded + (encoded + 2 * ranges) * perDecoded + 1e-9);
    }
    // Into Opus the encode costs more against the same decodes and start: those weigh less.
    const opus = stretchCosts(plan, { ...m4b(), format: 'opus' });
    expect(opus[1].weight).toBeLessThan(costs[1].weight);
  });

  it('shares each ffmpeg start among the stretches it encodes', () => {
    const plan = planAacSplice([source(4, [0.5, 2]), source(4, [2.5, 3.5])]);
    const together = stretchCosts(plan, m4b()).reduce((n, c) => n + c.weight, 0);
    const alone = stretchCosts(plan, m4b(1)).reduce((n, c) => n + c.weight, 0);
    expect(alone - together).toBeCloseTo(2 * START);
    // Groups of two: the first two share one start, the third has one of its own.
    const pairs = stretchCosts(plan, m4b(2)).reduce((n, c) => n + c.weight, 0);
    expect(pairs - together).toBeCloseTo(START);
  });

  it('gives each input the stretches it owns: the first fed of its audio; untouched inputs weigh nothing', () => {
    // A cut at its start only, then two untrimmed inputs: one stretch, A's.
    const plan = planAacSplice([source(4, [0.5, 4]), source(3), source(3)]);
    expect(stretches(plan)).toHaveLength(1);
    expect(stretchOwner(stretches(plan)[0])).toBe(0);
    const costs = stretchCosts(plan, m4b());
    expect(weightsByInput(costs, 3)).toEqual([costs[0].weight, 0, 0]);

    // Two trimmed inputs: A's head, the join (A's tail leads it), B's tail.
    const two = planAacSplice([source(4, [0.5, 2]), source(4, [2.5, 3.5])]);
    const w = stretchCosts(two, m4b());
    expect(w.map((c) => c.owner)).toEqual([0, 0, 1]);
    expect(weightsByInput(w, 2)).toEqual([w[0].weight + w[1].weight, w[2].weight]);
  });

  it('moves the bar through the stretches before the join, never back, and to 100 only when complete', () => {
    const plan = planAacSplice([source(300, [60, 240]), source(300, [60, 240])]);
    const spliced = weightsByInput(stretchCosts(plan, m4b()), 2);
    const weights = progressWeights('m4b', 'mp4-packets', false);
    const seen: number[] = [];
    const t = new ProgressTracker({
      durations: [180, 180],
      transcoded: [0, 1],
      weights,
      encodedSeconds: spliced,
      onPercent: (p) => seen.push(p),
    });
    t.start();
    t.transcode(1, 0.5);
    t.transcode(0, 1);
    t.transcode(1, 0.2); // a late, smaller report
    t.transcode(1, 1);
    const stretchesDone = seen.at(-1)!;
    // Their share of the work: the stretches' weight against it plus the packets copied.
    const stretchWeight = spliced[0] + spliced[1];
    expect(stretchesDone).toBe(Math.floor((100 * stretchWeight) / (stretchWeight + 360 * weights.last)));
    expect(stretchesDone).toBeGreaterThan(0);
    expect(stretchesDone).toBeLessThan(99);
    t.join(1, 2);
    t.join(2, 2);
    expect(seen.at(-1)).toBe(99);
    t.complete();
    expect(seen.at(-1)).toBe(100);
    expect(seen).toEqual([...new Set(seen)].sort((a, b) => a - b));
  });
});
