// Crossfades and trims of copied MP3s, re-encoding only around each fade or cut (plan/fade-splice.ts
// has the plan): the frames of each region's inputs are decoded (only those, each with its loudness
// gain, led in by frames whose output is dropped), mixed with the constant-power curves and cut at
// the sample, encoded without the bit reservoir (output/mp3-region-codecs.ts), and those frames joined between
// the copies. The last frame of a region carries the reservoir bytes the copy after it reads.
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { PipeRunFailed } from '../ffmpeg/pipe-run.js';
import { frameOffsets, readFrames } from '../mp3/frame-index.js';
import { joinMp3, type JoinPart, type JoinResult } from '../mp3/join.js';
import { checkStage, joinedFramesReason, lengthReason } from '../plan/fallback.js';
import { scanOf } from '../mp3/sound-parts.js';
import { carryReservoir, reservoirBytes } from '../mp3/splice.js';
import {
  decodedLength,
  decodeSpan,
  keptSamples,
  planSplice,
  regionCodec,
  type Segment,
  type SpliceInput,
  type SplicePlan,
} from '../plan/fade-splice.js';
import type { RouteContext, RouteResult } from '../output/route-context.js';
import { perInput } from '../output/route-context.js';
import { fadeFrames } from '../plan/crossfade.js';
import { id3Of, joinFailure, LAME_DELAY } from '../output/mp3-output.js';
import {
  cancelCodecs,
  decodeAll,
  encodeAll,
  encodeBatched,
  encodeGraph,
  formatOf,
  startCodecs,
  type PieceWork,
  type Region,
  type RegionCodecs,
  type RegionWork,
  type Source,
} from '../output/mp3-region-codecs.js';

/** Frames looked at either side of a cut for the reservoir bytes (a backstep spans fewer). */
const RESERVOIR_FRAMES = 16;

function copyPart(src: Source, from: number, to: number): JoinPart {
  const { offsets } = src;
  const scan = {
    ...src.scan,
    audioStart: offsets[from],
    audioEnd: offsets[to],
    frames: to - from,
    audioBytes: offsets[to] - offsets[from],
  };
  return { file: src.file, scan, gainSteps: src.gainSteps || undefined };
}

/** The reservoir bytes the copy after a region reads from the frames the region replaced. */
function reservoirAfter(next: Segment | undefined, sources: Source[]): Buffer {
  if (next?.kind !== 'copy') return Buffer.alloc(0);
  const src = sources[next.input];
  const before = readFrames(src.file, src.offsets, Math.max(0, next.from - RESERVOIR_FRAMES), next.from);
  const after = readFrames(src.file, src.offsets, next.from, Math.min(next.to, next.from + RESERVOIR_FRAMES));
  return reservoirBytes(before, after, formatOf(src.scan));
}

/** The region's pieces (the frames of every input that plays in its encode span) and its reservoir. */
async function prepareRegion(
  ctx: RouteContext,
  { k, splice, sources }: { k: number; splice: SplicePlan; sources: Source[] },
): Promise<RegionWork> {
  const region = splice.segments[k] as Region;
  const dir = await ctx.scratch();
  const codec = regionCodec(region, sources[0].scan.samplesPerFrame);
  const pieces: PieceWork[] = [];
  for (const [i, src] of sources.entries()) {
    const span = decodeSpan(splice.placements[i], src.offsets.length - 1, codec, src.scan.samplesPerFrame);
    if (!span) continue;
    const frames = Buffer.concat(readFrames(src.file, src.offsets, span.from, span.to));
    pieces.push({ i, span, frames, base: path.join(dir, `fade-${k}-${i}`) });
  }
  const reservoir = reservoirAfter(splice.segments[k + 1], sources);
  return { k, region, codec, pieces, base: path.join(dir, `fade-${k}`), reservoir };
}

