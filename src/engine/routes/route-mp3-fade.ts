// Crossfades and trims of copied MP3s, re-encoding only around each fade or cut (plan/fade-splice.ts
// has the plan): the frames of each region's inputs are decoded (only those, each with its loudness
// gain, led in by frames whose output is dropped), mixed with the constant-power curves and cut at
// the sample, encoded once without the bit reservoir, and those frames joined between the copies.
// The last frame of a region carries the reservoir bytes the copy after it reads.
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { decodeToPcm, transcodeToMp3, type PcmTarget } from '../ffmpeg/transcode.js';
import { inputChain } from '../ffmpeg/sound-filters.js';
import { frameOffsets, readFrames } from '../mp3/frame-index.js';
import { GAIN_STEP_DB } from '../mp3/gain.js';
import { joinMp3, type JoinPart } from '../mp3/join.js';
import type { Mp3Scan } from '../mp3/scan.js';
import { scanOf } from '../mp3/sound-parts.js';
import {
  carryReservoir,
  reservoirBytes,
  spliceBitRate,
  splitFrames,
  type StreamFormat,
} from '../mp3/splice.js';
import {
  decodedLength,
  decodeSpan,
  keptSamples,
  mixSpan,
  planSplice,
  regionCodec,
  type DecodedPiece,
  type RegionCodec,
  type Segment,
  type SpliceInput,
  type SplicePlan,
} from '../plan/fade-splice.js';
import type { RouteContext, RouteResult } from '../output/route-context.js';
import { perInput } from '../output/route-context.js';
import { fadeFrames } from '../plan/crossfade.js';
import { id3Of, joinFailure, LAME_DELAY } from '../output/mp3-output.js';

/** Frames looked at either side of a cut for the reservoir bytes (a backstep spans fewer). */
const RESERVOIR_FRAMES = 16;

interface Source {
  file: string;
  scan: Mp3Scan;
  offsets: Float64Array;
  gainSteps: number;
}

type Region = Extract<Segment, { kind: 'region' }>;

const formatOf = (s: Mp3Scan): StreamFormat => ({
  version: s.mpegVersion,
  sampleRate: s.sampleRate,
  channels: s.channels,
});

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

/** Decode the frames of input i that the region's mix needs (its gain applied), as raw floats. */
async function decodePiece(
  ctx: RouteContext,
  src: Source,
  i: number,
  span: { from: number; to: number; rawStart: number },
  file: string,
  raw: PcmTarget,
): Promise<DecodedPiece> {
  const mp3 = `${file}.mp3`;
  await writeFile(mp3, Buffer.concat(readFrames(src.file, src.offsets, span.from, span.to)));
  const gainDb = src.gainSteps ? src.gainSteps * GAIN_STEP_DB : undefined;
  const filters = gainDb
    ? inputChain({ sampleRate: raw.sampleRate, channels: raw.channels, gainDb })
    : undefined;
  const seconds = ((span.to - span.from) * src.scan.samplesPerFrame) / src.scan.sampleRate;
  await decodeToPcm({
    input: mp3,
    output: `${file}.f32`,
    target: raw,
    filters,
    durationSeconds: seconds,
    tools: ctx.tools,
    runner: ctx.runner,
    signal: ctx.signal,
    displayName: ctx.names[i],
    index: i,
  });
  const bytes = await readFile(`${file}.f32`);
  return {
    input: i,
    rawStart: span.rawStart,
    samples: new Float32Array(bytes.buffer, bytes.byteOffset, bytes.length / 4),
  };
}

/** The frames of every input that plays in the region's encode span, decoded. */
async function decodeRegion(
  ctx: RouteContext,
  k: number,
  codec: RegionCodec,
  splice: SplicePlan,
  sources: Source[],
  raw: PcmTarget,
): Promise<DecodedPiece[]> {
  const dir = await ctx.scratch();
  const pieces: DecodedPiece[] = [];
  for (const [i, src] of sources.entries()) {
    const span = decodeSpan(splice.placements[i], src.offsets.length - 1, codec, src.scan.samplesPerFrame);
    if (span) pieces.push(await decodePiece(ctx, src, i, span, path.join(dir, `fade-${k}-${i}`), raw));
  }
  return pieces;
}

