// A parallel, sample-exact encode of PCM timelines (each a list of consecutive parts), whatever
// the codec: every timeline is cut into frame-aligned chunks (plan/chunks.ts), each encoded by its
// own ffmpeg with real audio before and after the chunk. That ffmpeg reads its feed itself: byte
// ranges of PCM part files decoded beforehand, or, when every input's exact length is known, the
// inputs themselves, decoded in the same process (no PCM on disk, one process start per chunk
// instead of one more per input). The codec's own step (aac-timeline.ts, mp3-timeline.ts) keeps
// of each encode the frames that decode to the chunk's own samples.
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { AbortError, InputError } from '../errors.js';
import { fallbackOf, FastPathError } from '../plan/fallback.js';
import { sourcesArgs, type DecodedSources, type PcmTarget, type TranscodeJob } from '../ffmpeg/transcode.js';
import { lastLine, spawnRunner } from '../ffmpeg/runner.js';
import {
  directLengths,
  encodedFractions,
  MIN_CHUNK_FRAMES,
  planChunks,
  rangesOf,
  runsOf,
  timelineFormat,
  type Chunk,
  type ChunkCodec,
} from '../plan/chunks.js';
import { runPool } from '../io/pool.js';
import type { RouteContext } from '../output/route-context.js';
import { bytesPerFrame, decodeAll } from './decode.js';

/**
 * Decoding is about a tenth of a decode-and-encode of the same audio on this ffmpeg (5 min of
 * MP3: 0.27 s to decode, 2.4 s to AAC): an encoded input's progress is that share, then its encode.
 */
export const DECODE_SHARE = 0.1;

export interface PcmPart {
  file: string;
  /** Sample frames in the file. */
  samples: number;
  /** The input it was decoded from (names a failure), when it is one input's. */
  input?: number;
  /** `file` is that input itself, decoded by each chunk's encoder to `samples`, not PCM on disk. */
  direct?: boolean;
}

/** What the encode needs of a route's context. */
export type TimelineContext = Pick<
  RouteContext,
  'scratch' | 'names' | 'plan' | 'tools' | 'runner' | 'signal' | 'abort' | 'concurrency'
> &
  Partial<Pick<RouteContext, 'inputs' | 'failChecks'>>;

/** One chunk's encode, as the codec's step is given it. */
export interface ChunkJob {
  timeline: number;
  index: number;
  chunk: Chunk;
  /** The timeline's first part: the input a chunk's transcode is run for. */
  first: string;
  /** The chunk's feed as one ffmpeg input URL, relative to `cwd` (PCM parts on disk). */
  url?: string;
  cwd?: string;
  /** The chunk's feed as ranges of the inputs, decoded by its encoder (direct parts). */
  sources?: DecodedSources;
  feedSeconds: number;
  /** The input holding the chunk's first sample, and its name (for a failure), if it is one input's. */
  owner?: number;
  name?: string;
  /** ffmpeg's progress (0..1 of the feed), to hand on. */
  onProgress: (fraction: number) => void;
}

/**
 * The chunk's feed as one ffmpeg input: its byte ranges of the part files, joined by the `concat`
 * and `subfile` protocols. The names are the parts' own, relative to their folder (the scratch
 * folder, where the encoder runs), so no outside path meets the protocols' separators.
 */
export function feedOf(parts: PcmPart[], chunk: Chunk, pcm: PcmTarget): { url: string; cwd: string } {
  const cwd = path.dirname(parts[0].file);
  if (parts.some((p) => path.dirname(p.file) !== cwd))
    throw new Error('internal: the PCM parts of a timeline are not in one folder');
  const ranges = rangesOf(
    parts.map((p) => p.samples),
    chunk.feedStart,
    chunk.feedEnd,
    bytesPerFrame(pcm),
  );
  const urls = ranges.map(
    (r) => `subfile,,start,${r.from},end,${r.to},,:${path.basename(parts[r.part].file)}`,
  );
  return { url: urls.length === 1 ? urls[0] : `concat:${urls.join('|')}`, cwd };
}

/** The chunk's feed of direct parts: the sample ranges of the inputs it spans. */
export function sourcesOf(parts: PcmPart[], chunk: Chunk, pcm: PcmTarget): DecodedSources {
  const ranges = rangesOf(
    parts.map((p) => p.samples),
    chunk.feedStart,
    chunk.feedEnd,
    1,
  );
  return { pcm, ranges: ranges.map((r) => ({ file: parts[r.part].file, from: r.from, to: r.to })) };
}

const feedFor = (parts: PcmPart[], chunk: Chunk, pcm: PcmTarget) =>
  parts[0].direct ? { sources: sourcesOf(parts, chunk, pcm) } : feedOf(parts, chunk, pcm);

