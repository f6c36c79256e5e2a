// Where encoders say how many samples they added: the LAME tag of an MP3's Info/Xing frame, the
// iTunSMPB comment of an MP4 from iTunes-style encoders, and an Ogg Opus stream's pre-skip. Pure
// byte and text parsers; ffmpeg already trims by them when it decodes, and these give the same
// sample counts without a decode (chapter starts, durations, checks).
import { readWord, type FrameHeader } from './frames.js';
import { XING_FLAGS } from './xing.js';

export interface EncoderPadding {
  /** Samples the encoder put before the audio. */
  delay: number;
  /** Samples it added after the audio to fill the last frame. */
  padding: number;
}

/** Offset of the LAME extension inside a Xing/Info frame (after the Xing fields present). */
function lameExtensionAt(frame: Uint8Array, h: FrameHeader): number {
  for (const at of [4 + h.sideInfoSize, 4 + h.sideInfoSize + 2]) {
    if (at + 8 > frame.length) continue;
    const tag = readWord(frame, at);
    if (tag !== 0x58696e67 && tag !== 0x496e666f) continue;
    const flags = readWord(frame, at + 4);
    let p = at + 8;
    if (flags & XING_FLAGS.frames) p += 4;
    if (flags & XING_FLAGS.bytes) p += 4;
    if (flags & XING_FLAGS.toc) p += 100;
    if (flags & XING_FLAGS.quality) p += 4;
    return p;
  }
  return -1;
}

/**
 * Encoder delay and padding from the LAME extension of a Xing/Info frame (LAME and ffmpeg's
 * muxer write it; 12 bits each, 21 bytes into the extension). Null when there is none.
 */
export function readLameDelays(frame: Uint8Array, h: FrameHeader): EncoderPadding | null {
  const p = lameExtensionAt(frame, h);
  if (p < 0 || p + 24 > frame.length) return null;
  // The extension starts with a 9-byte encoder name: 'LAME...', 'Lavc...', 'Lavf...' or 'GOGO'.
  const name = String.fromCharCode(...frame.subarray(p, p + 4));
  if (!/^(LAME|Lavc|Lavf|GOGO|L3.9)/.test(name)) return null;
  const b = frame.subarray(p + 21, p + 24);
  return { delay: (b[0] << 4) | (b[1] >>> 4), padding: ((b[1] & 0x0f) << 8) | b[2] };
}

/** Samples an MP3 decodes to, once ffmpeg has removed delay and padding by the LAME tag. */
export function mp3DecodedSamples(frames: number, samplesPerFrame: number, pad: EncoderPadding | null): number {
  const all = frames * samplesPerFrame;
  if (!pad) return all;
  return Math.max(0, all - pad.delay - pad.padding);
}

export interface ItunesSmpb extends EncoderPadding {
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
