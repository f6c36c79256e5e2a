// The codecs of the cut and fade regions of a copied MP3 join (routes/route-mp3-fade.ts): started
// with the route, before the regions are known, since starting ffmpeg costs more than the few
// frames each region holds. Plain cuts go through one ffmpeg and a filter graph
// (plan/region-graph.ts); fades and gains through a decode and an encode with the mix made here;
// either way failing, through batched runs of files that name the input at fault.
import { readFile, writeFile } from 'node:fs/promises';
import { runBatched } from '../ffmpeg/batch.js';
import { PipeRunFailed, startPipeRun, type PipeRun } from '../ffmpeg/pipe-run.js';
import { inputChain } from '../ffmpeg/sound-filters.js';
import {
  decodeToPcm,
  headOf,
  mp3OutputArgs,
  pcmOutputArgs,
  transcodeToMp3,
  type PcmTarget,
  type TranscodeJob,
} from '../ffmpeg/transcode.js';
import { GAIN_STEP_DB } from '../mp3/gain.js';
import { maxBackstep } from '../mp3/reservoir.js';
import type { Mp3Scan } from '../mp3/scan.js';
import { spliceBitRate, splitFrames, type StreamFormat } from '../mp3/splice.js';
import type { RouteContext } from './route-context.js';
import {
  mixSpan,
  type DecodedPiece,
  type RegionCodec,
  type Segment,
  type SplicePlan,
} from '../plan/fade-splice.js';
import { mixGraph, regionSteps, type MixStep } from '../plan/region-graph.js';

export interface Source {
  file: string;
  scan: Mp3Scan;
  offsets: Float64Array;
  gainSteps: number;
}

export type Region = Extract<Segment, { kind: 'region' }>;

export const formatOf = (s: Mp3Scan): StreamFormat => ({
  version: s.mpegVersion,
  sampleRate: s.sampleRate,
  channels: s.channels,
});

/** Input i's frames [from, to): decoded for a region, the first frames only settling the decoder. */
export interface PieceWork {
  i: number;
  span: { from: number; to: number; rawStart: number };
  frames: Buffer;
  /** Where the batched route writes it and its decode (`${base}.mp3`, `${base}.f32`). */
  base: string;
}

/** A region on its way: what it decodes, then its mix encoded. */
export interface RegionWork {
  k: number;
  region: Region;
  codec: RegionCodec;
  pieces: PieceWork[];
  base: string;
  reservoir: Buffer;
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
export interface RegionCodecs {
  raw: PcmTarget;
  bitRate: number;
  graph?: PipeRun;
  decoder?: PipeRun;
  encoder?: PipeRun;
}

export const cancelCodecs = (c: RegionCodecs) => [c.graph, c.decoder, c.encoder].forEach((r) => r?.cancel());

/** Whether each region's mix is its inputs' samples as they are, end to end (no fade, no gain). */
const plainCuts = (ctx: RouteContext) =>
  !ctx.sound ||
  (ctx.sound.fades.every((f) => f.seconds === 0) && ctx.sound.inputs.every((i) => !i.gain?.steps));

export function startCodecs(ctx: RouteContext): RegionCodecs {
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
export async function decodeAll(
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
export async function encodeAll(
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
export async function encodeGraph(
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
export async function encodeBatched(
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