/** The input a chunk's failure is named for: the one holding its first sample. */
function ownerOf(parts: PcmPart[], chunk: Chunk): PcmPart | undefined {
  let at = 0;
  return parts.find((p) => (at += p.samples) > chunk.start);
}

/**
 * A chunk encode's failure: raw PCM that we wrote does not fail for a reason of an input's, so say
 * what failed; an encode that decodes the inputs itself names the one that does not decode, or
 * decodes to less than its stated length (its feed, and so its encode, then falls short).
 */
function chunkFailure(ctx: TimelineContext, job: ChunkJob, codec: string) {
  return async (err: unknown): Promise<never> => {
    if (job.sources && !(err instanceof AbortError)) throw (await undecodable(ctx, job.sources)) ?? err;
    if (err instanceof InputError && job.owner === undefined)
      throw new Error(`the ${codec} encode of the joined audio failed (${err.reason})`, { cause: err });
    throw err;
  };
}

/** The first of a chunk's inputs whose range does not decode whole on its own, as that input's error. */
async function undecodable(ctx: TimelineContext, sources: DecodedSources): Promise<InputError | undefined> {
  const rate = sources.pcm.sampleRate;
  for (const range of sources.ranges) {
    const input = ctx.inputs?.indexOf(range.file) ?? -1;
    let seconds = 0;
    const result = await (ctx.runner ?? spawnRunner)({
      bin: ctx.tools.ffmpeg,
      args: [
        ...sourcesArgs({ pcm: sources.pcm, ranges: [range] }),
        ...['-progress', 'pipe:1', '-f', 'null', '-'],
      ],
      signal: ctx.signal,
      onProgress: (p) => (seconds = p.outTimeSeconds),
    });
    if (input < 0 || result.signal) continue;
    const why =
      result.code !== 0
        ? lastLine(result.stderrTail)
        : Math.round(seconds * rate) < range.to - range.from
          ? `it decodes to ${(range.from / rate + seconds).toFixed(3)} s of the ${(range.to / rate).toFixed(3)} s its header states`
          : undefined;
    if (why)
      return new InputError(ctx.names[input], 'reencode-failed', `could not be re-encoded (${why})`, input);
  }
  return undefined;
}

/** The transcode of one chunk to `output`: the chunk's byte ranges of the PCM parts, named for its input. */
export function chunkTranscodeJob(
  ctx: TimelineContext,
  job: ChunkJob,
  pcm: PcmTarget,
  output: string,
): TranscodeJob {
  return {
    input: job.first,
    output,
    target: { sampleRate: pcm.sampleRate, channels: pcm.channels, bitRateKbps: ctx.plan.bitRateKbps! },
    raw: job.sources ? undefined : pcm,
    url: job.url,
    cwd: job.cwd,
    sources: job.sources,
    durationSeconds: job.feedSeconds,
    tools: ctx.tools,
    runner: ctx.runner,
    signal: ctx.signal,
    onProgress: job.onProgress,
    displayName: job.name,
    index: job.owner,
  };
}

/** What to encode, and how: a codec's step hands these to `encodeTimelines`. */
export interface TimelineEncodeOptions<T> {
  /** Each a list of consecutive PCM parts at `pcm`'s shape. */
  timelines: PcmPart[][];
  pcm: PcmTarget;
  codec: ChunkCodec;
  /** The codec as a failed chunk encode names it ("AAC", "MP3"). */
  codecName: string;
  /** The codec's step: what it makes of one chunk. */
  encode: (job: ChunkJob) => Promise<T>;
  /** The fraction encoded of each part of timeline `timeline`. */
  onProgress?: (timeline: number, fractions: number[]) => void;
  /** Chunks per encoder, when the timeline is long enough. */
  chunksPerEncoder?: number;
}

/**
 * Encode each timeline (consecutive PCM parts at `pcm`'s shape), all chunks of all timelines in one
 * pool of `ctx.concurrency` encoders (`chunksPerEncoder` chunks each, when the timeline is long
 * enough); per timeline, what `encode` made of each chunk, in order. A failed chunk encode is
 * named for its input, or said to be the codec's encode of the joined audio.
 * `onProgress(t, fractions)` gives the fraction encoded of each part of timeline t. The PCM part
 * files are removed once encoded (direct parts, the inputs themselves, never).
 */
