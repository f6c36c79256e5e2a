// Loudness change inside Layer III frames without decoding them, as mp3gain does: every granule's
// 8-bit global_gain in the side information scales that granule's decoded samples by 2^(1/4) per
// step (about 1.5 dB). Nothing else in a frame changes, except the CRC of a protected frame,
// which covers the side information and so is recomputed.
import { sideInfoSize, type MpegVersion } from './frames.js';

/** Decibels of one global_gain step: 20 * log10(2^(1/4)). */
export const GAIN_STEP_DB = 5 * Math.log10(2);

/** Bit offsets of each granule/channel's global_gain, from the start of the side information. */
export function globalGainBits(version: MpegVersion, channels: 1 | 2): number[] {
  const out: number[] = [];
  if (version === 1) {
    // main_data_begin 9, private bits 5 (mono) or 3, scfsi 4 per channel; then per granule and
    // channel: part2_3_length 12, big_values 9, global_gain 8, and 30 more bits (59 in all).
    const first = 9 + (channels === 1 ? 5 : 3) + 4 * channels + 12 + 9;
    for (let i = 0; i < 2 * channels; i++) out.push(first + 59 * i);
  } else {
    // MPEG-2/2.5, one granule: main_data_begin 8, private bits 1 (mono) or 2; per channel 63 bits
    // (scalefac_compress is 9 bits wide and there is no preflag).
    const first = 8 + (channels === 1 ? 1 : 2) + 12 + 9;
    for (let i = 0; i < channels; i++) out.push(first + 63 * i);
  }
  return out;
}

/** CRC-16 of MPEG audio (polynomial 0x8005, initial 0xffff, most significant bit first). */
export function mpegCrc16(b: Uint8Array, from: number, to: number, init = 0xffff): number {
  let crc = init;
  for (let i = from; i < to; i++) {
    crc ^= b[i] << 8;
    for (let k = 0; k < 8; k++) crc = crc & 0x8000 ? ((crc << 1) ^ 0x8005) & 0xffff : (crc << 1) & 0xffff;
  }
  return crc;
}

/** The CRC a protected Layer III frame at `pos` should carry: header bytes 2-3, then the side info. */
export function frameCrc(buf: Uint8Array, pos: number, sideInfoBytes: number): number {
  const crc = mpegCrc16(buf, pos + 2, pos + 4);
  return mpegCrc16(buf, pos + 6, pos + 6 + sideInfoBytes, crc);
}

function readBits8(buf: Uint8Array, at: number, bit: number): number {
  const byte = at + (bit >>> 3);
  const shift = bit & 7;
  const word = (buf[byte] << 8) | buf[byte + 1];
  return (word >>> (8 - shift)) & 0xff;
}

function writeBits8(buf: Uint8Array, at: number, bit: number, value: number): void {
  const byte = at + (bit >>> 3);
  const shift = bit & 7;
  const mask = 0xff00 >>> shift;
  const word = ((buf[byte] << 8) | buf[byte + 1]) & ~mask;
  const next = word | ((value << (8 - shift)) & mask);
  buf[byte] = (next >>> 8) & 0xff;
  buf[byte + 1] = next & 0xff;
}

/**
 * Changes the gain of Layer III frames of one stream format, frame by frame, in place. Built once
 * per stream (the field offsets depend only on version and channels) and called by the join on
 * each frame it copies.
 */
export class FrameGain {
  /** global_gain fields that hit 0 or 255 and could not move by the whole amount. */
  clamped = 0;
  /** Frames whose gain was changed (every frame handed over, when steps is not 0). */
  frames = 0;
  private readonly bits: number[];
  private readonly sideInfo: number;

  constructor(
    version: MpegVersion,
    channels: 1 | 2,
    /** Steps of GAIN_STEP_DB; negative is quieter. */
    readonly steps: number,
  ) {
    if (!Number.isInteger(steps)) throw new Error(`gain steps must be whole, not ${steps}`);
    this.bits = globalGainBits(version, channels);
    this.sideInfo = sideInfoSize(version, channels);
  }

  /** Apply the gain to the frame whose header starts at buf[pos]; the whole frame must be in buf. */
  apply(buf: Uint8Array, pos: number): void {
    if (this.steps === 0) return;
    this.frames++;
    const protectedFrame = (buf[pos + 1] & 1) === 0;
    const at = pos + 4 + (protectedFrame ? 2 : 0);
    for (const bit of this.bits) {
      const g = readBits8(buf, at, bit) + this.steps;
      const clampedG = g < 0 ? 0 : g > 255 ? 255 : g;
      if (clampedG !== g) this.clamped++;
      writeBits8(buf, at, bit, clampedG);
    }
    if (protectedFrame) {
      const crc = frameCrc(buf, pos, this.sideInfo);
      buf[pos + 4] = crc >>> 8;
      buf[pos + 5] = crc & 0xff;
    }
  }

  /**
   * Apply the gain to every frame of a run buf[start, end) of whole, back-to-back frames, as the
   * join's frame walker hands them over; `lengthOf` gives a frame's length from its header word.
   */
  applyRun(buf: Uint8Array, start: number, end: number, lengthOf: (word: number) => number): void {
    if (this.steps === 0) return;
    for (let pos = start; pos < end;) {
      const len = lengthOf(
        ((buf[pos] << 24) | (buf[pos + 1] << 16) | (buf[pos + 2] << 8) | buf[pos + 3]) >>> 0,
      );
      if (len <= 0) throw new Error(`internal: no frame at ${pos} of a run of frames`);
      this.apply(buf, pos);
      pos += len;
    }
  }
}

/** Steps of GAIN_STEP_DB nearest to `db`. */
export function stepsFor(db: number): number {
  return Math.round(db / GAIN_STEP_DB);
}
