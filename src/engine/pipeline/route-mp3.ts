// MP3 output: matching MP3s copied frame by frame; every run of the others (consecutive inputs
// that are encoded) decoded to PCM and encoded as one timeline in parallel chunks by LAME
// (mp3-timeline.ts), so a run brings one LAME delay and less than one frame of padding however many
// inputs it holds. All joined behind one ID3v2.3 tag (chapters, cover) and one Info frame with the
// gapless counts. Chapter starts are counted frames, delays and decoded samples.
import { InputError } from '../errors.js';
import { buildId3v23 } from '../mp3/id3-write.js';
import { joinMp3, type JoinPart } from '../mp3/join.js';
import type { Chapter } from './chapters.js';
import { outputError } from './merge-output.js';
import type { OutputMeta } from './meta.js';
import { encodeMp3Timeline } from './mp3-timeline.js';
import type { RouteContext, RouteResult } from './route.js';
import { framesPerInput, soundParts } from './route-mp3-sound.js';
import { encodeRuns } from './timeline-encode.js';

/** LAME's encoder delay: what our own encodes carry, and the best guess for an MP3 without a LAME tag. */
export const LAME_DELAY = 576;

export interface Mp3Part extends JoinPart {
  /** Samples of encoder delay ahead of this part's audio. */
  delay: number;
  /** Samples of padding after it (for the LAME tag, when it is the last part). */
  padding: number;
}

function copiedPart(ctx: RouteContext, i: number): Mp3Part {
  const scan = ctx.probed[i].scan;
  if (!scan) throw new Error(`internal: no frame scan for input ${i}`);
  return {
    file: ctx.inputs[i],
    scan,
    delay: scan.gapless?.delay ?? LAME_DELAY,
    padding: scan.gapless?.padding ?? 0,
  };
}

/**
 * Where each part's audio starts once a player has skipped the first part's delay (and the
 * decoder's own 529 samples, which every part has alike): frames before it, plus its own delay.
 */
export function mp3Starts(
  frames: number[],
  delays: number[],
  samplesPerFrame: number,
  sampleRate: number,
  lastPadding: number,
) {
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
  return buildId3v23({
    title: meta.title,
    artist: meta.artist,
    album: meta.album,
    cover: meta.cover,
    chapters: ms,
  });
}

/**
 * Each input's parts before the sound options: a copied input its own frames, the last input of a
 * run the run's chunks, the others none. Where each input's audio starts, counted from the start of
 * the parts it lies in: the part's delay, and in a run LAME's delay plus the samples before it.
 */
async function inputParts(ctx: RouteContext): Promise<{ groups: Mp3Part[][]; delays: number[] }> {
  const runs = await encodeRuns(ctx, (timelines, pcm, onProgress) =>
    encodeMp3Timeline(ctx, timelines, pcm, onProgress),
  );
  const groups: Mp3Part[][] = ctx.inputs.map(() => []);
  const delays: number[] = ctx.inputs.map(() => 0);
  ctx.inputs.forEach((_, i) => {
    const run = runs.get(i);
    if (run) {
      let offset = run.parts[0].delay;
      run.samples.forEach((n, j) => {
        delays[i + j] = offset;
        offset += n;
      });
      // The run's frames count for its last input, so the others' starts are frames before the run plus their offsets.
      groups[i + run.samples.length - 1] = run.parts;
    } else if (ctx.plan.copy[i]) groups[i] = [copiedPart(ctx, i)];
  });
  return { groups, delays };
}

export async function mp3Route(ctx: RouteContext): Promise<RouteResult> {
  const { plan, meta } = ctx;
  const { groups, delays: own } = await inputParts(ctx);
  const { parts, owner } = await soundParts(ctx, groups);
  const last = parts[parts.length - 1];
  const spf = parts[0].scan.samplesPerFrame;
  // A shaped copy (trimmed to whole frames) starts with its audio: its delay is its part's.
  const delays = own.map((d, i) => (plan.copy[i] ? parts[owner.indexOf(i)].delay : d));
  const timeline = (frames: number[]) =>
    mp3Starts(framesPerInput(frames, owner, groups.length), delays, spf, plan.sampleRate, last.padding);
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
      if (k >= 0) throw new InputError(ctx.names[owner[k]], err.code, err.reason, owner[k]);
    }
    // A full disk while writing the output is the output's problem, not an input's.
    if ((err as NodeJS.ErrnoException).syscall === 'write')
      throw outputError(`cannot write ${ctx.output}`, err);
    throw err;
  };
}
