// The samples an MP3 decodes to, by the encoder delay and padding its LAME tag states (lame.ts
// reads them): the count ffmpeg gives after trimming both, without a decode.
import type { Gapless } from './lame.js';

/** Samples an MP3 decodes to, once ffmpeg has removed delay and padding by the LAME tag. */
export function mp3DecodedSamples(
  frames: number,
  samplesPerFrame: number,
  pad: Gapless | null | undefined,
): number {
  const all = frames * samplesPerFrame;
  if (!pad) return all;
  return Math.max(0, all - pad.delay - pad.padding);
}
