// Reads back the Xing/Info/VBRI header frame the join wrote, and its LAME tag field by field, so
// tests can check its counts, seek table and what it says of the audio. The product only writes
// these frames (src/engine/mp3/xing.ts, lame.ts) and skips them in inputs; it reads back only the
// counts and the encoder delay.
import { parseFrameHeader, readWord } from '../../src/engine/mp3/frames.js';
import { INFO, VBRI, XING, XING_FLAGS } from '../../src/engine/mp3/xing.js';

export interface XingRead {
  kind: 'Xing' | 'Info' | 'VBRI';
  frames?: number;
  bytes?: number;
  toc?: Uint8Array;
}

/** Read the header frame at the start of `frame`; null when it is not one. */
export function readXingFrame(frame: Uint8Array): XingRead | null {
  const h = parseFrameHeader(readWord(frame, 0));
  if (!h || h.layer !== 3) return null;
  const crc = h.crc ? 2 : 0;
  for (const at of [4 + h.sideInfoSize, 4 + h.sideInfoSize + crc]) {
    if (at + 8 > frame.length) continue;
    const tag = readWord(frame, at);
    if (tag !== XING && tag !== INFO) continue;
    const flags = readWord(frame, at + 4);
    let p = at + 8;
    const out: XingRead = { kind: tag === XING ? 'Xing' : 'Info' };
    if (flags & XING_FLAGS.frames) {
      out.frames = readWord(frame, p);
      p += 4;
    }
    if (flags & XING_FLAGS.bytes) {
      out.bytes = readWord(frame, p);
      p += 4;
    }
    if (flags & XING_FLAGS.toc) out.toc = Uint8Array.from(frame.subarray(p, p + 100));
    return out;
  }
  if (frame.length >= 52 && readWord(frame, 36) === VBRI) {
    return { kind: 'VBRI', bytes: readWord(frame, 36 + 10), frames: readWord(frame, 36 + 14) };
  }
  return null;
}

/** The LAME extension of a header frame, field by field (the LAME tag layout, revision 0). */
export interface LameTagRead {
  version: string;
  /** The Xing quality field, when its flag is set. */
  quality?: number;
  /** Byte 9's low nibble: 1 CBR, 2 ABR, 3 to 6 VBR methods, 8 CBR 2-pass, 9 ABR 2-pass (0 unknown). */
  method: number;
  /** Hz / 100; 0 unknown. */
  lowpass: number;
  encodingFlags: number;
  /** CBR's bit rate, ABR's average, VBR's lowest, in kbit/s. */
  bitRateKbps: number;
  delay: number;
  padding: number;
  /** 0 mono, 1 stereo, 2 dual channel, 3 joint, 4 forced joint, 5 auto, 6 intensity, 7 undefined. */
  stereoMode: number;
  /** 0 up to 32 kHz, 1 44.1 kHz, 2 48 kHz, 3 above. */
  sampleRateClass: number;
  noiseShaping: number;
  /** 11 bits; 0 unknown. */
  preset: number;
  musicLength: number;
  /** The tag CRC as stored, and whether it is the CRC-16 of the frame up to it. */
  tagCrc: number;
  tagCrcOk: boolean;
}

/** CRC-16/ARC, as the LAME tag's CRC is computed (written out here, not the product's). */
function crc16Arc(b: Uint8Array, to: number): number {
  let c = 0;
  for (let i = 0; i < to; i++) {
    c ^= b[i];
    for (let k = 0; k < 8; k++) c = c & 1 ? (c >>> 1) ^ 0xa001 : c >>> 1;
  }
  return c;
}

/** Read the LAME extension after the Xing/Info fields of the header frame at the start of `frame`. */
export function readLameTag(frame: Uint8Array): LameTagRead | null {
  const h = parseFrameHeader(readWord(frame, 0));
  if (!h || h.layer !== 3) return null;
  const at = 4 + h.sideInfoSize;
  const tag = readWord(frame, at);
  if (tag !== XING && tag !== INFO) return null;
  const flags = readWord(frame, at + 4);
  let p = at + 8;
  if (flags & XING_FLAGS.frames) p += 4;
  if (flags & XING_FLAGS.bytes) p += 4;
  if (flags & XING_FLAGS.toc) p += 100;
  let quality: number | undefined;
  if (flags & XING_FLAGS.quality) {
    quality = readWord(frame, p);
    p += 4;
  }
  if (p + 36 > frame.length) return null;
  const b = (i: number) => frame[p + i];
  const tagCrc = (b(34) << 8) | b(35);
  return {
    version: Buffer.from(frame.subarray(p, p + 9)).toString('latin1'),
    quality,
    method: b(9) & 15,
    lowpass: b(10),
    encodingFlags: b(19),
    bitRateKbps: b(20),
    delay: (b(21) << 4) | (b(22) >>> 4),
    padding: ((b(22) & 15) << 8) | b(23),
    stereoMode: (b(24) >>> 2) & 7,
    sampleRateClass: b(24) >>> 6,
    noiseShaping: b(24) & 3,
    preset: ((b(26) & 7) << 8) | b(27),
    musicLength: readWord(frame, p + 28),
    tagCrc,
    tagCrcOk: crc16Arc(frame, p + 34) === tagCrc,
  };
}
