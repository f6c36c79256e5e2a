// Opus, Vorbis, FLAC and WAV output: every input decoded to raw PCM at the output's rate, in
// parallel, then one encode of them all. The decoded bytes count each part's samples exactly,
// so chapter starts are sums of samples; FLAC and WAV keep every decoded sample.
import { stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { encodeOnce } from '../ffmpeg/encode-once.js';
import { ffmetadata, pictureBlock } from '../ffmpeg/ffmetadata.js';
import { decodeToPcm, type PcmTarget } from '../ffmpeg/transcode.js';
import { vorbisChapterComments, type Chapter } from '../plan/chapters.js';
import type { OutputMeta } from '../inputs/meta.js';
import type { OutputPlan } from '../plan/output-plan.js';
import { partJob, perInput, type RouteContext, type RouteResult } from '../output/route-context.js';

type PcmFormat = 'opus' | 'ogg' | 'flac' | 'wav';

export function pcmTarget(plan: OutputPlan): PcmTarget {
  const lossless = plan.format === 'flac' || plan.format === 'wav';
  const sampleFormat = !lossless ? 'f32le' : plan.bitDepth === 24 ? 's32le' : 's16le';
  return { sampleRate: plan.sampleRate, channels: plan.channels, sampleFormat };
}

export const bytesPerFrame = (t: PcmTarget) => t.channels * (t.sampleFormat === 's16le' ? 2 : 4);

/** Tags, Vorbis chapter comments (not WAV), and for Ogg the cover as a picture block. */
export function outputTags(format: PcmFormat, meta: OutputMeta, chapters: Chapter[]): [string, string][] {
  const pairs: [string, string][] = [
    ['title', meta.title],
    ['artist', meta.artist ?? ''],
    ['album', meta.album ?? ''],
  ];
  if (format !== 'wav') pairs.push(...vorbisChapterComments(chapters));
  if ((format === 'opus' || format === 'ogg') && meta.cover)
    pairs.push(['METADATA_BLOCK_PICTURE', pictureBlock(meta.cover.mime, meta.cover.data)]);
  return pairs;
}

/** Decode the inputs `indexes` (default all), in parallel, each to its own PCM file; files and sample counts in that order. */
export async function decodeAll(
  ctx: RouteContext,
  target: PcmTarget,
  indexes: number[] = ctx.inputs.map((_, i) => i),
  onProgress?: (i: number, fraction: number) => void,
): Promise<{ files: string[]; samples: number[] }> {
  const dir = await ctx.scratch();
  const done = await perInput(ctx, indexes, async (i) => {
    const file = path.join(dir, `${i}.pcm`);
    const job = partJob(ctx, i, file, target);
    await decodeToPcm(onProgress ? { ...job, onProgress: (f) => onProgress(i, f) } : job);
    return { file, samples: (await stat(file)).size / bytesPerFrame(target) };
  });
  return { files: indexes.map((i) => done.get(i)!.file), samples: indexes.map((i) => done.get(i)!.samples) };
}

async function writeCover(dir: string, meta: OutputMeta): Promise<string | undefined> {
  if (!meta.cover) return undefined;
  const file = path.join(dir, meta.cover.mime === 'image/png' ? 'cover.png' : 'cover.jpg');
  await writeFile(file, meta.cover.data);
  return file;
}

export async function pcmRoute(ctx: RouteContext): Promise<RouteResult> {
  const target = pcmTarget(ctx.plan);
  const { files, samples } = await decodeAll(ctx, target);
  const starts: number[] = [];
  let total = 0;
  for (const n of samples) {
    starts.push(total / ctx.plan.sampleRate);
    total += n;
  }
  return encodeJoined(ctx, files, target, { starts, total: total / ctx.plan.sampleRate });
}

/** One encode of the PCM files, in order, with the tags and the chapters of `timeline` (seconds). */
export async function encodeJoined(
  ctx: RouteContext,
  files: string[],
  target: PcmTarget,
  timeline: { starts: number[]; total: number },
): Promise<RouteResult> {
  const { plan, meta } = ctx;
  const format = plan.format as PcmFormat;
  const chapters = ctx.chapters(timeline.starts, timeline.total);
  const dir = await ctx.scratch();
  const metadataFile = path.join(dir, 'tags.txt');
  await writeFile(metadataFile, ffmetadata(outputTags(format, meta, chapters)));
  await encodeOnce({
    pcmFiles: files,
    pcm: target,
    format,
    bitRateKbps: plan.bitRateKbps,
    bitDepth: plan.bitDepth,
    metadataFile,
    coverFile: format === 'flac' ? await writeCover(dir, meta) : undefined,
    output: ctx.partial,
    totalSeconds: timeline.total,
    tools: ctx.tools,
    runner: ctx.runner,
    signal: ctx.signal,
    onProgress: (f) => ctx.tracker.join(f, 1),
  });
  return { durationSeconds: timeline.total, chapters };
}
