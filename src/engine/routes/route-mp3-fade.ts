// Crossfades and trims of copied MP3s, re-encoding only around each fade or cut (plan/fade-splice.ts
// has the plan): the frames of each region's inputs are decoded (only those, each with its loudness
// gain, led in by frames whose output is dropped), mixed with the constant-power curves and cut at
// the sample, encoded once without the bit reservoir, and those frames joined between the copies.
// The last frame of a region carries the reservoir bytes the copy after it reads.
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { runBatched } from '../ffmpeg/batch.js';
import {
  decodeToPcm,
  headOf,
  mp3OutputArgs,
  pcmOutputArgs,
  transcodeToMp3,
  type PcmTarget,
  type TranscodeJob,
} from '../ffmpeg/transcode.js';
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

/** One decode of a region: input i's frames [from, to) written to `${base}.mp3`, decoded to `${base}.f32`. */
interface PieceWork {
  i: number;
  span: { from: number; to: number; rawStart: number };
  base: string;
}

/** A region on its way: what it decodes, then its mix encoded to `${base}.mp3` from `${base}.f32`. */
interface RegionWork {
  k: number;
  region: Region;
  codec: RegionCodec;
  pieces: PieceWork[];
  base: string;
  next: Segment | undefined;
  reservoir?: Buffer;
  bitRate?: number;
}

/** The region's pieces: the frames of every input that plays in its encode span, written out. */
async function prepareRegion(
  ctx: RouteContext,
  { k, splice, sources }: { k: number; splice: SplicePlan; sources: Source[] },
): Promise<RegionWork> {
  const region = splice.segments[k] as Region;
  const next = splice.segments[k + 1];
  const dir = await ctx.scratch();
  const codec = regionCodec(region, sources[0].scan.samplesPerFrame);
  const pieces: PieceWork[] = [];
  for (const [i, src] of sources.entries()) {
    const span = decodeSpan(splice.placements[i], src.offsets.length - 1, codec, src.scan.samplesPerFrame);
    if (!span) continue;
    const base = path.join(dir, `fade-${k}-${i}`);
    await writeFile(`${base}.mp3`, Buffer.concat(readFrames(src.file, src.offsets, span.from, span.to)));
    pieces.push({ i, span, base });
  }
  return { k, region, codec, pieces, base: path.join(dir, `fade-${k}`), next };
}

/** The decode of one piece, as its own ffmpeg would run it (its gain applied). */
function pieceJob(ctx: RouteContext, src: Source, piece: PieceWork, raw: PcmTarget): TranscodeJob<PcmTarget> {
  const gainDb = src.gainSteps ? src.gainSteps * GAIN_STEP_DB : undefined;
  return {
    input: `${piece.base}.mp3`,
    output: `${piece.base}.f32`,
    target: raw,
    filters: gainDb ? inputChain({ sampleRate: raw.sampleRate, channels: raw.channels, gainDb }) : undefined,
    durationSeconds: ((piece.span.to - piece.span.from) * src.scan.samplesPerFrame) / src.scan.sampleRate,
    tools: ctx.tools,
    runner: ctx.runner,
    signal: ctx.signal,
    displayName: ctx.names[piece.i],
    index: piece.i,
  };
}

/** Every region's pieces decoded, in as few ffmpeg runs as the batches allow. */
async function decodePieces(ctx: RouteContext, works: RegionWork[], sources: Source[], raw: PcmTarget) {
  const jobs = works.flatMap((w) => w.pieces.map((p) => pieceJob(ctx, sources[p.i], p, raw)));
  await runBatched(
    jobs.map((j) => ({ input: j.input, output: j.output, head: headOf(j), outputArgs: pcmOutputArgs(raw) })),
    { tools: ctx.tools, runner: ctx.runner, signal: ctx.signal },
    (n) => decodeToPcm(jobs[n]),
  );
}

async function readPiece(piece: PieceWork): Promise<DecodedPiece> {
  const bytes = await readFile(`${piece.base}.f32`);
  return {
    input: piece.i,
    rawStart: piece.span.rawStart,
    samples: new Float32Array(bytes.buffer, bytes.byteOffset, bytes.length / 4),
  };
}

