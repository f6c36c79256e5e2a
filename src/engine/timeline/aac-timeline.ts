// The AAC step of a timeline encode (timeline-encode.ts): each chunk encoded to AAC in MP4, and of
// it only the packets that decode to the chunk's own samples kept. Neighbouring chunks were fed
// the same audio across their seam, so their kept packets overlap-add as one encoder's would: a
// timeline carries one frame of priming and less than one of padding, whatever its parts.
import path from 'node:path';
import { transcodeToAac, type PcmTarget } from '../ffmpeg/transcode.js';
import { Mp4Error, readMp4Audio, type Mp4Audio } from '../mp4/read.js';
import type { Mp4Part } from '../mp4/write.js';
import { AAC_CODEC, AAC_PRIMING, type Chunk } from '../plan/chunks.js';
import { checkStage, lengthReason } from '../plan/fallback.js';
import { chunkTranscodeJob, encodeTimelines } from './timeline-encode.js';
import type { ChunkJob, PcmPart, TimelineContext } from './timeline-encode.js';

export { feedOf, type PcmPart, type TimelineContext } from './timeline-encode.js';

/** The packets of one chunk's encode that decode to the chunk's own samples (the last chunk: to the end). */
export function keptPackets(audio: Mp4Audio, chunk: Chunk): Mp4Audio {
  if (audio.priming !== AAC_PRIMING)
    throw new Error(`internal: the AAC encoder primed ${audio.priming} samples, not ${AAC_PRIMING}`);
  const count = chunk.last ? audio.sizes.length - chunk.firstPacket : chunk.packets;
  if (count < chunk.packets || chunk.firstPacket + count > audio.sizes.length)
    throw new Error('internal: an AAC chunk encode is shorter than its feed');
  const end = chunk.firstPacket + count;
  return {
    ...audio,
    sizes: audio.sizes.slice(chunk.firstPacket, end),
    offsets: audio.offsets.slice(chunk.firstPacket, end),
    priming: chunk.priming,
    audioSamples: chunk.end - chunk.start,
  };
}

/** One chunk's encode: its kept packets, in the file they are in. */
async function encodeChunk(ctx: TimelineContext, job: ChunkJob, pcm: PcmTarget): Promise<Mp4Part> {
  const file = path.join(await ctx.scratch(), `aac-${job.timeline}-${job.index}.m4a`);
  await transcodeToAac(chunkTranscodeJob(ctx, job, pcm, file));
  try {
    return { file, audio: keptPackets(readMp4Audio(file), job.chunk) };
  } catch (err) {
    if (err instanceof Mp4Error)
      throw new Error(`an AAC chunk encode is unreadable (${err.message})`, { cause: err });
    throw err;
  }
}

/**
 * Encode each timeline (consecutive PCM parts at `pcm`'s shape) to AAC packets. Per timeline, the
 * parts to join in order: the first keeps the encoder's priming, the last the padding.
 */
export async function encodeAacTimeline(
  ctx: TimelineContext,
  timelines: PcmPart[][],
  pcm: PcmTarget,
  onProgress?: (timeline: number, fractions: number[]) => void,
): Promise<Mp4Part[][]> {
  const made = await encodeTimelines(ctx, {
    timelines,
    pcm,
    codec: AAC_CODEC,
    codecName: 'AAC',
    encode: (job) => encodeChunk(ctx, job, pcm),
    onProgress,
  });
  checkStage(ctx.failChecks, 'chunked-encode', () => timelinesReason(made, timelines, pcm.sampleRate));
  return made;
}

/** Each timeline's kept packets present exactly its parts' samples (counted from the packets in hand). */
function timelinesReason(made: Mp4Part[][], timelines: PcmPart[][], rate: number): string | undefined {
  for (const [t, parts] of made.entries()) {
    const got = parts.reduce((n, p) => n + p.audio.audioSamples, 0);
    const want = timelines[t].reduce((n, p) => n + p.samples, 0);
    const why = lengthReason('an AAC timeline encoded in chunks', got, want, 0, rate);
    if (why) return why;
  }
  return undefined;
}

/**
 * The plain way's encode: the PCM file `file` (`samples` frames at `pcm`'s shape) encoded to AAC by
 * one ffmpeg, its packets as one part, with whatever priming that encoder states.
 */
export async function encodeAacOnce(
  ctx: TimelineContext,
  { file, samples }: PcmPart,
  pcm: PcmTarget,
  onProgress: (fraction: number) => void,
): Promise<Mp4Part> {
  const output = path.join(await ctx.scratch(), 'plain.m4a');
  await transcodeToAac({
    input: file,
    output,
    target: { sampleRate: pcm.sampleRate, channels: pcm.channels, bitRateKbps: ctx.plan.bitRateKbps! },
    raw: pcm,
    durationSeconds: samples / pcm.sampleRate,
    tools: ctx.tools,
    runner: ctx.runner,
    signal: ctx.signal,
    onProgress,
  });
  const audio = readMp4Audio(output);
  if (audio.audioSamples !== samples)
    throw new Error(`internal: the AAC encode presents ${audio.audioSamples} samples of ${samples}`);
  return { file: output, audio };
}
