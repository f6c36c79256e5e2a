// The sound options in the MP3 route, without an encoder: copied inputs take their gain in the
// join (global_gain) or, when trimmed, from a shaped copy of their frames; the gap after a copied
// input is a part of silent frames of the stream's own format (an encoded input has its gap in
// its decode). The join's parts then map back to the inputs.
import path from 'node:path';
import { framesForSeconds } from '../mp3/silence.js';
import { firstFrameWord, writeGapPart, writeShapedPart } from '../mp3/sound-parts.js';
import type { Mp3Part } from '../output/mp3-output.js';
import type { RouteContext } from '../output/route-context.js';

export interface SoundedParts {
  parts: Mp3Part[];
  /** The input each join part belongs to (a gap belongs to the input before it). */
  owner: number[];
}

/** Frames per input from frames per join part. */
export function framesPerInput(
  partFrames: readonly number[],
  owner: readonly number[],
  inputs: number,
): number[] {
  const out = new Array<number>(inputs).fill(0);
  partFrames.forEach((n, k) => (out[owner[k]] += n));
  return out;
}

/** The join's parts from each input's (`groups`: its own, a run's chunks, or none inside a run). */
export async function soundParts(ctx: RouteContext, groups: Mp3Part[][]): Promise<SoundedParts> {
  const sound = ctx.sound;
  const owner = groups.flatMap((g, i) => g.map(() => i));
  if (!sound) return { parts: groups.flat(), owner };
  const out: Mp3Part[] = [];
  owner.length = 0;
  const template = groups.find((g) => g.length > 0)![0];
  const first = template.scan;
  const gapFrames = framesForSeconds(sound.gap, first.sampleRate, first.mpegVersion);
  let gap: Mp3Part | undefined;
  for (const [i, group] of groups.entries()) {
    const s = sound.inputs[i];
    const copied = ctx.plan.copy[i];
    for (const part of group) {
      let p = part;
      if (copied && s.keepFrames) {
        const file = path.join(await ctx.scratch(), `${i}.trimmed.mp3`);
        const scan = await writeShapedPart(
          part.file,
          part.scan,
          { gainSteps: s.gain?.steps, keep: s.keepFrames },
          file,
          ctx.signal,
        );
        // Cut at a frame, the part starts with its first kept frame and ends with its last.
        p = { file, scan, delay: 0, padding: 0 };
      } else if (copied && s.gain?.steps) {
        p = { ...part, gainSteps: s.gain.steps };
      }
      out.push(p);
      owner.push(i);
    }
    if (copied && gapFrames > 0 && i + 1 < groups.length) {
      if (!gap) {
        const file = path.join(await ctx.scratch(), 'gap.mp3');
        gap = {
          file,
          scan: writeGapPart(file, firstFrameWord(template.file, first), gapFrames, first),
          delay: 0,
          padding: 0,
        };
      }
      out.push(gap);
      owner.push(i);
    }
  }
  return { parts: out, owner };
}
