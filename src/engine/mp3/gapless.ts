// Where encoders say how many samples they added, beside the LAME tag (lame.ts reads that): the
// iTunSMPB comment of an MP4 from iTunes-style encoders, and an Ogg Opus stream's pre-skip. Pure
// byte and text parsers; ffmpeg already trims by them when it decodes, and these give the same
// sample counts without a decode (chapter starts, durations, checks).
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

export interface ItunesSmpb extends Gapless {
  /** Samples of real audio, as the encoder counted them. */
  samples: number;
}

/**
 * The iTunSMPB comment: hexadecimal words ' 00000000 <delay> <padding> <samples> ...'. Null when
 * the text is not one.
 */
export function parseItunSmpb(text: string): ItunesSmpb | null {
  const words = text.trim().split(/\s+/);
  if (words.length < 4 || !words.slice(0, 4).every((w) => /^[0-9a-fA-F]+$/.test(w))) return null;
  const delay = parseInt(words[1], 16);
  const padding = parseInt(words[2], 16);
  const samples = parseInt(words[3], 16);
  if (!Number.isSafeInteger(samples)) return null;
  return { delay, padding, samples };
}

/**
 * The pre-skip of an Ogg Opus stream, from the OpusHead packet in the file's first page
 * (48 kHz samples the decoder drops at the start). Null when `head` does not start with one.
 */
export function readOpusPreSkip(head: Uint8Array): number | null {
  if (head.length < 27 || String.fromCharCode(...head.subarray(0, 4)) !== 'OggS') return null;
  const segments = head[26];
  const body = 27 + segments;
  if (body + 19 > head.length) return null;
  if (String.fromCharCode(...head.subarray(body, body + 8)) !== 'OpusHead') return null;
  return head[body + 10] | (head[body + 11] << 8);
}