/** The mix encoded without the reservoir; its frames, the pre-roll's among them. */
async function encodeMix(
  ctx: RouteContext,
  k: number,
  mixed: Float32Array,
  raw: PcmTarget,
  bitRateKbps: number,
  format: StreamFormat,
  progress: (f: number) => void,
): Promise<Buffer[]> {
  const dir = await ctx.scratch();
  const pcm = path.join(dir, `fade-${k}.f32`);
  const encoded = path.join(dir, `fade-${k}.mp3`);
  await writeFile(pcm, Buffer.from(mixed.buffer, mixed.byteOffset, mixed.byteLength));
  const target = {
    sampleRate: raw.sampleRate,
    channels: raw.channels,
    bitRateKbps,
    bitReservoir: false as const,
  };
  const seconds = mixed.length / raw.channels / raw.sampleRate;
  await transcodeToMp3({
    input: pcm,
    output: encoded,
    target,
    raw,
    durationSeconds: seconds,
    tools: ctx.tools,
    runner: ctx.runner,
    signal: ctx.signal,
    onProgress: progress,
  });
  return splitFrames(await readFile(encoded), format);
}

/** One region: its inputs' frames decoded and mixed, encoded, and the frames that play there kept. */
async function encodeRegion(
  ctx: RouteContext,
  k: number,
  region: Region,
  splice: SplicePlan,
  sources: Source[],
  next: Segment | undefined,
  progress: (f: number) => void,
): Promise<JoinPart> {
  const { plan } = ctx;
  const first = sources[0].scan;
  const format = formatOf(first);
  const raw: PcmTarget = { sampleRate: plan.sampleRate, channels: plan.channels, sampleFormat: 'f32le' };
  const codec = regionCodec(region, first.samplesPerFrame);
  const pieces = await decodeRegion(ctx, k, codec, splice, sources, raw);
  progress(0.4); // the decodes: about as much as the encode's share to come
  const mixed = mixSpan(codec, plan.channels, pieces, splice.placements, splice.fades);
  const reservoir = reservoirAfter(next, sources);
  const bitRate = spliceBitRate(format, plan.bitRateKbps!, reservoir.length);
  const all = await encodeMix(ctx, k, mixed, raw, bitRate, format, (f) => progress(0.4 + 0.6 * f));
  const frames = all.slice(codec.skip, codec.skip + region.to - region.from);
  if (frames.length !== region.to - region.from)
    throw new Error('internal: the crossfade encode is shorter than its region');
  if (reservoir.length > 0)
    frames[frames.length - 1] = carryReservoir(frames[frames.length - 1], reservoir, format);
  const bytes = Buffer.concat(frames);
  const file = path.join(await ctx.scratch(), `fade-${k}.part.mp3`);
  await writeFile(file, bytes);
  const vbr = first.vbr || frames.some((f) => Math.abs(f.length - frames[0].length) > 1);
  return { file, scan: scanOf(first, frames.length, bytes.length, vbr) };
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
function spliceOf(ctx: RouteContext, sources: Source[]): SplicePlan {
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
  const fades = fadeFrames(
    ctx.sound?.fades.map((f) => f.seconds) ?? [],
    inputs.map((p) => {
      const k = keptSamples(p, spf);
      return k.end - k.start;
    }),
    rate,
  );
  return planSplice(inputs, fades, spf, 2, Math.round((ctx.sound?.gap ?? 0) * rate));
}

export async function mp3FadeRoute(ctx: RouteContext): Promise<RouteResult> {
  const { plan, meta } = ctx;
  const sources = await sourcesOf(ctx);
  const splice = spliceOf(ctx, sources);
  const { segments } = splice;
  const regionAt = segments.flatMap((s, k) => (s.kind === 'region' ? [k] : []));
  const encoded = await perInput(ctx, regionAt, (k) => {
    const joins = joinsIn(segments, k, sources.length);
    return encodeRegion(ctx, k, segments[k] as Region, splice, sources, segments[k + 1], (f) =>
      joins.forEach((i) => ctx.tracker.transcode(i, f)),
    );
  });
  const parts = segments.map((s, k) =>
    s.kind === 'copy' ? copyPart(sources[s.input], s.from, s.to) : encoded.get(k)!,
  );
  const owner = segments.map((s, k) => (s.kind === 'copy' ? s.input : ownerOfRegion(segments, k)));
  // What a player hears starts at the first input's first sample (the LAME tag skips the rest).
  const origin = splice.placements[0].start;
  const starts = splice.placements.map((p) => (p.start - origin) / plan.sampleRate);
  const total = (splice.placements[splice.placements.length - 1].end - origin) / plan.sampleRate;
  const chapters = ctx.chapters(starts, total);
  await joinMp3(parts, ctx.partial, {
    id3: () => id3Of(meta, chapters),
    gapless: { delay: splice.delay, padding: splice.padding },
    signal: ctx.signal,
    onProgress: (done, totalBytes) => ctx.tracker.join(done, totalBytes),
  }).catch(joinFailure(ctx, parts, owner));
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
