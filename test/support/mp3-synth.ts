// Hand-built MPEG frames for parser tests: a header word followed by a patterned body.
import { parseFrameHeader } from '../../src/engine/mp3/frames.js';

/** MPEG-1 layer III, 128 kb/s, 44.1 kHz, joint stereo, no CRC, no padding: 417 bytes. */
export const V1_128 = 0xfffb9064;

/** One frame with header `word` (padding as the word says); the body bytes are `fill`. */
export function frame(word: number, fill = 0x11): Buffer {
  const h = parseFrameHeader(word);
  if (!h || !h.frameLength) throw new Error(`bad test header ${word.toString(16)}`);
  const b = Buffer.alloc(h.frameLength, fill);
  b.writeUInt32BE(word, 0);
  return b;
}

/** `count` frames of `word`, bodies numbered so a copy can be told from another. */
export function frames(word: number, count: number, firstFill = 1): Buffer {
  return Buffer.concat(Array.from({ length: count }, (_, i) => frame(word, (firstFill + i) & 0x7f)));
}

/** Deterministic pseudo-random bytes (xorshift), so a failure can be replayed. */
export function noise(n: number, seed = 12345): Buffer {
  const b = Buffer.alloc(n);
  let x = seed >>> 0 || 1;
  for (let i = 0; i < n; i++) {
    x ^= x << 13;
    x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5;
    x >>>= 0;
    b[i] = x & 0xff;
  }
  return b;
}
