// Opus, Vorbis, FLAC and WAV output: every input decoded to raw PCM at the output's rate, in
// parallel, then one encode of them all. The decoded bytes count each part's samples exactly,
// so chapter starts are sums of samples; FLAC and WAV keep every decoded sample.
import { stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { encodeOnce } from '../ffmpeg/encode-once.js';
import { ffmetadata, pictureBlock } from '../ffmpeg/ffmetadata.js';
import { decodeToPcm, type PcmTarget } from '../ffmpeg/transcode.js';
import { vorbisChapterComments, type Chapter } from './chapters.js';
import type { OutputMeta } from './meta.js';
import type { OutputPlan } from './plan-output.js';
import { partJob, perInput, type RouteContext, type RouteResult } from './route.js';

type PcmFormat = 'opus' | 'ogg' | 'flac' | 'wav';

export function pcmTarget(plan: OutputPlan): PcmTarget {
  const lossless = plan.format === 'flac' || plan.format === 'wav';
  const sampleFormat = !lossless ? 'f32le' : plan.bitDepth === 24 ? 's32le' : 's16le';
  return { sampleRate: plan.sampleRate, channels: plan.channels, sampleFormat };
}

const bytesPerFrame = (t: PcmTarget) => t.channels * (t.sampleFormat === 's16le' ? 2 : 4);

/** Tags, Vorbis chapter comments (not WAV), and for Ogg the cover as a picture block. */
export function outputTags(format: PcmFormat, meta: OutputMeta, chapters: Chapter[]): [string, string][] {
  const pairs: [string, string][] = [['title', meta.title], ['artist', meta.artist ?? ''], ['album', meta.album ?? '']];
  if (format !== 'wav') pairs.push(...vorbisChapterComments(chapters));
  if ((format === 'opus' || format === 'ogg') && meta.cover) pairs.push(['METADATA_BLOCK_PICTURE', pictureBlock(meta.cover.mime, meta.cover.data)]);
  return pairs;
}

async function decodeAll(ctx: RouteContext, target: PcmTarget): Promise<{ files: string[]; samples: number[] }> {
  const dir = await ctx.scratch();
  const all = ctx.inputs.map((_, i) => i);
  const done = await perInput(ctx, all, async (i) => {
    const file = path.join(dir, `${i}.pcm`);
    await decodeToPcm(partJob(ctx, i, file, target));
    return { file, samples: (await stat(file)).size / bytesPerFrame(target) };
  });
  return { files: all.map((i) => done.get(i)!.file), samples: all.map((i) => done.get(i)!.samples) };
}

async function writeCover(dir: string, meta: OutputMeta): Promise<string | undefined> {
  if (!meta.cover) return undefined;
  const file = path.join(dir, meta.cover.mime === 'image/png' ? 'cover.png' : 'cover.jpg');
  await writeFile(file, meta.cover.data);
  return file;
}

export async function pcmRoute(ctx: RouteContext): Promise<RouteResult> {
  const { plan, meta } = ctx;
  const format = plan.format as PcmFormat;
  const target = pcmTarget(plan);
  const { files, samples } = await decodeAll(ctx, target);
  const starts: number[] = [];
  let total = 0;
  for (const n of samples) {
    starts.push(total / plan.sampleRate);
    total += n;
  }
  const chapters = ctx.chapters(starts, total / plan.sampleRate);
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
    totalSeconds: total / plan.sampleRate,
    tools: ctx.tools,
    runner: ctx.runner,
    signal: ctx.signal,
    onProgress: (f) => ctx.tracker.join(f, 1),
  });
  return { durationSeconds: total / plan.sampleRate, chapters };
}
