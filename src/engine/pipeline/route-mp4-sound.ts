// The gap option in the MP4 route without a decode of the copied AAC: after each part but the
// last, a part of packets of encoded silence of the stream's own configuration (sameStream), so
// every input's packets are copied unchanged. Whole packets: the gap is as asked within half a
// packet (12 ms at 44.1 kHz), on top of each join's own priming and padding, as in the plain join.
import path from 'node:path';
import { encodeAacSilence } from '../ffmpeg/aac-silence.js';
import { readMp4Audio } from '../mp4/read.js';
import type { Mp4Part } from '../mp4/write.js';
import type { RouteContext } from './route.js';

const FRAME = 1024;

export interface GappedParts {
  parts: Mp4Part[];
  /** The input each part belongs to (a gap to the input before it). */
  owner: number[];
}

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
  await encodeAacSilence({ output: file, target: { sampleRate: plan.sampleRate, channels: plan.channels, bitRateKbps: plan.bitRateKbps! }, seconds, tools: ctx.tools, runner: ctx.runner, signal: ctx.signal });
  const audio = readMp4Audio(file);
  if (audio.sizes.length < packets + 1) throw new Error('internal: the encoded silence is shorter than asked');
  const take = (a: Uint32Array | Float64Array) => a.slice(1, packets + 1);
  return { file, audio: { ...audio, sizes: take(audio.sizes) as Uint32Array, offsets: take(audio.offsets) as Float64Array, priming: 0, audioSamples: packets * FRAME } };
}

export async function gapParts(ctx: RouteContext, parts: Mp4Part[]): Promise<GappedParts> {
  const packets = gapPackets(ctx.sound?.gap ?? 0, ctx.plan.sampleRate);
  if (packets === 0 || parts.length < 2) return { parts, owner: parts.map((_, i) => i) };
  const gap = await silencePart(ctx, packets);
  const out: Mp4Part[] = [];
  const owner: number[] = [];
  parts.forEach((p, i) => {
    out.push(p);
    owner.push(i);
    if (i + 1 < parts.length) {
      out.push(gap);
      owner.push(i);
    }
  });
  return { parts: out, owner };
}
