// The decode every timeline and mix starts from: each input to raw PCM at the output's rate, in
// parallel, through its sound filters. The decoded bytes count each input's samples exactly.
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { decodeToPcm, type PcmTarget } from '../ffmpeg/transcode.js';
import { partJob, perInput, type RouteContext } from '../output/route-context.js';

export const bytesPerFrame = (t: PcmTarget) => t.channels * (t.sampleFormat === 's16le' ? 2 : 4);

/** Decode the inputs `indexes` (default all), in parallel, each to its own PCM file; files and sample counts in that order. */
export async function decodeAll(
  ctx: RouteContext,
  target: PcmTarget,
  indexes: number[] = ctx.inputs.map((_, i) => i),
  onProgress?: (i: number, fraction: number) => void,
): Promise<{ files: string[]; samples: number[] }> {
  const dir = await ctx.scratch();
  const done = await perInput(ctx, indexes, async (i) => {
    const file = path.join(dir, `${i}.pcm`);
    const job = partJob(ctx, i, file, target);
    await decodeToPcm(onProgress ? { ...job, onProgress: (f) => onProgress(i, f) } : job);
    return { file, samples: (await stat(file)).size / bytesPerFrame(target) };
  });
  return { files: indexes.map((i) => done.get(i)!.file), samples: indexes.map((i) => done.get(i)!.samples) };
}