export async function encodeTimelines<T>(
  ctx: TimelineContext,
  { timelines, pcm, codec, codecName, encode, onProgress, chunksPerEncoder = 1 }: TimelineEncodeOptions<T>,
): Promise<T[][]> {
  const plans = timelines.map((parts) =>
    planChunks(
      parts.reduce((n, p) => n + p.samples, 0),
      ctx.concurrency * chunksPerEncoder,
      codec,
      MIN_CHUNK_FRAMES,
      parts[0].direct ? startsOf(parts) : [],
    ),
  );
  const done = plans.map((chunks) => chunks.map(() => 0));
  const tasks = plans.flatMap((chunks, timeline) =>
    chunks.map((chunk, index) => ({ timeline, index, chunk })),
  );
  const report = (t: number) =>
    onProgress?.(
      t,
      encodedFractions(
        timelines[t].map((p) => p.samples),
        plans[t],
        done[t],
      ),
    );
  // Longest first, so no encoder is left alone with a long chunk at the end.
  const order = tasks.map((_, k) => k).sort((a, b) => span(tasks[b].chunk) - span(tasks[a].chunk));
  const made = await runPool(
    order,
    ctx.concurrency,
    (k) => {
      const { timeline, index, chunk } = tasks[k];
      const parts = timelines[timeline];
      const owner = ownerOf(parts, chunk)?.input;
      const feedSeconds = span(chunk) / pcm.sampleRate;
      const job: ChunkJob = {
        timeline,
        index,
        chunk,
        first: parts[0].file,
        ...feedFor(parts, chunk, pcm),
        feedSeconds,
        owner,
        name: owner !== undefined ? ctx.names[owner] : undefined,
        onProgress: (f) => {
          done[timeline][index] = Math.max(
            done[timeline][index],
            f * feedSeconds * pcm.sampleRate - (chunk.start - chunk.feedStart),
          );
          report(timeline);
        },
      };
      return encode(job).catch(chunkFailure(ctx, job, codecName));
    },
    () => ctx.abort(),
  ).catch(asFastPathError);
  await Promise.all(timelines.flat().flatMap((p) => (p.direct ? [] : [rm(p.file, { force: true })])));
  let k = 0;
  return plans.map((chunks) => chunks.map(() => made.get(k++)!));
}

const span = (c: Chunk) => c.feedEnd - c.feedStart;

/**
 * A chunk encode that fails inside (an encode that does not read back as planned) is the chunked
 * path's failure: the merge is made again the plain way. An input's fault, the output's or a
 * cancel stays what it is.
 */
function asFastPathError(err: unknown): never {
  const fallback = fallbackOf(err, 'chunked-encode');
  throw fallback ? new FastPathError(fallback.stage, fallback.reason) : err;
}

/** Where each part starts on its timeline. */
function startsOf(parts: PcmPart[]): number[] {
  let at = 0;
  return parts.map((p) => (at += p.samples) - p.samples);
}

/** The runs' inputs decoded to PCM part files (in parallel), as timelines. */
async function decodedTimelines(ctx: RouteContext, runs: number[][], pcm: PcmTarget): Promise<PcmPart[][]> {
  const all = runs.flat();
  const { files, samples } = await decodeAll(ctx, pcm, all, (i, f) =>
    ctx.tracker.transcode(i, f * DECODE_SHARE),
  );
  let at = 0;
  return runs.map((run) => run.map((input) => ({ file: files[at], samples: samples[at++], input })));
}

/** A codec's timeline encode: per timeline, the parts to join in order. */
export type TimelineEncoder<T> = (
  timelines: PcmPart[][],
  pcm: PcmTarget,
  onProgress: (timeline: number, fractions: number[]) => void,
) => Promise<T[][]>;

/**
 * Every run of consecutive inputs the plan encodes, decoded to PCM (in parallel) and encoded as one
 * timeline each: per run's first input, the run's parts and each of its inputs' decoded samples.
 */
export async function encodeRuns<T>(
  ctx: RouteContext,
  encode: TimelineEncoder<T>,
): Promise<Map<number, { parts: T[]; samples: number[] }>> {
  const { plan, tracker } = ctx;
  const runs = runsOf(plan.copy.map((c) => !c));
  const all = runs.flat();
  if (all.length === 0) return new Map();
  const pcm: PcmTarget = {
    sampleRate: plan.sampleRate,
    channels: plan.channels,
    sampleFormat: timelineFormat(
      all.map((i) => ctx.probed[i].result),
      ctx.sound !== undefined,
    ),
  };
  const direct = directLengths(
    all.map((i) => ({ samples: ctx.probed[i].samples, sampleRate: ctx.probed[i].result.sampleRate })),
    pcm,
    ctx.sound !== undefined,
  );
  const timelines = direct
    ? runs.map((run) =>
        run.map((input) => ({
          file: ctx.inputs[input],
          samples: direct[all.indexOf(input)],
          input,
          direct: true,
        })),
      )
    : await decodedTimelines(ctx, runs, pcm);
  const share = direct ? 0 : DECODE_SHARE;
  const encoded = await encode(timelines, pcm, (t, fractions) =>
    fractions.forEach((f, j) => tracker.transcode(runs[t][j], share + f * (1 - share))),
  );
  return new Map(
    runs.map((run, t) => [run[0], { parts: encoded[t], samples: timelines[t].map((p) => p.samples) }]),
  );
}
