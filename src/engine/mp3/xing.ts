// Xing/Info/VBRI header frames: recognise them in inputs (they are metadata, not audio) and build
// the one the joined output starts with, so players show the true duration and seek right.
import { bitRateKbps, formatWord, frameLength, readWord, sideInfoSize, type MpegVersion } from './frames.js';

export const XING = 0x58696e67; // 'Xing'
export const INFO = 0x496e666f; // 'Info'
export const VBRI = 0x56425249; // 'VBRI'

export const XING_FLAGS = { frames: 1, bytes: 2, toc: 4, quality: 8 } as const;

/**
 * Whether the frame at `pos` is a Xing/Info/VBRI header frame. `xingAt` is 4 + side info size;
 * a CRC-protected frame puts the tag 2 bytes later. VBRI always sits 32 bytes after the header.
 */
export function isHeaderFrame(buf: Uint8Array, pos: number, xingAt: number): boolean {
  return (
    tagAt(buf, pos + xingAt) ||
    ((buf[pos + 1] & 1) === 0 && tagAt(buf, pos + xingAt + 2)) ||
    (pos + 40 <= buf.length && readWord(buf, pos + 36) === VBRI)
  );
}

/** 'Xing' or 'Info' at `at`; the first byte is tested alone since this runs once per frame. */
function tagAt(buf: Uint8Array, at: number): boolean {
  const c = buf[at];
  if ((c !== 0x58 && c !== 0x49) || at + 4 > buf.length) return false;
  const w = readWord(buf, at);
  return w === XING || w === INFO;
}

export interface XingFormat {
  mpegVersion: MpegVersion;
  sampleRate: number;
  channels: 1 | 2;
  /** Channel mode bits of the audio frames (0 stereo, 1 joint, 2 dual, 3 mono); joint stereo or mono by default. */
  channelMode?: number;
}

export interface XingPlan {
  /** Header word of the header frame (no CRC, no padding). */
  word: number;
  length: number;
  /** Offset of 'Xing'/'Info' inside the frame. */
  tagAt: number;
  /** Offset of the LAME extension: after the TOC, and the quality field when there is one. */
  lameAt: number;
}

// Tag, flags, frames, bytes, TOC, then the 36-byte LAME extension (encoder delay and padding);
// the 4-byte quality field before the extension only when the encoders' quality is known.
const BODY = 4 + 4 + 4 + 4 + 100 + 36;
const QUALITY_FIELD = 4;

/**
 * Choose the header frame's bit rate: the stream's own when it is CBR and the frame is big enough
 * (players that ignore the tag then still see one bit rate), else the smallest that holds the tag
 * (with room for the quality field when `withQuality`).
 */
export function planXingFrame(format: XingFormat, preferredBitRate?: number, withQuality = false): XingPlan {
  const { mpegVersion: v, sampleRate, channels } = format;
  const mode =
    channels === 1
      ? 3
      : format.channelMode !== undefined && format.channelMode !== 3
        ? format.channelMode
        : 1;
  const tagAt = 4 + sideInfoSize(v, channels);
  const need = tagAt + BODY + (withQuality ? QUALITY_FIELD : 0);
  const base = formatWord(v, 3, sampleRate, mode);
  let pick = -1;
  if (preferredBitRate) {
    let best = -1;
    for (let i = 1; i < 15; i++) {
      const d = Math.abs(bitRateKbps(v, 3, i) * 1000 - preferredBitRate);
      if (best < 0 || d < Math.abs(bitRateKbps(v, 3, best) * 1000 - preferredBitRate)) best = i;
    }
    if (frameLength(v, 3, bitRateKbps(v, 3, best) * 1000, sampleRate, false) >= need) pick = best;
  }
  for (let i = 1; pick < 0 && i < 15; i++) {
    if (frameLength(v, 3, bitRateKbps(v, 3, i) * 1000, sampleRate, false) >= need) pick = i;
  }
  if (pick < 0) throw new Error(`no MPEG-${v} ${sampleRate} Hz frame can hold a Xing header`);
  const word = (base | (pick << 12)) >>> 0;
  const length = frameLength(v, 3, bitRateKbps(v, 3, pick) * 1000, sampleRate, false);
  return { word, length, tagAt, lameAt: tagAt + 16 + 100 + (withQuality ? QUALITY_FIELD : 0) };
}

export interface XingContent {
  vbr: boolean;
  /** Audio frames, the header frame not included. */
  frames: number;
  /** Bytes of the header frame plus the audio frames. */
  bytes: number;
  toc: Uint8Array;
  /** The Xing quality field (0 best to 100), written only into a plan made with room for it. */
  quality?: number;
}

/** The header frame: side info all zero (a silent frame to decoders that do not know the tag). */
export function buildXingFrame(plan: XingPlan, content: XingContent): Buffer {
  const buf = Buffer.alloc(plan.length);
  buf.writeUInt32BE(plan.word, 0);
  let at = plan.tagAt;
  const quality = content.quality;
  if (plan.lameAt > plan.tagAt + 116 !== (quality !== undefined))
    throw new Error('internal: the quality field and the header frame plan disagree');
  buf.writeUInt32BE(content.vbr ? XING : INFO, at);
  const flags = XING_FLAGS.frames | XING_FLAGS.bytes | XING_FLAGS.toc;
  buf.writeUInt32BE(quality === undefined ? flags : flags | XING_FLAGS.quality, (at += 4));
  buf.writeUInt32BE(content.frames >>> 0, (at += 4));
  buf.writeUInt32BE(Math.min(content.bytes, 0xffffffff), (at += 4));
  buf.set(content.toc.subarray(0, 100), (at += 4));
  if (quality !== undefined) buf.writeUInt32BE(quality, at + 100);
  return buf;
}

/**
 * Seek table: entry i is the byte position (as 1/256 of `totalBytes`) where i% of the playing
 * time starts. As LAME writes it and ffmpeg reads it, positions count from the first audio frame
 * (just after the header frame) and `totalBytes` is the audio bytes; `offsets[k]` is frame k's.
 */
export function buildToc(offsets: Float64Array, frames: number, totalBytes: number): Uint8Array {
  const toc = new Uint8Array(100);
  if (frames === 0 || totalBytes === 0) return toc;
  for (let i = 0; i < 100; i++) {
    const k = Math.min(frames - 1, Math.floor((i * frames) / 100));
    toc[i] = Math.min(255, Math.floor((offsets[k] * 256) / totalBytes));
  }
  return toc;
}