/** The region's encoded frames that play there, as a part of the join; its last carries the reservoir. */
async function regionPart(w: RegionWork, encoded: Buffer[], sources: Source[]): Promise<JoinPart> {
  const first = sources[0].scan;
  const format = formatOf(first);
  const frames = encoded.slice();
  if (frames.length !== w.region.to - w.region.from)
    throw new Error('internal: the crossfade encode is shorter than its region');
  if (w.reservoir.length > 0)
    frames[frames.length - 1] = carryReservoir(frames[frames.length - 1], w.reservoir, format);
  const bytes = Buffer.concat(frames);
  const file = `${w.base}.part.mp3`;
  await writeFile(file, bytes);
  const vbr = first.vbr || frames.some((f) => Math.abs(f.length - frames[0].length) > 1);
  // Our own encode: the inputs' encoder settings do not describe it.
  return { file, scan: { ...scanOf(first, frames.length, bytes.length, vbr), encoder: undefined } };
}

/**
 * Every region: its inputs' frames decoded and its mix encoded, each in one stream through the
 * codecs started with the route, and the frames that play there kept. Should a stream fail, the
 * batched runs do it again, and name the input at fault if it fails there too.
 * `progress(k, f)` reports region k's share done.
 */
async function encodeRegions(
  ctx: RouteContext,
  {
    regionAt,
    splice,
    sources,
    codecs,
  }: { regionAt: number[]; splice: SplicePlan; sources: Source[]; codecs: RegionCodecs },
  progress: (k: number, f: number) => void,
): Promise<Map<number, JoinPart>> {
  const works: RegionWork[] = [];
  for (const k of regionAt) works.push(await prepareRegion(ctx, { k, splice, sources }));
  const shared = { splice, sources, codecs };
  let encoded: Buffer[][];
  try {
    if (codecs.graph) encoded = await encodeGraph(ctx, works, shared);
    else {
      const decoded = await decodeAll(works, sources, codecs);
      works.forEach((w) => progress(w.k, 0.4)); // the decodes: about as much as the encode's share to come
      encoded = await encodeAll(ctx, works, decoded, shared);
    }
  } catch (err) {
    if (!(err instanceof PipeRunFailed)) throw err;
    cancelCodecs(codecs);
    encoded = await encodeBatched(ctx, works, shared);
  }
  const parts = new Map<number, JoinPart>();
  for (const [j, w] of works.entries()) {
    parts.set(w.k, await regionPart(w, encoded[j], sources));
    progress(w.k, 1);
  }
  return parts;
}

/** Each input's file, scan, frame offsets and loudness gain (in global_gain steps). */
async function sourcesOf(ctx: RouteContext): Promise<Source[]> {
  const all = ctx.inputs.map((_, i) => i);
  const scans = all.map((i) => ctx.probed[i].scan!);
  const indexed = await perInput(ctx, all, (i) => frameOffsets(ctx.inputs[i], scans[i], ctx.signal));
  return all.map((i) => ({
    file: ctx.inputs[i],
    scan: scans[i],
    offsets: indexed.get(i)!,
    gainSteps: ctx.sound?.inputs[i].gain?.steps ?? 0,
  }));
}

/**
 * The splice of the sound plan's fades, gap and kept spans, each fade fitted to the inputs as kept.
 * A kept span is in samples of the input as decoded (its LAME tag's delay and padding removed).
 */
function spliceOf(ctx: RouteContext, sources: Source[]): SplicePlan & { kept: number[] } {
  const spf = sources[0].scan.samplesPerFrame;
  const rate = ctx.plan.sampleRate;
  const inputs = sources.map((s, i) => {
    const input: SpliceInput = {
      frames: s.offsets.length - 1,
      delay: s.scan.gapless?.delay ?? LAME_DELAY,
      padding: s.scan.gapless?.padding ?? 0,
    };
    const keep = ctx.sound?.inputs[i].keep;
    if (!keep) return input;
    const length = decodedLength(input, spf);
    const start = Math.min(length - 1, Math.max(0, Math.round(keep.start * rate)));
    const end = Math.max(start + 1, Math.min(length, Math.round(keep.end * rate)));
    return { ...input, keep: { start, end } };
  });
  const kept = inputs.map((p) => {
    const k = keptSamples(p, spf);
    return k.end - k.start;
  });
  const fades = fadeFrames(ctx.sound?.fades.map((f) => f.seconds) ?? [], kept, rate);
  return { ...planSplice(inputs, fades, spf, 2, Math.round((ctx.sound?.gap ?? 0) * rate)), kept };
}

