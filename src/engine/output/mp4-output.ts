// What every MP4 output (M4B, M4A) shares, whichever route writes it: the container with its
// brand, tags and chapters, and an input named when one of its parts cannot be written.
import { InputError } from '../errors.js';
import { Mp4Error, readMp4Audio } from '../mp4/read.js';
import { writeMp4, type Mp4Part } from '../mp4/write.js';
import type { Chapter } from '../plan/chapters.js';
import { checkStage, mp4ShapeReason, type FallbackStage } from '../plan/fallback.js';
import { outputError } from './output-file.js';
import type { RouteContext } from './route-context.js';

/**
 * The MP4 of `parts` at the partial path, with the output's brand, tags and chapters. With a
 * `check` (a fast path made the parts), the written index is read back and checked against them
 * and the samples the route counted.
 */
export async function writeMp4Output(
  ctx: RouteContext,
  parts: Mp4Part[],
  chapters: Chapter[],
  {
    owner = parts.map((_, i) => i),
    check,
  }: { owner?: number[]; check?: { stage: FallbackStage; samples: number } } = {},
): Promise<void> {
  const { plan, meta } = ctx;
  await writeMp4(parts, ctx.partial, {
    brand: plan.format === 'm4b' ? 'M4B ' : 'M4A ',
    chapters,
    tags: { text: meta.tags, cover: meta.cover },
    signal: ctx.signal,
    onProgress: (done, all) => ctx.tracker.join(done, all),
  }).catch((err: unknown) => {
    // The writer names the part by its path and place; name the input that part belongs to.
    if (err instanceof Mp4Error && err.index >= 0)
      throw new InputError(ctx.names[owner[err.index]], err.code, err.reason, owner[err.index]);
    if ((err as NodeJS.ErrnoException).syscall === 'write')
      throw outputError(`cannot write ${ctx.output}`, err);
    throw err;
  });
  if (check) checkStage(ctx.failChecks, check.stage, () => writtenReason(ctx.partial, parts, check.samples));
}

/** The written MP4's packets, priming and length (its index read back) against its parts and the route's count. */
function writtenReason(file: string, parts: Mp4Part[], samples: number): string | undefined {
  const got = readMp4Audio(file);
  const audios = parts.map((p) => p.audio);
  return mp4ShapeReason(
    { packets: got.sizes.length, priming: got.priming, audioSamples: got.audioSamples },
    {
      packets: audios.reduce((n, a) => n + a.sizes.length, 0),
      priming: audios[0].priming,
      audioSamples: samples,
    },
  );
}
