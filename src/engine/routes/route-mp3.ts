// MP3 output: matching MP3s copied frame by frame; every run of the others (consecutive inputs
// that are encoded) decoded to PCM and encoded as one timeline in parallel chunks by LAME
// (timeline/mp3-timeline.ts), so a run brings one LAME delay and less than one frame of padding
// however many inputs it holds. All joined behind one ID3v2.3 tag (chapters, cover) and one Info
// frame with the gapless counts (output/mp3-output.ts). Chapter starts are counted frames, delays
// and decoded samples.
import { joinMp3, type JoinResult } from '../mp3/join.js';
import { scanMp3 } from '../mp3/scan.js';
import {
  checkStage,
  gainedFramesReason,
  joinedFramesReason,
  lengthReason,
  type FallbackStage,
} from '../plan/fallback.js';
import { decodedSeconds } from '../sound/sound-stage.js';
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
async function inputParts(
  ctx: RouteContext,
): Promise<{ groups: Mp3Part[][]; delays: number[]; decoded: Array<number | undefined> }> {
  const runs = await encodeRuns(ctx, (timelines, pcm, onProgress) =>
    encodeMp3Timeline(ctx, timelines, pcm, onProgress),
  );
  const groups: Mp3Part[][] = ctx.inputs.map(() => []);
  const delays: number[] = ctx.inputs.map(() => 0);
  const decoded: Array<number | undefined> = ctx.inputs.map(() => undefined);
  ctx.inputs.forEach((_, i) => {
    const run = runs.get(i);
    if (run) {
      let offset = run.parts[0].delay;
      run.samples.forEach((n, j) => {
        delays[i + j] = offset;
        decoded[i + j] = n;
        offset += n;
      });
      // The run's frames count for its last input, so the others' starts are frames before the run plus their offsets.
      groups[i + run.samples.length - 1] = run.parts;
    } else if (ctx.plan.copy[i]) groups[i] = [copiedPart(ctx, i)];
  });
  return { groups, delays, decoded };
}

export async function mp3Route(ctx: RouteContext): Promise<RouteResult> {
  const { plan, meta } = ctx;
  const { groups, delays: own, decoded } = await inputParts(ctx);
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
  const gapless = { delay: parts[0].delay, padding: last.padding };
  const result = await joinMp3(parts, ctx.partial, {
    id3,
    gapless,
    signal: ctx.signal,
    onProgress: (done, total) => ctx.tracker.join(done, total),
  }).catch(joinFailure(ctx, parts, owner));
  const total = timeline(result.partFrames).total;
  await checkJoin(ctx, { parts, result, gapless, seconds: total, decoded });
  return { durationSeconds: total, chapters };
}

/** Frames a join may drop of a part (junk the scan counted) before the part counts as lost. */
const JUNK_FRAMES = 2;

/** What the join's checks are given: its parts and result, and what the route planned. */
interface JoinCheck {
  parts: Mp3Part[];
  result: JoinResult;
  gapless: { delay: number; padding: number };
  /** The output's length as the route counted it. */
  seconds: number;
  /** Per input of an encoded run, its decoded samples (its gap included); undefined for a copy. */
  decoded: ReadonlyArray<number | undefined>;
}

/**
 * The join's checks, on what it has in hand: the gain in every frame of a part that has one, the
 * output's head read back (its frames and gapless counts), each part's frames written, and the
 * length against the plan's (copies keep their own delay and padding: two frames an input).
 */
async function checkJoin(ctx: RouteContext, j: JoinCheck): Promise<void> {
  const { parts, result } = j;
  const stage: FallbackStage = ctx.plan.copy.some(Boolean) ? 'mp3-join' : 'chunked-encode';
  const steps = parts.map((p) => p.gainSteps);
  if (steps.some(Boolean))
    checkStage(ctx.failChecks, 'mp3-gain', () =>
      gainedFramesReason(steps, result.partGained, result.partFrames),
    );
  const head = await scanMp3(ctx.partial, { signal: ctx.signal });
  const { sampleRate: rate, samplesPerFrame: spf } = parts[0].scan;
  const slack = (2 * ctx.inputs.length + 1) * spf;
  const planned = Math.round(plannedSeconds(ctx, j.decoded, rate) * rate);
  checkStage(ctx.failChecks, stage, () => {
    if (!head.ok) return `the joined output does not read back (${head.reason})`;
    if (head.scan.frames !== result.frames)
      return `the joined output's header states ${head.scan.frames} frames, not ${result.frames}`;
    if (head.scan.gapless?.padding !== j.gapless.padding)
      return `the joined output's LAME tag states a padding of ${head.scan.gapless?.padding}, not ${j.gapless.padding}`;
    const written = result.partFrames;
    return (
      joinedFramesReason(
        parts.map((p) => p.scan.frames),
        written,
        JUNK_FRAMES,
      ) ?? lengthReason('the joined MP3', Math.round(j.seconds * rate), planned, slack, rate)
    );
  });
}

/**
 * The output's length as planned: an encoded input's decoded samples (its gap inside), a copied
 * one's decoded length or kept span and the gap after it.
 */
function plannedSeconds(ctx: RouteContext, decoded: ReadonlyArray<number | undefined>, rate: number): number {
  const { sound } = ctx;
  const last = ctx.probed.length - 1;
  return ctx.probed.reduce((sum, p, i) => {
    const samples = decoded[i];
    if (samples !== undefined) return sum + samples / rate;
    const gap = i < last ? (sound?.gap ?? 0) : 0;
    return sum + (sound?.inputs[i].durationSeconds ?? decodedSeconds(p)) + gap;
  }, 0);
}
