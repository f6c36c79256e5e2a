// What every Opus, Vorbis, FLAC and WAV output shares, whichever route writes it: one encode of
// PCM files in order, with the tags, the chapters as Vorbis comments (not WAV) and the cover.
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { encodeOnce } from '../ffmpeg/encode-once.js';
import { ffmetadata, pictureBlock } from '../ffmpeg/ffmetadata.js';
import type { PcmTarget } from '../ffmpeg/transcode.js';
import type { OutputMeta } from '../inputs/meta.js';
import { vorbisChapterComments, type Chapter } from '../plan/chapters.js';
import type { RouteContext, RouteResult } from './route-context.js';

type PcmFormat = 'opus' | 'ogg' | 'flac' | 'wav';

/** The details, Vorbis chapter comments (not WAV), and for Ogg the cover as a picture block. */
export function outputTags(format: PcmFormat, meta: OutputMeta, chapters: Chapter[]): [string, string][] {
  const pairs: [string, string][] = Object.entries(meta.tags);
  if (format !== 'wav') pairs.push(...vorbisChapterComments(chapters));
  if ((format === 'opus' || format === 'ogg') && meta.cover)
    pairs.push(['METADATA_BLOCK_PICTURE', pictureBlock(meta.cover.mime, meta.cover.data)]);
  return pairs;
}

async function writeCover(dir: string, meta: OutputMeta): Promise<string | undefined> {
  if (!meta.cover) return undefined;
  const file = path.join(dir, meta.cover.mime === 'image/png' ? 'cover.png' : 'cover.jpg');
  await writeFile(file, meta.cover.data);
  return file;
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
