// The gap option in the MP4 route without a decode of the copied AAC: after each copied input but
// the last, a part of packets of encoded silence of the stream's own configuration (sameStream), so
// every input's packets are copied unchanged (an encoded input has its gap in its decode). Whole packets: the gap is as asked within half a
// packet (12 ms at 44.1 kHz), on top of each join's own priming and padding, as in the plain join.
import path from 'node:path';
import { encodeAacSilence } from '../ffmpeg/aac-silence.js';
import { readMp4Audio } from '../mp4/read.js';
import type { Mp4Part } from '../mp4/write.js';
import type { RouteContext } from '../output/route-context.js';

const FRAME = 1024;

/** Packets of silence nearest to `seconds` at `rate`. */
export function gapPackets(seconds: number, rate: number): number {
  return seconds > 0 ? Math.round((seconds * rate) / FRAME) : 0;
}

/** The first `packets` packets of an encode of silence, as a part that plays them all. */
async function silencePart(ctx: RouteContext, packets: number): Promise<Mp4Part> {
  const { plan } = ctx;
  const file = path.join(await ctx.scratch(), 'gap.m4a');
  // A few packets more than needed: the encoder's own priming and last packet are dropped.
  const seconds = ((packets + 3) * FRAME) / plan.sampleRate;
  await encodeAacSilence({
    output: file,
    target: { sampleRate: plan.sampleRate, channels: plan.channels, bitRateKbps: plan.bitRateKbps! },
    seconds,
    tools: ctx.tools,
    runner: ctx.runner,
    signal: ctx.signal,
  });
  const audio = readMp4Audio(file);
  if (audio.sizes.length < packets + 1)
    throw new Error('internal: the encoded silence is shorter than asked');
  const take = (a: Uint32Array | Float64Array) => a.slice(1, packets + 1);
  return {
    file,
    audio: {
      ...audio,
      sizes: take(audio.sizes) as Uint32Array,
      offsets: take(audio.offsets) as Float64Array,
      priming: 0,
      audioSamples: packets * FRAME,
    },
  };
}

/** The part of silence that follows each copied input but the last; none without a gap. */
export async function gapPart(ctx: RouteContext): Promise<Mp4Part | undefined> {
  const packets = gapPackets(ctx.sound?.gap ?? 0, ctx.plan.sampleRate);
  return packets > 0 && ctx.inputs.length > 1 ? silencePart(ctx, packets) : undefined;
}
