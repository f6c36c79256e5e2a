// The MP3 step of a timeline encode (timeline-encode.ts): each chunk encoded by LAME (with its bit
// reservoir), and of it only the frames whose decoded output covers the chunk's own samples kept.
// Neighbouring chunks were fed the same audio across their seam, so their kept frames decode as one
// encoder's would. The first kept frame of a chunk may read bytes (main_data_begin) of the pre-roll
// frames its encode made and we drop: those bytes go at the end of the frame before it, the last
// of the previous chunk (splice.ts), which takes a larger bit rate when it has no room for them.
import { readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { InputError } from '../errors.js';
import { transcodeToMp3, type PcmTarget } from '../ffmpeg/transcode.js';
import { parseFrameHeader, readWord } from '../mp3/frames.js';
import { scanMp3 } from '../mp3/scan.js';
import { carryReservoir, reservoirBytes, splitFrames, type StreamFormat } from '../mp3/splice.js';
import type { ChunkCodec } from '../plan/chunks.js';
import { checkStage } from '../plan/fallback.js';
import { DECODER_DELAY, ENCODE_DECODE_DELAY } from '../plan/fade-splice.js';
import { mpegVersionFor } from '../plan/mp3-plan.js';
import type { Mp3Part } from '../output/mp3-output.js';
import { chunkTranscodeJob, encodeTimelines } from './timeline-encode.js';
import type { ChunkJob, PcmPart, TimelineContext } from './timeline-encode.js';

/** LAME's encoder delay, as a LAME tag states it (the decoder adds its own 529). */
const LAME_ENCODER_DELAY = ENCODE_DECODE_DELAY - DECODER_DELAY;
/**
 * Chunks per encoder. From PCM on disk, three: on a shared machine one encoder is often slowed by
 * other work, and with one chunk each the merge waits for the slowest; with three the pool moves
 * the last ones to whichever core is free (a chunk's start and pre-roll cost ~0.04 s of CPU).
 * From the inputs themselves (direct parts), one: each chunk then also decodes the input its
 * pre-roll starts in from that input's start, and the extra starts and decodes of three chunks
 * per core cost more CPU (~0.6 s of 4 for 12 min of FLAC, measured) than the balance saves.
 */
const chunksPerEncoder = (timelines: PcmPart[][]) => (timelines.every((t) => t[0]?.direct) ? 1 : 3);
/** Frames looked at either side of a seam for the reservoir bytes (a backstep spans fewer). */
const RESERVOIR_FRAMES = 16;

/** LAME at `sampleRate`: its frame (MPEG-1 1152 samples, MPEG-2 and 2.5 576), its delay, four frames of roll. */
export function mp3Codec(sampleRate: number): ChunkCodec {
  const frame = mpegVersionFor(sampleRate) === 1 ? 1152 : 576;
  return { frame, delay: ENCODE_DECODE_DELAY, roll: 4 * frame };
}

interface EncodedChunk {
  /** The kept frames but the last, written. */
  file: string;
  /** The dropped frames just before the first kept one, and the first kept ones (for the reservoir). */
  lead: Buffer[];
  head: Buffer[];
  last: Buffer;
  format: StreamFormat;
}

function streamFormat(encoded: Buffer): StreamFormat {
  const h = encoded.length >= 4 ? parseFrameHeader(readWord(encoded, 0)) : undefined;
  if (!h) throw new Error('internal: an MP3 chunk encode does not start with a frame');
  return { version: h.mpegVersion, sampleRate: h.sampleRate, channels: h.channels };
}

const copies = (frames: Buffer[]) => frames.map((f) => Buffer.from(f));

/** One chunk's encode: its kept frames, the last apart, and the frames around its start. */
async function encodeChunk(ctx: TimelineContext, job: ChunkJob, pcm: PcmTarget): Promise<EncodedChunk> {
  const dir = await ctx.scratch();
  const encoded = path.join(dir, `mp3-${job.timeline}-${job.index}.mp3`);
  await transcodeToMp3(chunkTranscodeJob(ctx, job, pcm, encoded));
  const bytes = await readFile(encoded);
  const format = streamFormat(bytes);
  const frames = splitFrames(bytes, format);
  const { firstPacket, packets } = job.chunk;
  if (firstPacket + packets > frames.length)
    throw new Error('internal: an MP3 chunk encode is shorter than its feed');
  const kept = frames.slice(firstPacket, firstPacket + packets);
  const file = path.join(dir, `mp3-${job.timeline}-${job.index}.part.mp3`);
  await writeFile(file, Buffer.concat(kept.slice(0, -1)));
  await rm(encoded, { force: true });
  return {
    file,
    lead: copies(frames.slice(Math.max(0, firstPacket - RESERVOIR_FRAMES), firstPacket)),
    head: copies(kept.slice(0, RESERVOIR_FRAMES)),
    last: Buffer.from(kept[kept.length - 1]),
    format,
  };
}

/**
 * A timeline's chunks as join parts: each chunk's last frame carries what the next one reads before
 * it. LAME's delay leads the first part; the last ends with the padding, which a LAME tag counts
 * with the decoder's delay: the frames' samples less the delay and the timeline's `samples`.
 */
async function joinParts(
  ctx: TimelineContext,
  chunks: EncodedChunk[],
  samples: number,
  frame: number,
): Promise<Mp3Part[]> {
  const parts = await Promise.all(
    chunks.map(async (c, k): Promise<Mp3Part> => {
      const next = chunks[k + 1];
      const reservoir = next ? reservoirBytes(next.lead, next.head, c.format) : Buffer.alloc(0);
      await writeFile(c.file, reservoir.length > 0 ? carryReservoir(c.last, reservoir, c.format) : c.last, {
        flag: 'a',
      });
      const outcome = await scanMp3(c.file, { signal: ctx.signal });
      if (!outcome.ok)
        throw new InputError(c.file, 'reencode-failed', `re-encoded audio is unreadable (${outcome.reason})`);
      return { file: c.file, scan: outcome.scan, delay: k === 0 ? LAME_ENCODER_DELAY : 0, padding: 0 };
    }),
  );
  const frames = parts.reduce((n, p) => n + p.scan.frames, 0);
  const padding = frames * frame - LAME_ENCODER_DELAY - samples;
  // The kept frames cover the timeline and the decoder's delay, and no more than a frame after it.
  checkStage(ctx.failChecks, 'chunked-encode', () =>
    padding < 0 || padding > 2 * frame
      ? `an MP3 timeline encoded in chunks holds ${frames} frames for ${samples} samples`
      : undefined,
  );
  parts[parts.length - 1].padding = padding;
  return parts;
}

/**
 * Encode each timeline (consecutive PCM parts at `pcm`'s shape) to MP3 frames. Per timeline, the
 * parts to join in order: the first keeps LAME's delay, the last less than a frame of padding.
 */
export async function encodeMp3Timeline(
  ctx: TimelineContext,
  timelines: PcmPart[][],
  pcm: PcmTarget,
  onProgress?: (timeline: number, fractions: number[]) => void,
): Promise<Mp3Part[][]> {
  const codec = mp3Codec(pcm.sampleRate);
  const encoded = await encodeTimelines(ctx, {
    timelines,
    pcm,
    codec,
    codecName: 'MP3',
    encode: (job) => encodeChunk(ctx, job, pcm),
    onProgress,
    chunksPerEncoder: chunksPerEncoder(timelines),
  });
  return Promise.all(
    encoded.map((chunks, t) =>
      joinParts(
        ctx,
        chunks,
        timelines[t].reduce((n, p) => n + p.samples, 0),
        codec.frame,
      ),
    ),
  );
}
