// A parallel, sample-exact AAC encode of PCM timelines (each a list of consecutive PCM part files):
// every timeline is cut into frame-aligned chunks, each encoded by its own ffmpeg that reads the
// part files' byte ranges itself, with real audio before and after the chunk, and of each encode
// only the packets that decode to the chunk's own samples are kept. Neighbouring chunks were fed
// the same audio across their seam, so their kept packets overlap-add as one encoder's would: a
// timeline carries one frame of priming and less than one of padding, whatever its parts.
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { InputError } from '../errors.js';
import { transcodeToAac, type PcmTarget } from '../ffmpeg/transcode.js';
import { Mp4Error, readMp4Audio, type Mp4Audio } from '../mp4/read.js';
import type { Mp4Part } from '../mp4/write.js';
import { AAC_PRIMING, encodedFractions, planChunks, rangesOf, type AacChunk } from './aac-chunks.js';
import { runPool } from './pool.js';
import type { RouteContext } from './route.js';
import { bytesPerFrame } from './route-pcm.js';

export interface PcmPart {
  file: string;
  /** Sample frames in the file. */
  samples: number;
  /** The input it was decoded from (names a failure), when it is one input's. */
  input?: number;
}

/** What the encode needs of a route's context. */
export type TimelineContext = Pick<RouteContext, 'scratch' | 'names' | 'plan' | 'tools' | 'runner' | 'signal' | 'abort' | 'concurrency'>;

interface ChunkTask {
  timeline: number;
  index: number;
  chunk: AacChunk;
}

/**
 * The chunk's feed as one ffmpeg input: its byte ranges of the part files, joined by the `concat`
 * and `subfile` protocols. The names are the parts' own, relative to their folder (the scratch
 * folder, where the encoder runs), so no outside path meets the protocols' separators.
 */
export function feedOf(parts: PcmPart[], chunk: AacChunk, pcm: PcmTarget): { url: string; cwd: string } {
  const cwd = path.dirname(parts[0].file);
  if (parts.some((p) => path.dirname(p.file) !== cwd)) throw new Error('internal: the PCM parts of a timeline are not in one folder');
  const ranges = rangesOf(parts.map((p) => p.samples), chunk.feedStart, chunk.feedEnd, bytesPerFrame(pcm));
  const urls = ranges.map((r) => `subfile,,start,${r.from},end,${r.to},,:${path.basename(parts[r.part].file)}`);
  return { url: urls.length === 1 ? urls[0] : `concat:${urls.join('|')}`, cwd };
}

/** The packets of one chunk's encode that decode to the chunk's own samples. */
export function keptPackets(audio: Mp4Audio, chunk: AacChunk): Mp4Audio {
  if (audio.priming !== AAC_PRIMING) throw new Error(`internal: the AAC encoder primed ${audio.priming} samples, not ${AAC_PRIMING}`);
  const count = chunk.packets ?? audio.sizes.length - chunk.firstPacket;
  if (count < 1 || chunk.firstPacket + count > audio.sizes.length) throw new Error('internal: an AAC chunk encode is shorter than its feed');
  const end = chunk.firstPacket + count;
  return {
    ...audio,
    sizes: audio.sizes.slice(chunk.firstPacket, end),
    offsets: audio.offsets.slice(chunk.firstPacket, end),
    priming: chunk.priming,
    audioSamples: chunk.end - chunk.start,
  };
}

/** The input a chunk's failure is named for: the one holding its first sample. */
function ownerOf(parts: PcmPart[], chunk: AacChunk): PcmPart | undefined {
  let at = 0;
  return parts.find((p) => (at += p.samples) > chunk.start);
}

async function encodeChunk(ctx: TimelineContext, parts: PcmPart[], task: ChunkTask, pcm: PcmTarget, onDone: (samples: number) => void): Promise<Mp4Part> {
  const { chunk } = task;
  const file = path.join(await ctx.scratch(), `aac-${task.timeline}-${task.index}.m4a`);
  const feedSeconds = (chunk.feedEnd - chunk.feedStart) / pcm.sampleRate;
  const lead = chunk.start - chunk.feedStart;
  const owner = ownerOf(parts, chunk);
  const name = owner?.input !== undefined ? ctx.names[owner.input] : undefined;
  await transcodeToAac({
    input: parts[0].file,
    output: file,
    target: { sampleRate: pcm.sampleRate, channels: pcm.channels, bitRateKbps: ctx.plan.bitRateKbps! },
    raw: pcm,
    ...feedOf(parts, chunk, pcm),
    durationSeconds: feedSeconds,
    tools: ctx.tools,
    runner: ctx.runner,
    signal: ctx.signal,
    onProgress: (f) => onDone(f * feedSeconds * pcm.sampleRate - lead),
    displayName: name,
    index: owner?.input,
  }).catch((err: unknown) => {
    // Raw PCM that we wrote does not fail to encode for a reason of the input's: say what failed.
    if (err instanceof InputError && owner?.input === undefined) throw new Error(`the AAC encode of the joined audio failed (${err.reason})`, { cause: err });
    throw err;
  });
  try {
    return { file, audio: keptPackets(readMp4Audio(file), chunk) };
  } catch (err) {
    if (err instanceof Mp4Error) throw new Error(`an AAC chunk encode is unreadable (${err.message})`, { cause: err });
    throw err;
  }
}

/**
 * Encode each timeline (consecutive PCM parts at `pcm`'s shape) to AAC packets, all chunks of all
 * timelines in one pool of `ctx.concurrency` encoders. Per timeline, the parts to join in order:
 * the first keeps the encoder's priming, the last the padding. `onProgress(t, fractions)` gives the
 * fraction encoded of each part of timeline t. The PCM part files are removed once encoded.
 */
export async function encodeAacTimeline(
  ctx: TimelineContext,
  timelines: PcmPart[][],
  pcm: PcmTarget,
  onProgress?: (timeline: number, fractions: number[]) => void,
): Promise<Mp4Part[][]> {
  const plans = timelines.map((parts) => planChunks(parts.reduce((n, p) => n + p.samples, 0), ctx.concurrency));
  const done = plans.map((chunks) => chunks.map(() => 0));
  const tasks: ChunkTask[] = plans.flatMap((chunks, timeline) => chunks.map((chunk, index) => ({ timeline, index, chunk })));
  const report = (t: number) => onProgress?.(t, encodedFractions(timelines[t].map((p) => p.samples), plans[t], done[t]));
  // Longest first, so no encoder is left alone with a long chunk at the end.
  const order = tasks.map((_, k) => k).sort((a, b) => span(tasks[b].chunk) - span(tasks[a].chunk));
  const made = await runPool(order, ctx.concurrency, (k) => {
    const { timeline, index } = tasks[k];
    return encodeChunk(ctx, timelines[timeline], tasks[k], pcm, (samples) => {
      done[timeline][index] = Math.max(done[timeline][index], samples);
      report(timeline);
    });
  }, () => ctx.abort());
  await Promise.all(timelines.flat().map((p) => rm(p.file, { force: true })));
  let k = 0;
  return plans.map((chunks) => chunks.map(() => made.get(k++)!));
}

const span = (c: AacChunk) => c.feedEnd - c.feedStart;
