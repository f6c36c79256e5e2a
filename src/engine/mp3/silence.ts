// Silent Layer III frames in a stream's own format, so a gap in a copied MP3 stream needs no
// encoder: a frame whose side information is all zero has no Huffman data (part2_3_length 0),
// so every granule decodes to zero, and its main data bytes are zero filler.
import { bitRateKbps, frameLength, parseFrameHeader, sideInfoSize, type MpegVersion } from './frames.js';

/** Samples of one Layer III frame: 1152 for MPEG-1, 576 for MPEG-2 and 2.5. */
export function layer3SamplesPerFrame(version: MpegVersion): number {
  return version === 1 ? 1152 : 576;
}

/**
 * Whole frames nearest to `seconds` at `sampleRate` (never negative). Counted in samples, so the
 * result is off by at most half a frame, whatever the length.
 */
export function framesForSeconds(seconds: number, sampleRate: number, version: MpegVersion): number {
  if (!(seconds > 0)) return 0;
  const samples = Math.round(seconds * sampleRate);
  return Math.round(samples / layer3SamplesPerFrame(version));
}

/** The smallest bit rate index whose unpadded frame holds the header and side information. */
export function smallestBitRateIndex(version: MpegVersion, sampleRate: number, channels: 1 | 2): number {
  const need = 4 + sideInfoSize(version, channels);
  for (let i = 1; i < 15; i++) {
    if (frameLength(version, 3, bitRateKbps(version, 3, i) * 1000, sampleRate, false) >= need) return i;
  }
  throw new Error(`no MPEG-${version} ${sampleRate} Hz frame holds a side information block`);
}

/**
 * One silent frame shaped like the stream whose header word is `template` (a frame of that
 * stream): same version, rate, channel mode and flags, no CRC, no padding. `bitRateIndex`
 * defaults to the smallest that fits; a constant-bit-rate stream may pass its own so it stays one.
 */
export function silentFrame(template: number, bitRateIndex?: number): Buffer {
  const t = parseFrameHeader(template);
  if (!t || t.layer !== 3) throw new Error(`not a Layer III header: ${template.toString(16)}`);
  const index = bitRateIndex ?? smallestBitRateIndex(t.mpegVersion, t.sampleRate, t.channels);
  // Keep sync, version, layer, rate, channel mode, copyright, original and emphasis; set the
  // protection bit (no CRC), the bit rate, and clear padding, private bit and mode extension.
  const word = ((template & 0xfffe0cc0) | 0x00010000 | (index << 12) | (template & 0x0f)) >>> 0;
  const h = parseFrameHeader(word);
  if (!h || h.frameLength < 4 + h.sideInfoSize)
    throw new Error(`bit rate index ${index} cannot hold a silent frame`);
  const frame = Buffer.alloc(h.frameLength);
  frame.writeUInt32BE(word, 0);
  return frame;
}

/** `count` silent frames back to back, built from one. */
export function silentFrames(template: number, count: number, bitRateIndex?: number): Buffer {
  if (count <= 0) return Buffer.alloc(0);
  const one = silentFrame(template, bitRateIndex);
  const out = Buffer.allocUnsafe(one.length * count);
  for (let i = 0; i < count; i++) one.copy(out, i * one.length);
  return out;
}
