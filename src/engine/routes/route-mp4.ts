// M4B/M4A output: AAC inputs that match are copied packet for packet; every run of the others
// (consecutive inputs that are encoded) is decoded to PCM and encoded as one timeline in parallel
// chunks (timeline/aac-timeline.ts), so a run brings one frame of priming and less than one of padding
// however many inputs it holds. A gap after a copied input is packets of encoded silence; after
// an encoded one it is silence in its decode. Chapter starts are counted packets, priming and
// decoded samples. Trimmed copies are cut at the sample by re-encoding only a stretch at each cut
// (sound/mp4-splice.ts).
import type { Mp4Audio } from '../mp4/read.js';
import { mp4PartStarts, sameStream, type Mp4Part } from '../mp4/write.js';
import { encodeAacTimeline } from '../timeline/aac-timeline.js';
import { writeMp4Output } from '../output/mp4-output.js';
import type { RouteContext, RouteResult } from '../output/route-context.js';
import { gapPart } from '../sound/mp4-gap.js';
import { encodeRuns } from '../timeline/timeline-encode.js';
import { splicedParts, splicesAac } from '../sound/mp4-splice.js';
import { aacPartReason, checkStage, lengthReason } from '../plan/fallback.js';
import { AAC_FRAME } from '../plan/chunks.js';

function copiedPart(ctx: RouteContext, i: number): Mp4Part {
  const audio = ctx.probed[i].mp4;
  if (!audio) throw new Error(`internal: no packet index for input ${i}`);
  return { file: ctx.inputs[i], audio };
}

function checkOneStream(ctx: RouteContext, audios: Mp4Audio[], owner: number[]): void {
  // The planner copies only AAC of the output's shape and encodes the rest to it: a mismatch is a bug.
  const bad = audios.findIndex((a) => !sameStream(a, audios[0]));
  if (bad >= 0) throw new Error(`internal: the AAC of ${ctx.names[owner[bad]]} differs from the output's`);
}

/** Copied AAC trimmed at the sample: packets copied but for a re-encoded stretch at each cut. */
async function splicedRoute(ctx: RouteContext): Promise<RouteResult> {
  const { parts, owner, starts, total } = await splicedParts(ctx);
  const audios = parts.map((p) => p.audio);
  checkOneStream(ctx, audios, owner);
  const rate = parts[0].audio.sampleRate;
  checkStage(ctx.failChecks, 'aac-splice', () => splicedReason(ctx, total, rate));
  const chapters = ctx.chapters(
    starts.map((s) => s / rate),
    total / rate,
  );
  await writeMp4Output(ctx, parts, chapters, { owner, check: { stage: 'aac-splice', samples: total } });
  return { durationSeconds: total / rate, chapters };
}

/**
 * The spliced parts present what the inputs' kept spans add up to (each next input starts on a
 * packet of its own, up to a frame after the previous one's end).
 */
function splicedReason(ctx: RouteContext, total: number, rate: number): string | undefined {
  const kept = ctx.probed.reduce((n, p, i) => {
    const keep = ctx.sound?.inputs[i].keep;
    return n + (keep ? Math.round(keep.end * rate) - Math.round(keep.start * rate) : p.mp4!.audioSamples);
  }, 0);
  return lengthReason('the spliced AAC', total, kept, AAC_FRAME * ctx.inputs.length, rate);
}

/** Each copied input's edit list lies inside its packets. */
function copiesReason(ctx: RouteContext, parts: Mp4Part[]): string | undefined {
  const copied = parts.filter((p) => ctx.inputs.includes(p.file)).map((p) => p.audio);
  const shapes = copied.map((a) => ({
    packets: a.sizes.length,
    priming: a.priming,
    audioSamples: a.audioSamples,
  }));
  return aacPartReason(shapes, AAC_FRAME);
}

export async function mp4Route(ctx: RouteContext): Promise<RouteResult> {
  if (splicesAac(ctx)) return splicedRoute(ctx);
  const runs = await encodeRuns(ctx, (timelines, pcm, onProgress) =>
    encodeAacTimeline(ctx, timelines, pcm, onProgress),
  );
  const gap = await gapPart(ctx);
  // Parts in output order, the input each belongs to (a run's chunks to its first input, a gap
  // to the input before it), and per input the part its audio starts in and how far into it.
  const parts: Mp4Part[] = [];
  const owner: number[] = [];
  const where: { part: number; offset: number }[] = [];
  const add = (part: Mp4Part, input: number) => {
    parts.push(part);
    owner.push(input);
  };
  ctx.inputs.forEach((_, i) => {
    const run = runs.get(i);
    if (run) {
      let offset = 0;
      run.samples.forEach((n) => {
        where.push({ part: parts.length, offset });
        offset += n;
      });
      run.parts.forEach((p) => add(p, i));
    } else if (ctx.plan.copy[i]) {
      where.push({ part: parts.length, offset: 0 });
      add(copiedPart(ctx, i), i);
      if (gap && i + 1 < ctx.inputs.length) add(gap, i);
    }
  });
  const audios = parts.map((p) => p.audio);
  checkOneStream(ctx, audios, owner);
  const copies = ctx.plan.copy.some(Boolean);
  if (copies) checkStage(ctx.failChecks, 'aac-copy', () => copiesReason(ctx, parts));
  const rate = audios[0].sampleRate;
  const { starts, total } = mp4PartStarts(audios);
  const chapters = ctx.chapters(
    where.map((w) => (starts[w.part] + w.offset) / rate),
    total / rate,
  );
  await writeMp4Output(ctx, parts, chapters, {
    owner,
    check: { stage: copies ? 'aac-copy' : 'chunked-encode', samples: total },
  });
  return { durationSeconds: total / rate, chapters };
}