/**
 * The splice's checks, on what it has in hand: the frames the join wrote (each part's, and all of
 * them against the plan's), and the length the placements give against the kept spans less the
 * fades and plus the gaps (each join placed at a whole frame: one frame an input).
 */
function checkSplice(
  ctx: RouteContext,
  {
    splice,
    parts,
    result,
    total,
  }: { splice: SplicePlan & { kept: number[] }; parts: JoinPart[]; result: JoinResult; total: number },
): void {
  const spf = parts[0].scan.samplesPerFrame;
  const rate = ctx.plan.sampleRate;
  const gap = Math.round((ctx.sound?.gap ?? 0) * rate);
  const n = splice.kept.length;
  const planned =
    splice.kept.reduce((a, b) => a + b, 0) - splice.fades.reduce((a, b) => a + b, 0) + gap * (n - 1);
  checkStage(ctx.failChecks, 'mp3-splice', () => {
    if (result.frames !== splice.totalFrames)
      return `the join wrote ${result.frames} frames where the splice laid out ${splice.totalFrames}`;
    return (
      joinedFramesReason(
        parts.map((p) => p.scan.frames),
        result.partFrames,
        JUNK_FRAMES,
      ) ?? lengthReason('the spliced MP3', total, planned, n * spf, rate)
    );
  });
}

/** Frames a join may drop of a copied part (junk its scan counted) before the part counts as lost. */
const JUNK_FRAMES = 2;

export async function mp3FadeRoute(ctx: RouteContext): Promise<RouteResult> {
  const { plan, meta } = ctx;
  // ffmpeg loads while the inputs' frames are indexed and the splice is planned.
  const codecs = startCodecs(ctx);
  let encoded: Map<number, JoinPart>;
  let splice: SplicePlan & { kept: number[] };
  let sources: Source[];
  try {
    sources = await sourcesOf(ctx);
    splice = spliceOf(ctx, sources);
    const regionAt = splice.segments.flatMap((s, k) => (s.kind === 'region' ? [k] : []));
    const segs = splice.segments;
    encoded = await encodeRegions(ctx, { regionAt, splice, sources, codecs }, (k, f) =>
      joinsIn(segs, k, sources.length).forEach((i) => ctx.tracker.transcode(i, f)),
    );
  } finally {
    cancelCodecs(codecs);
  }
  const { segments } = splice;
  const parts = segments.map((s, k) =>
    s.kind === 'copy' ? copyPart(sources[s.input], s.from, s.to) : encoded.get(k)!,
  );
  const owner = segments.map((s, k) => (s.kind === 'copy' ? s.input : ownerOfRegion(segments, k)));
  // What a player hears starts at the first input's first sample (the LAME tag skips the rest).
  const origin = splice.placements[0].start;
  const starts = splice.placements.map((p) => (p.start - origin) / plan.sampleRate);
  const totalSamples = splice.placements[splice.placements.length - 1].end - origin;
  const total = totalSamples / plan.sampleRate;
  const chapters = ctx.chapters(starts, total);
  const result = await joinMp3(parts, ctx.partial, {
    id3: () => id3Of(meta, chapters),
    gapless: { delay: splice.delay, padding: splice.padding },
    signal: ctx.signal,
    onProgress: (done, totalBytes) => ctx.tracker.join(done, totalBytes),
  }).catch(joinFailure(ctx, parts, owner));
  checkSplice(ctx, { splice, parts, result, total: totalSamples });
  return { durationSeconds: total, chapters };
}

/** The joins a region holds, each named by the input before it (whose progress it reports). */
function joinsIn(segments: readonly Segment[], k: number, inputs: number): number[] {
  const first = ownerOfRegion(segments, k);
  const next = segments[k + 1];
  const end = next?.kind === 'copy' ? next.input : inputs - 1;
  return Array.from({ length: Math.max(1, end - first) }, (_, j) => first + j);
}

/** A region belongs to the input whose copy precedes it (the first input when none does). */
function ownerOfRegion(segments: readonly Segment[], k: number): number {
  for (let j = k - 1; j >= 0; j--) {
    const s = segments[j];
    if (s.kind === 'copy') return s.input;
  }
  return 0;
}
