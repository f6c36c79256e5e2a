// The plain way, and crossfades and gapless joins: every input decoded to float PCM (in parallel, each through its
// sound filters), the parts mixed into one stream with their fades, and that stream encoded once
// in the output format (M4B/M4A: in parallel chunks that join seamlessly, timeline/aac-timeline.ts), so no
// part brings encoder delay or padding of its own into the joins.
// Chapter starts are counted samples, less the overlaps before each input.
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { transcodeToMp3, type PcmTarget, type TranscodeTarget } from '../ffmpeg/transcode.js';
import { joinMp3 } from '../mp3/join.js';
import { scanMp3 } from '../mp3/scan.js';
import { encodeAacOnce, encodeAacTimeline } from '../timeline/aac-timeline.js';
import type { Chapter } from '../plan/chapters.js';
import { fadeFrames } from '../plan/crossfade.js';
import { mixParts } from '../sound/pcm-mix.js';
import { id3Of, LAME_DELAY } from '../output/mp3-output.js';
import { writeMp4Output } from '../output/mp4-output.js';
import { encodeJoined } from '../output/pcm-output.js';
import type { RouteContext, RouteResult } from '../output/route-context.js';
import { decodeAll } from '../timeline/decode.js';

/** Where each input starts (sample frames) once the overlaps are taken out, and the total. */
export function mixedStarts(
  samples: readonly number[],
  fades: readonly number[],
): { starts: number[]; total: number } {
  const starts: number[] = [];
  let t = 0;
  samples.forEach((n, i) => {
    starts.push(t);
    t += n - (fades[i] ?? 0);
  });
  return { starts, total: t };
}

async function writeMp3(
  ctx: RouteContext,
  mixed: string,
  raw: PcmTarget,
  samples: number,
  chapters: Chapter[],
): Promise<void> {
  const file = path.join(await ctx.scratch(), 'mixed.mp3');
  const target: TranscodeTarget = {
    sampleRate: ctx.plan.sampleRate,
    channels: ctx.plan.channels,
    bitRateKbps: ctx.plan.bitRateKbps!,
  };
  await transcodeToMp3({
    input: mixed,
    output: file,
    target,
    raw,
    durationSeconds: samples / raw.sampleRate,
    tools: ctx.tools,
    runner: ctx.runner,
    signal: ctx.signal,
    onProgress: (f) => ctx.tracker.join(f, 1),
  });
  const outcome = await scanMp3(file, { signal: ctx.signal });
  if (!outcome.ok) throw new Error(`the encoded output is unreadable (${outcome.reason})`);
  const s = outcome.scan;
  const padding = Math.max(0, s.frames * s.samplesPerFrame - LAME_DELAY - samples);
  await joinMp3([{ file, scan: s }], ctx.partial, {
    id3: () => id3Of(ctx.meta, chapters),
    gapless: { delay: LAME_DELAY, padding },
    signal: ctx.signal,
  });
}

/**
 * The mixed stream encoded in parallel chunks (one timeline), joined in the MP4; the plain way
 * (a fallback) encodes it in one run.
 */
async function writeMp4(
  ctx: RouteContext,
  mixed: string,
  raw: PcmTarget,
  samples: number,
  chapters: Chapter[],
): Promise<void> {
  const feed = { file: mixed, samples };
  if (ctx.plain) {
    const part = await encodeAacOnce(ctx, feed, raw, (f) => ctx.tracker.join(f, 1));
    return writeMp4Output(ctx, [part], chapters);
  }
  const [parts] = await encodeAacTimeline(ctx, [[feed]], raw, (_, [f]) => ctx.tracker.join(f, 1));
  await writeMp4Output(ctx, parts, chapters, { check: { stage: 'chunked-encode', samples } });
}

export async function mixedRoute(ctx: RouteContext): Promise<RouteResult> {
  const { plan } = ctx;
  const rate = plan.sampleRate;
  const raw: PcmTarget = { sampleRate: rate, channels: plan.channels, sampleFormat: 'f32le' };
  const { files, samples } = await decodeAll(ctx, raw);
  // The plain way without sound options joins its parts end to end: no fade at any join.
  const asked = ctx.sound?.fades.map((f) => f.seconds) ?? samples.slice(1).map(() => 0);
  const fades = fadeFrames(asked, samples, rate);
  const timeline = mixedStarts(samples, fades);
  const seconds = { starts: timeline.starts.map((s) => s / rate), total: timeline.total / rate };
  const mixed = path.join(await ctx.scratch(), 'mixed.f32');
  const written = await mixParts(
    files.map((file, i) => ({ file, frames: samples[i] })),
    fades,
    plan.channels,
    mixed,
    ctx.signal,
  );
  if (written !== timeline.total)
    throw new Error('internal: the mixed stream is not the length its parts add up to');
  await Promise.all(files.map((f) => rm(f, { force: true })));
  if (plan.route === 'pcm-encode') return encodeJoined(ctx, [mixed], raw, seconds);
  const chapters = ctx.chapters(seconds.starts, seconds.total);
  if (plan.route === 'mp3-frames') await writeMp3(ctx, mixed, raw, timeline.total, chapters);
  else await writeMp4(ctx, mixed, raw, timeline.total, chapters);
  return { durationSeconds: seconds.total, chapters };
}
