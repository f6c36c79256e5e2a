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
import { PipeRunFailed, startPipeRun, type PipeRun } from '../ffmpeg/pipe-run.js';
import { frameOffsets, readFrames } from '../mp3/frame-index.js';
import { GAIN_STEP_DB } from '../mp3/gain.js';
import { joinMp3, type JoinPart } from '../mp3/join.js';
import { maxBackstep } from '../mp3/reservoir.js';
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
import { mixGraph, regionSteps, type MixStep } from '../plan/region-graph.js';
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

/** Input i's frames [from, to): decoded for a region, the first frames only settling the decoder. */
interface PieceWork {
  i: number;
  span: { from: number; to: number; rawStart: number };
  frames: Buffer;
  /** Where the batched route writes it and its decode (`${base}.mp3`, `${base}.f32`). */
  base: string;
}

/** A region on its way: what it decodes, then its mix encoded. */
interface RegionWork {
  k: number;
  region: Region;
  codec: RegionCodec;
  pieces: PieceWork[];
  base: string;
  reservoir: Buffer;
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

/**
 * The one bit rate of the regions' encode: the output's, or lower where a frame of the highest bit
 * rate could not hold a frame's own data and the most reservoir bytes a copy can read from it.
 */
function regionBitRate(ctx: RouteContext, first: Mp3Scan): number {
  return spliceBitRate(formatOf(first), ctx.plan.bitRateKbps!, maxBackstep(first.mpegVersion));
}

/**
 * The regions' codecs, started before anything is known of the regions: one ffmpeg that decodes,
 * cuts and encodes (its filter graph given later) when every region is stretches of the inputs
 * and silence (no fade, no gain), else one that decodes and one that encodes the mixes.
 */
interface RegionCodecs {
  raw: PcmTarget;
  bitRate: number;
  graph?: PipeRun;
  decoder?: PipeRun;
  encoder?: PipeRun;
}

const cancelCodecs = (c: RegionCodecs) => [c.graph, c.decoder, c.encoder].forEach((r) => r?.cancel());

/** Whether each region's mix is its inputs' samples as they are, end to end (no fade, no gain). */
const plainCuts = (ctx: RouteContext) =>
  !ctx.sound ||
  (ctx.sound.fades.every((f) => f.seconds === 0) && ctx.sound.inputs.every((i) => !i.gain?.steps));

function startCodecs(ctx: RouteContext): RegionCodecs {
  const { plan } = ctx;
  const first = ctx.probed[0].scan!;
  const raw: PcmTarget = { sampleRate: plan.sampleRate, channels: plan.channels, sampleFormat: 'f32le' };
  const bitRate = regionBitRate(ctx, first);
  const common = { tools: ctx.tools, runner: ctx.runner, signal: ctx.signal };
  const encode = [...mp3OutputArgs({ ...raw, bitRateKbps: bitRate, bitReservoir: false }), 'pipe:1'];
  const mp3In = ['-f', 'mp3', '-i', 'pipe:0'];
  if (plainCuts(ctx)) {
    // pipe:4 has one byte per decoded sample: the check that the decode lost nothing.
    const count = ['-map', '0:a:0', '-c:a', 'pcm_u8', '-ac', '1', '-f', 'u8', 'pipe:4'];
    const args = ['-filter_complex_script', 'pipe:3', ...mp3In, '-map', '[out]', ...encode, ...count];
    return { raw, bitRate, graph: startPipeRun({ ...common, args, script: true, side: true }) };
  }
  const decoder = startPipeRun({
    ...common,
    args: [...mp3In, '-map', '0:a:0', ...pcmOutputArgs(raw), 'pipe:1'],
  });
  const encoder = startPipeRun({
    ...common,
    args: [...rawInputArgs(raw), '-i', 'pipe:0', '-map', '0:a:0', ...encode],
  });
  return { raw, bitRate, decoder, encoder };
}

const rawInputArgs = (raw: PcmTarget) => [
  '-f',
  raw.sampleFormat,
  '-ar',
  String(raw.sampleRate),
  '-ac',
  String(raw.channels),
];

const asFloats = (bytes: Buffer) =>
  bytes.byteOffset % 4 === 0
    ? new Float32Array(bytes.buffer, bytes.byteOffset, bytes.length / 4)
    : new Float32Array(new Uint8Array(bytes).buffer);

/**
 * Every piece decoded in one stream: the pieces' frames one after another, each piece's output
 * exactly its frames' samples (its first frames, whose reservoir bytes and filterbank state are the
 * previous piece's, play before anything the mix takes). Each input's loudness gain applied here.
 */
async function decodeAll(
  works: RegionWork[],
  sources: Source[],
  codecs: RegionCodecs,
): Promise<DecodedPiece[][]> {
  const channels = codecs.raw.channels;
  const decoder = codecs.decoder!;
  for (const w of works) for (const p of w.pieces) decoder.write(p.frames);
  const samples = asFloats(await decoder.finish());
  let at = 0;
  const out = works.map((w) =>
    w.pieces.map((p) => {
      const n = (p.span.to - p.span.from) * sources[p.i].scan.samplesPerFrame * channels;
      const piece = samples.subarray(at, at + n);
      at += n;
      const steps = sources[p.i].gainSteps;
      if (steps) {
        const g = Math.fround(10 ** ((steps * GAIN_STEP_DB) / 20));
        for (let s = 0; s < piece.length; s++) piece[s] *= g;
      }
      return { input: p.i, rawStart: p.span.rawStart, samples: piece };
    }),
  );
  if (at !== samples.length) throw new PipeRunFailed(`decoded ${samples.length} samples for ${at}`);
  return out;
}

/**
 * Every region's mix encoded in one stream, one after another: each mix is whole frames long, so
 * region r's encoded frames are those of its own encode moved by the frames before it (its
 * pre-roll settles the encoder after the previous region's tail).
 */
async function encodeAll(
  ctx: RouteContext,
  works: RegionWork[],
  decoded: DecodedPiece[][],
  { splice, sources, codecs }: { splice: SplicePlan; sources: Source[]; codecs: RegionCodecs },
): Promise<Buffer[][]> {
  const encoder = codecs.encoder!;
  works.forEach((w, j) => {
    const mixed = mixSpan(w.codec, ctx.plan.channels, decoded[j], splice.placements, splice.fades);
    encoder.write(new Uint8Array(mixed.buffer, mixed.byteOffset, mixed.byteLength));
  });
  return keptFrames(works, await encoder.finish(), sources[0].scan);
}

/**
 * Each region's frames from the encode of all the regions' mixes one after another: each mix is
 * whole frames long, so region r's frames are those of its own encode moved by the frames before it.
 */
function keptFrames(works: RegionWork[], encoded: Buffer, first: Mp3Scan): Buffer[][] {
  const all = splitFrames(encoded, formatOf(first));
  let before = 0;
  return works.map((w) => {
    const from = before + w.codec.skip;
    before += (w.codec.to - w.codec.from) / first.samplesPerFrame;
    const kept = all.slice(from, from + w.region.to - w.region.from);
    if (kept.length !== w.region.to - w.region.from)
      throw new Error("internal: the regions' encode is shorter than its regions");
    return kept;
  });
}

/**
 * Every region in the one ffmpeg: its pieces decoded into one stream, each region's mix cut from
 * it by the filter graph (plan/region-graph.ts), all encoded one after another.
 */
async function encodeGraph(
  ctx: RouteContext,
  works: RegionWork[],
  { splice, sources, codecs }: { splice: SplicePlan; sources: Source[]; codecs: RegionCodecs },
): Promise<Buffer[][]> {
  const run = codecs.graph!;
  const spf = sources[0].scan.samplesPerFrame;
  let stream = 0;
  const steps = works.map((w) => {
    const pieces = w.pieces.map((p) => {
      const length = (p.span.to - p.span.from) * spf;
      stream += length;
      return { input: p.i, rawStart: p.span.rawStart, length, streamStart: stream - length };
    });
    return regionSteps(w.codec, pieces, splice.placements);
  });
  if (steps.some((r) => r === undefined)) throw new PipeRunFailed('two inputs play at once in a region');
  run.script(mixGraph(steps as MixStep[][], ctx.plan.sampleRate, ctx.plan.channels));
  for (const w of works) for (const p of w.pieces) run.write(p.frames);
  const encoded = await run.finish();
  if (run.side().length !== stream)
    throw new PipeRunFailed(`decoded ${run.side().length} samples of ${stream}`);
  return keptFrames(works, encoded, sources[0].scan);
}

/** The batched way, a file per piece and per region: what names the input at fault when the stream fails. */
async function encodeBatched(
  ctx: RouteContext,
  works: RegionWork[],
  { splice, sources, codecs }: { splice: SplicePlan; sources: Source[]; codecs: RegionCodecs },
): Promise<Buffer[][]> {
  const { raw } = codecs;
  for (const w of works) for (const p of w.pieces) await writeFile(`${p.base}.mp3`, p.frames);
  await decodePieces(ctx, works, sources, raw);
  const jobs: TranscodeJob[] = [];
  for (const w of works) {
    const pieces = await Promise.all(w.pieces.map(readPiece));
    const mixed = mixSpan(w.codec, raw.channels, pieces, splice.placements, splice.fades);
    await writeFile(`${w.base}.f32`, Buffer.from(mixed.buffer, mixed.byteOffset, mixed.byteLength));
    jobs.push(mixJob(ctx, w, codecs, mixed.length / raw.channels / raw.sampleRate));
  }
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
  const format = formatOf(sources[0].scan);
  return Promise.all(
    works.map(async (w) => {
      const all = splitFrames(await readFile(`${w.base}.mp3`), format);
      return all.slice(w.codec.skip, w.codec.skip + w.region.to - w.region.from);
    }),
  );
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
  return { input: piece.i, rawStart: piece.span.rawStart, samples: asFloats(bytes) };
}

/** The encode of one region's mix, without the reservoir. */
function mixJob(ctx: RouteContext, w: RegionWork, codecs: RegionCodecs, seconds: number): TranscodeJob {
  const { raw } = codecs;
  return {
    input: `${w.base}.f32`,
    output: `${w.base}.mp3`,
    target: {
      sampleRate: raw.sampleRate,
      channels: raw.channels,
      bitRateKbps: codecs.bitRate,
      bitReservoir: false,
    },
    raw,
    durationSeconds: seconds,
    tools: ctx.tools,
    runner: ctx.runner,
    signal: ctx.signal,
  };
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
  // ffmpeg loads while the inputs' frames are indexed and the splice is planned.
  const codecs = startCodecs(ctx);
  let encoded: Map<number, JoinPart>;
  let splice: SplicePlan;
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
