// Opus, Vorbis, FLAC and WAV output: every input decoded to raw PCM at the output's rate, in
// parallel, then one encode of them all. The decoded bytes count each part's samples exactly,
// so chapter starts are sums of samples; FLAC and WAV keep every decoded sample.
import type { PcmTarget } from '../ffmpeg/transcode.js';
import type { OutputPlan } from '../plan/output-plan.js';
import { encodeJoined } from '../output/pcm-output.js';
import type { RouteContext, RouteResult } from '../output/route-context.js';
import { decodeAll } from '../timeline/decode.js';

export function pcmTarget(plan: OutputPlan): PcmTarget {
  const lossless = plan.format === 'flac' || plan.format === 'wav';
  const sampleFormat = !lossless ? 'f32le' : plan.bitDepth === 24 ? 's32le' : 's16le';
  return { sampleRate: plan.sampleRate, channels: plan.channels, sampleFormat };
}

export async function pcmRoute(ctx: RouteContext): Promise<RouteResult> {
  const target = pcmTarget(ctx.plan);
  const { files, samples } = await decodeAll(ctx, target);
  const starts: number[] = [];
  let total = 0;
  for (const n of samples) {
    starts.push(total / ctx.plan.sampleRate);
    total += n;
  }
  return encodeJoined(ctx, files, target, { starts, total: total / ctx.plan.sampleRate });
}
