// MP3 output: matching MP3s copied frame by frame, the rest encoded with LAME in parallel, all
// joined behind one ID3v2.3 tag (chapters, cover) and one Info frame with the gapless counts.
import path from 'node:path';
import { InputError } from '../errors.js';
import { transcodeToMp3 } from '../ffmpeg/transcode.js';
import { buildId3v23 } from '../mp3/id3-write.js';
import { joinMp3, type JoinPart } from '../mp3/join.js';
import { scanMp3 } from '../mp3/scan.js';
import type { Chapter } from './chapters.js';
import { outputError } from './merge-output.js';
import type { OutputMeta } from './meta.js';
import { partJob, perInput, type RouteContext, type RouteResult } from './route.js';
import { framesPerInput, soundParts } from './route-mp3-sound.js';

/** LAME's encoder delay: what our own encodes carry, and the best guess for an MP3 without a LAME tag. */
export const LAME_DELAY = 576;

export interface Mp3Part extends JoinPart {
  /** Samples of encoder delay ahead of this part's audio. */
  delay: number;
  /** Samples of padding after it (for the LAME tag, when it is the last part). */
  padding: number;
}

async function encodePart(ctx: RouteContext, i: number): Promise<Mp3Part> {
  const file = path.join(await ctx.scratch(), `${i}.mp3`);
  const { plan } = ctx;
  await transcodeToMp3(partJob(ctx, i, file, { sampleRate: plan.sampleRate, channels: plan.channels, bitRateKbps: plan.bitRateKbps! }));
  const outcome = await scanMp3(file, { signal: ctx.signal });
  if (!outcome.ok) throw new InputError(ctx.names[i], `re-encoded audio is unreadable (${outcome.reason})`, i, 'reencode-failed');
  const s = outcome.scan;
  // With --trim-silence the encode holds only the kept stretch.
  const seconds = ctx.sound?.inputs[i].durationSeconds ?? ctx.probed[i].result.durationSeconds;
  const samples = Math.round(seconds * plan.sampleRate);
  return { file, scan: s, delay: LAME_DELAY, padding: Math.max(0, s.frames * s.samplesPerFrame - LAME_DELAY - samples) };
}

function copiedPart(ctx: RouteContext, i: number): Mp3Part {
  const scan = ctx.probed[i].scan;
  if (!scan) throw new Error(`internal: no frame scan for input ${i}`);
  return { file: ctx.inputs[i], scan, delay: scan.gapless?.delay ?? LAME_DELAY, padding: scan.gapless?.padding ?? 0 };
}

/**
 * Where each part's audio starts once a player has skipped the first part's delay (and the
 * decoder's own 529 samples, which every part has alike): frames before it, plus its own delay.
 */
export function mp3Starts(frames: number[], delays: number[], samplesPerFrame: number, sampleRate: number, lastPadding: number) {
  const starts: number[] = [];
  let before = 0;
  for (let k = 0; k < frames.length; k++) {
    starts.push((before * samplesPerFrame + delays[k] - delays[0]) / sampleRate);
    before += frames[k];
  }
  const total = (before * samplesPerFrame - delays[0] - lastPadding) / sampleRate;
  return { starts, total };
}

/** The output's ID3v2.3 tag: its tags, cover and chapters. */
export function id3Of(meta: OutputMeta, chapters: Chapter[]): Buffer {
  const ms = chapters.map((c) => ({ title: c.title, startMs: c.start * 1000, endMs: c.end * 1000 }));
  return buildId3v23({ title: meta.title, artist: meta.artist, album: meta.album, cover: meta.cover, chapters: ms });
}

export async function mp3Route(ctx: RouteContext): Promise<RouteResult> {
  const { plan, meta } = ctx;
  const made = await perInput(ctx, plan.transcoded, (i) => encodePart(ctx, i));
  const inputParts = ctx.inputs.map((_, i) => made.get(i) ?? copiedPart(ctx, i));
  const { parts, owner } = await soundParts(ctx, inputParts);
  const last = parts[parts.length - 1];
  const spf = parts[0].scan.samplesPerFrame;
  const delays = inputParts.map((_, i) => parts[owner.indexOf(i)].delay);
  const timeline = (frames: number[]) => mp3Starts(framesPerInput(frames, owner, inputParts.length), delays, spf, plan.sampleRate, last.padding);
  let chapters: Chapter[] = [];
  const id3 = (frames: number[]) => {
    const t = timeline(frames);
    chapters = ctx.chapters(t.starts, t.total);
    return id3Of(meta, chapters);
  };
  const result = await joinMp3(parts, ctx.partial, {
    id3,
    gapless: { delay: parts[0].delay, padding: last.padding },
    signal: ctx.signal,
    onProgress: (done, total) => ctx.tracker.join(done, total),
  }).catch(joinFailure(ctx, parts, owner));
  return { durationSeconds: timeline(result.partFrames).total, chapters };
}

/** What a failed join throws: the input a part belongs to named, a full disk the output's fault. */
export function joinFailure(ctx: RouteContext, parts: readonly JoinPart[], owner: readonly number[]) {
  return (err: unknown): never => {
    // The join names files by path (a temporary one for a transcoded input); name the input.
    if (err instanceof InputError) {
      const k = parts.findIndex((p) => p.file === err.file);
      if (k >= 0) throw new InputError(ctx.names[owner[k]], err.reason, owner[k], err.code);
    }
    // A full disk while writing the output is the output's problem, not an input's.
    if ((err as NodeJS.ErrnoException).syscall === 'write') throw outputError(`cannot write ${ctx.output}`, err);
    throw err;
  };
}
