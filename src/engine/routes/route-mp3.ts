// MP3 output: matching MP3s copied frame by frame; every run of the others (consecutive inputs
// that are encoded) decoded to PCM and encoded as one timeline in parallel chunks by LAME
// (timeline/mp3-timeline.ts), so a run brings one LAME delay and less than one frame of padding
// however many inputs it holds. All joined behind one ID3v2.3 tag (chapters, cover) and one Info
// frame with the gapless counts (output/mp3-output.ts). Chapter starts are counted frames, delays
// and decoded samples.
import { joinMp3 } from '../mp3/join.js';
import type { Chapter } from '../plan/chapters.js';
import { id3Of, joinFailure, LAME_DELAY, type Mp3Part } from '../output/mp3-output.js';
import { encodeMp3Timeline } from '../timeline/mp3-timeline.js';
import { DECODER_DELAY } from '../plan/fade-splice.js';
import type { RouteContext, RouteResult } from '../output/route-context.js';
import { framesPerInput, soundParts } from '../sound/mp3-sound-parts.js';
import { encodeRuns } from '../timeline/timeline-encode.js';

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
 * The total is what a decode of the output holds.
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
  // A decoder holds back its own 529 samples, so a padding shorter than that leaves the last
  // (529 - padding) samples of audio in it, never played: the output ends where its decode does.
  const total = (before * samplesPerFrame - delays[0] - Math.max(lastPadding, DECODER_DELAY)) / sampleRate;
  return { starts, total };
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