/** The region's pieces mixed and written for its encode, with the reservoir its next copy reads. */
async function mixRegion(
  ctx: RouteContext,
  w: RegionWork,
  splice: SplicePlan,
  sources: Source[],
): Promise<{ seconds: number }> {
  const { plan } = ctx;
  const pieces = await Promise.all(w.pieces.map(readPiece));
  const mixed = mixSpan(w.codec, plan.channels, pieces, splice.placements, splice.fades);
  await writeFile(`${w.base}.f32`, Buffer.from(mixed.buffer, mixed.byteOffset, mixed.byteLength));
  w.reservoir = reservoirAfter(w.next, sources);
  w.bitRate = spliceBitRate(formatOf(sources[0].scan), plan.bitRateKbps!, w.reservoir.length);
  return { seconds: mixed.length / plan.channels / plan.sampleRate };
}

/** The encode of one region's mix, without the reservoir. */
function mixJob(ctx: RouteContext, w: RegionWork, raw: PcmTarget, seconds: number): TranscodeJob {
  return {
    input: `${w.base}.f32`,
    output: `${w.base}.mp3`,
    target: {
      sampleRate: raw.sampleRate,
      channels: raw.channels,
      bitRateKbps: w.bitRate!,
      bitReservoir: false,
    },
    raw,
    durationSeconds: seconds,
    tools: ctx.tools,
    runner: ctx.runner,
    signal: ctx.signal,
  };
}

/** The region's encoded frames that play there, as a part of the join. */
async function regionPart(w: RegionWork, sources: Source[]): Promise<JoinPart> {
  const first = sources[0].scan;
  const format = formatOf(first);
  const all = splitFrames(await readFile(`${w.base}.mp3`), format);
  const frames = all.slice(w.codec.skip, w.codec.skip + w.region.to - w.region.from);
  if (frames.length !== w.region.to - w.region.from)
    throw new Error('internal: the crossfade encode is shorter than its region');
  const reservoir = w.reservoir!;
  if (reservoir.length > 0)
    frames[frames.length - 1] = carryReservoir(frames[frames.length - 1], reservoir, format);
  const bytes = Buffer.concat(frames);
  const file = `${w.base}.part.mp3`;
  await writeFile(file, bytes);
  const vbr = first.vbr || frames.some((f) => Math.abs(f.length - frames[0].length) > 1);
  // Our own encode: the inputs' encoder settings do not describe it.
  return { file, scan: { ...scanOf(first, frames.length, bytes.length, vbr), encoder: undefined } };
}

/**
 * Every region: its inputs' frames decoded (one batch), mixed, encoded (one batch), and the frames
 * that play there kept. `progress(k, f)` reports region k's share done.
 */
async function encodeRegions(
  ctx: RouteContext,
  regionAt: number[],
  splice: SplicePlan,
  sources: Source[],
  progress: (k: number, f: number) => void,
): Promise<Map<number, JoinPart>> {
  const raw: PcmTarget = {
    sampleRate: ctx.plan.sampleRate,
    channels: ctx.plan.channels,
    sampleFormat: 'f32le',
  };
  const works: RegionWork[] = [];
  for (const k of regionAt) works.push(await prepareRegion(ctx, { k, splice, sources }));
  await decodePieces(ctx, works, sources, raw);
  works.forEach((w) => progress(w.k, 0.4)); // the decodes: about as much as the encode's share to come
  const jobs: TranscodeJob[] = [];
  for (const w of works) jobs.push(mixJob(ctx, w, raw, (await mixRegion(ctx, w, splice, sources)).seconds));
  await runBatched(
    jobs.map((j) => ({
      input: j.input,
      output: j.output,
      head: headOf(j),
      outputArgs: mp3OutputArgs(j.target),
    })),
    { tools: ctx.tools, runner: ctx.runner, signal: ctx.signal },
    (n) => transcodeToMp3(jobs[n]),
  );
  const parts = new Map<number, JoinPart>();
  for (const w of works) {
    parts.set(w.k, await regionPart(w, sources));
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
  const encoded = await encodeRegions(ctx, regionAt, splice, sources, (k, f) =>
    joinsIn(segments, k, sources.length).forEach((i) => ctx.tracker.transcode(i, f)),
  );
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
