// Trims of copied AAC in the MP4 route: each input's packets copied unchanged but for a short
// stretch at each cut, decoded from the inputs and re-encoded (plan/aac-splice.ts has the plan),
// so the output holds exactly the kept samples and chapters start where each kept span does.
import path from 'node:path';
import { encodeAacStretch, type FeedPiece } from '../ffmpeg/aac-stretch.js';
import { readMp4Audio, type Mp4Audio } from '../mp4/read.js';
import type { Mp4Part } from '../mp4/write.js';
import {
  planAacSplice,
  stretchFeed,
  stretchPackets,
  type SpliceSource,
  type StretchSegment,
} from '../plan/aac-splice.js';
import type { RouteContext } from '../output/route-context.js';
import { perInput } from '../output/route-context.js';

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

/** Encode one stretch and keep the packets that present its samples. */
async function stretchPart(ctx: RouteContext, s: StretchSegment, k: number): Promise<Mp4Part> {
  const file = path.join(await ctx.scratch(), `cut-${k}.m4a`);
  const feed: FeedPiece[] = stretchFeed(s).map((p) =>
    'silence' in p ? p : { file: ctx.inputs[p.input], from: p.from, to: p.to },
  );
  const owner = ownerOf(s);
  const { plan } = ctx;
  await encodeAacStretch({
    feed,
    output: file,
    target: { sampleRate: plan.sampleRate, channels: plan.channels, bitRateKbps: plan.bitRateKbps! },
    tools: ctx.tools,
    runner: ctx.runner,
    signal: ctx.signal,
    displayName: ctx.names[owner],
    index: owner,
  });
  const audio = readMp4Audio(file);
  const { first, count, skip } = stretchPackets(s, audio.priming);
  if (audio.sizes.length < first + count)
    throw new Error('internal: a re-encoded cut is shorter than its feed');
  return { file, audio: slice(audio, first, count, skip, s.samples) };
}

/** The parts of the spliced output in order: copies of the inputs' packets and the encoded stretches. */
export async function splicedParts(ctx: RouteContext): Promise<SplicedParts> {
  const plan = planAacSplice(ctx.inputs.map((_, i) => sourceOf(ctx, i)));
  const stretches = plan.segments.flatMap((s, k) => (s.kind === 'stretch' ? [k] : []));
  const encoded = await perInput(ctx, stretches, (k) =>
    stretchPart(ctx, plan.segments[k] as StretchSegment, k),
  );
  const parts: Mp4Part[] = [];
  const owner: number[] = [];
  plan.segments.forEach((s, k) => {
    if (s.kind === 'stretch') {
      parts.push(encoded.get(k)!);
      owner.push(ownerOf(s));
      return;
    }
    const audio = trackOf(ctx, s.input);
    parts.push({ file: ctx.inputs[s.input], audio: slice(audio, s.from, s.to - s.from, s.skip, s.samples) });
    owner.push(s.input);
  });
  return { parts, owner, starts: plan.starts, total: plan.total };
}
