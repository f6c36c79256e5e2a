// Trims of copied AAC in the MP4 route: each input's packets copied unchanged but for a short
// stretch at each cut, decoded from the inputs and re-encoded (plan/aac-splice.ts has the plan),
// so the output holds exactly the kept samples and chapters start where each kept span does.
import path from 'node:path';
import { encodeAacStretches, type StretchJob } from '../ffmpeg/aac-stretch.js';
import { BATCH_SIZE } from '../ffmpeg/batch.js';
import { readMp4Audio, type Mp4Audio } from '../mp4/read.js';
import type { Mp4Part } from '../mp4/write.js';
import type { Probed } from '../inputs/probe.js';
import {
  planAacSplice,
  stretchFeed,
  stretchCosts,
  stretchOwner,
  stretchPackets,
  weightsByInput,
  type SplicePlan,
  type SpliceSource,
  type StretchSegment,
} from '../plan/aac-splice.js';
import type { OutputFormat } from '../plan/formats.js';
import type { KeepRange } from '../plan/trim-silence.js';
import type { RouteContext } from '../output/route-context.js';

export interface SplicedParts {
  parts: Mp4Part[];
  /** The input each part belongs to (a stretch to the first input it holds). */
  owner: number[];
  /** Where each input's kept audio starts, and the total, in samples. */
  starts: number[];
  total: number;
}

/** Whether the MP4 route splices: every input a copy and some kept span set by the sound plan. */
export function splicesAac(ctx: RouteContext): boolean {
  return ctx.plan.copy.every(Boolean) && (ctx.sound?.inputs.some((p) => p.keep !== undefined) ?? false);
}

/** What the splice needs of input i: its packets, and its kept span in samples. */
function sourceOf(probed: readonly Probed[], i: number, keep: KeepRange | undefined): SpliceSource {
  const audio = trackOf(probed, i);
  const rate = audio.sampleRate;
  return {
    packets: audio.sizes.length,
    priming: audio.priming,
    audioSamples: audio.audioSamples,
    ...(keep ? { keep: { start: Math.round(keep.start * rate), end: Math.round(keep.end * rate) } } : {}),
  };
}

function trackOf(probed: readonly Probed[], i: number): Mp4Audio {
  const audio = probed[i].mp4;
  if (!audio) throw new Error(`internal: no packet index for input ${i}`);
  return audio;
}

function planOf(probed: readonly Probed[], keeps: ReadonlyArray<KeepRange | undefined>) {
  return planAacSplice(probed.map((_, i) => sourceOf(probed, i, keeps[i])));
}

/** The stretches' weights in the progress bar, in order (one ffmpeg encodes BATCH_SIZE of them). */
function costsOf(plan: SplicePlan, probed: readonly Probed[], format: OutputFormat) {
  return stretchCosts(plan, { rate: trackOf(probed, 0).sampleRate, format, perTool: BATCH_SIZE });
}

/**
 * Per input, what the progress bar weighs the encodes of the stretches it owns at (seconds of an
 * input's encode), for a splice of inputs `probed` kept to `keeps` (seconds).
 */
export function spliceProgressWeights(
  probed: readonly Probed[],
  keeps: ReadonlyArray<KeepRange | undefined>,
  format: OutputFormat,
): number[] {
  return weightsByInput(costsOf(planOf(probed, keeps), probed, format), probed.length);
}

/** The packets [from, from + count) of `audio`, presenting `audioSamples` after skipping `priming`. */
function slice(
  audio: Mp4Audio,
  from: number,
  count: number,
  priming: number,
  audioSamples: number,
): Mp4Audio {
  return {
    ...audio,
    sizes: audio.sizes.slice(from, from + count),
    offsets: audio.offsets.slice(from, from + count),
    priming,
    audioSamples,
  };
}

/** The packets of a stretch's encode that present its samples. */
function stretchPart(file: string, s: StretchSegment): Mp4Part {
  const audio = readMp4Audio(file);
  const { first, count, skip } = stretchPackets(s, audio.priming);
  if (audio.sizes.length < first + count)
    throw new Error('internal: a re-encoded cut is shorter than its feed');
  return { file, audio: slice(audio, first, count, skip, s.samples) };
}

/** Encode every stretch of the plan; the MP4 of each, by segment index. */
async function encodeStretches(ctx: RouteContext, splice: SplicePlan): Promise<Map<number, string>> {
  const { segments } = splice;
  const scratch = await ctx.scratch();
  const which = segments.flatMap((s, k) => (s.kind === 'stretch' ? [k] : []));
  const jobs: StretchJob[] = which.map((k) => ({
    feed: stretchFeed(segments[k] as StretchSegment).map((p) =>
      'silence' in p ? p : { file: ctx.inputs[p.input], from: p.from, to: p.to },
    ),
    output: path.join(scratch, `cut-${k}.m4a`),
  }));
  const { plan } = ctx;
  await encodeAacStretches({
    jobs,
    target: { sampleRate: plan.sampleRate, channels: plan.channels, bitRateKbps: plan.bitRateKbps! },
    tools: ctx.tools,
    runner: ctx.runner,
    signal: ctx.signal,
    nameOf: (j) => {
      const owner = stretchOwner(segments[which[j]] as StretchSegment);
      return { displayName: ctx.names[owner], index: owner };
    },
    onProgress: stretchProgress(ctx, splice),
  });
  return new Map(which.map((k, j) => [k, jobs[j].output]));
}

/**
 * Reports the stretches' encodes to the progress bar, each input's as the weighted share of its
 * stretches done (the weights the bar was given: spliceProgressWeights).
 */
function stretchProgress(ctx: RouteContext, plan: SplicePlan) {
  const costs = costsOf(plan, ctx.probed, ctx.plan.format);
  const total = weightsByInput(costs, ctx.inputs.length);
  const done = costs.map(() => 0);
  return (j: number, fraction: number) => {
    done[j] = Math.max(done[j], fraction);
    const i = costs[j].owner;
    const sum = costs.reduce((n, c, m) => (c.owner === i ? n + c.weight * done[m] : n), 0);
    if (total[i] > 0) ctx.tracker.transcode(i, sum / total[i]);
  };
}

/** The parts of the spliced output in order: copies of the inputs' packets and the encoded stretches. */
export async function splicedParts(ctx: RouteContext): Promise<SplicedParts> {
  const plan = planOf(
    ctx.probed,
    ctx.inputs.map((_, i) => ctx.sound?.inputs[i].keep),
  );
  const encoded = await encodeStretches(ctx, plan);
  const parts: Mp4Part[] = [];
  const owner: number[] = [];
  plan.segments.forEach((s, k) => {
    if (s.kind === 'stretch') {
      parts.push(stretchPart(encoded.get(k)!, s));
      owner.push(stretchOwner(s));
      return;
    }
    const audio = trackOf(ctx.probed, s.input);
    parts.push({ file: ctx.inputs[s.input], audio: slice(audio, s.from, s.to - s.from, s.skip, s.samples) });
    owner.push(s.input);
  });
  return { parts, owner, starts: plan.starts, total: plan.total };
}
