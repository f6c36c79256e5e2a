// Trims of copied AAC in the MP4 route: each input's packets copied unchanged but for a short
// stretch at each cut, decoded from the inputs and re-encoded (plan/aac-splice.ts has the plan),
// so the output holds exactly the kept samples and chapters start where each kept span does.
import path from 'node:path';
import { encodeAacStretches, type StretchJob } from '../ffmpeg/aac-stretch.js';
import { readMp4Audio, type Mp4Audio } from '../mp4/read.js';
import type { Mp4Part } from '../mp4/write.js';
import {
  planAacSplice,
  stretchFeed,
  stretchPackets,
  type SpliceSegment,
  type SpliceSource,
  type StretchSegment,
} from '../plan/aac-splice.js';
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

function sourceOf(ctx: RouteContext, i: number): SpliceSource {
  const audio = trackOf(ctx, i);
  const keep = ctx.sound?.inputs[i].keep;
  const rate = audio.sampleRate;
  return {
    packets: audio.sizes.length,
    priming: audio.priming,
    audioSamples: audio.audioSamples,
    ...(keep ? { keep: { start: Math.round(keep.start * rate), end: Math.round(keep.end * rate) } } : {}),
  };
}

function trackOf(ctx: RouteContext, i: number): Mp4Audio {
  const audio = ctx.probed[i].mp4;
  if (!audio) throw new Error(`internal: no packet index for input ${i}`);
  return audio;
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

const ownerOf = (s: StretchSegment) => {
  const p = [s.preroll, ...s.pieces].find((x) => x !== undefined && 'input' in x);
  return p && 'input' in p ? p.input : 0;
};

/** The packets of a stretch's encode that present its samples. */
function stretchPart(file: string, s: StretchSegment): Mp4Part {
  const audio = readMp4Audio(file);
  const { first, count, skip } = stretchPackets(s, audio.priming);
  if (audio.sizes.length < first + count)
    throw new Error('internal: a re-encoded cut is shorter than its feed');
  return { file, audio: slice(audio, first, count, skip, s.samples) };
}

/** Encode every stretch of the plan; the MP4 of each, by segment index. */
async function encodeStretches(ctx: RouteContext, segments: SpliceSegment[]): Promise<Map<number, string>> {
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
      const owner = ownerOf(segments[which[j]] as StretchSegment);
      return { displayName: ctx.names[owner], index: owner };
    },
  });
  return new Map(which.map((k, j) => [k, jobs[j].output]));
}

/** The parts of the spliced output in order: copies of the inputs' packets and the encoded stretches. */
export async function splicedParts(ctx: RouteContext): Promise<SplicedParts> {
  const plan = planAacSplice(ctx.inputs.map((_, i) => sourceOf(ctx, i)));
  const encoded = await encodeStretches(ctx, plan.segments);
  const parts: Mp4Part[] = [];
  const owner: number[] = [];
  plan.segments.forEach((s, k) => {
    if (s.kind === 'stretch') {
      parts.push(stretchPart(encoded.get(k)!, s));
      owner.push(ownerOf(s));
      return;
    }
    const audio = trackOf(ctx, s.input);
    parts.push({ file: ctx.inputs[s.input], audio: slice(audio, s.from, s.to - s.from, s.skip, s.samples) });
    owner.push(s.input);
  });
  return { parts, owner, starts: plan.starts, total: plan.total };
}
