// The LAME tag inside an encoder's Xing/Info frame states the frame count and the stream length,
// under a CRC. When both hold for the file as it is, the scan can take the count from it instead
// of reading every byte, so a copied input is read once (by the join, which re-checks every frame).
import { bitRateKbps, readWord, type FrameHeader, type MpegVersion } from './frames.js';
import { XING_FLAGS, type XingPlan } from './xing.js';

/** CRC-16/ARC (polynomial 0x8005 reflected), as LAME computes its tag and music CRCs. */
export function crc16(b: Uint8Array, from: number, to: number): number {
  let c = 0;
  for (let i = from; i < to; i++) {
    c ^= b[i];
    for (let k = 0; k < 8; k++) c = c & 1 ? (c >>> 1) ^ 0xa001 : c >>> 1;
  }
  return c;
}

/**
 * LAME's tag CRC covers the frame up to the CRC field. ffmpeg's muxer covers 190 bytes of its
 * frame buffer whatever the format: the CRC field as zeros, and zeros past a frame shorter than that.
 */
function ffmpegCrcBytes(frame: Uint8Array, crcAt: number): Uint8Array {
  const b = new Uint8Array(190);
  b.set(frame.subarray(0, Math.min(190, frame.length)));
  if (crcAt < 190) b[crcAt] = 0;
  if (crcAt + 1 < 190) b[crcAt + 1] = 0;
  return b;
}

export interface LameCounts {
  kind: 'Xing' | 'Info';
  frames: number;
  /** Xing "bytes": header frame plus audio frames. */
  bytes: number;
  /** LAME "music length": the same, by the LAME tag. */
  musicLength: number;
  /** Whether the tag's own CRC holds. */
  crcOk: boolean;
}

/** Read the Xing/Info counts and the LAME tag from a whole header frame; null when either is missing. */
export function readLameCounts(frame: Uint8Array, h: FrameHeader): LameCounts | null {
  const at = 4 + h.sideInfoSize;
  if (at + 8 > frame.length) return null;
  const tag = readWord(frame, at);
  const kind = tag === 0x58696e67 ? 'Xing' : tag === 0x496e666f ? 'Info' : null;
  if (!kind) return null;
  const flags = readWord(frame, at + 4);
  if (!(flags & XING_FLAGS.frames) || !(flags & XING_FLAGS.bytes)) return null;
  const frames = readWord(frame, at + 8);
  const bytes = readWord(frame, at + 12);
  let lame = at + 16;
  if (flags & XING_FLAGS.toc) lame += 100;
  if (flags & XING_FLAGS.quality) lame += 4;
  if (lame + 36 > frame.length) return null;
  const musicLength = readWord(frame, lame + 28);
  const stored = (frame[lame + 34] << 8) | frame[lame + 35];
  const crcOk =
    crc16(frame, 0, lame + 34) === stored || crc16(ffmpegCrcBytes(frame, lame + 34), 0, 190) === stored;
  return { kind, frames, bytes, musicLength, crcOk };
}

/**
 * The counts to trust for the audio after the header frame, or null: the tag CRC must hold, and
 * both stated lengths must equal the header frame plus the bytes actually there; the average frame
 * must fit the format (exactly the first frame's size, give or take padding, when CBR).
 */
export function trustedCounts(
  frame: Uint8Array,
  h: FrameHeader,
  regionBytes: number,
  firstAudio: FrameHeader,
): { frames: number; audioBytes: number; vbr: boolean } | null {
  const c = readLameCounts(frame, h);
  if (!c || !c.crcOk || c.frames === 0) return null;
  const total = frame.length + regionBytes;
  if (c.musicLength !== total || c.bytes !== total) return null;
  const avg = regionBytes / c.frames;
  if (c.kind === 'Info') {
    const unpadded = firstAudio.frameLength - (firstAudio.padding ? 1 : 0);
    if (avg < unpadded || avg > unpadded + 1) return null;
  } else if (avg < 20 || avg > 1441) return null;
  return { frames: c.frames, audioBytes: regionBytes, vbr: c.kind === 'Xing' };
}

/** Where the LAME extension starts in a header frame: after the Xing fields its flags say are there. */
function lameAt(frame: Uint8Array, h: FrameHeader): number | null {
  const at = 4 + h.sideInfoSize;
  if (at + 8 > frame.length) return null;
  const tag = readWord(frame, at);
  if (tag !== 0x58696e67 && tag !== 0x496e666f) return null;
  const flags = readWord(frame, at + 4);
  let lame = at + 8;
  if (flags & XING_FLAGS.frames) lame += 4;
  if (flags & XING_FLAGS.bytes) lame += 4;
  if (flags & XING_FLAGS.toc) lame += 100;
  if (flags & XING_FLAGS.quality) lame += 4;
  return lame + 36 <= frame.length ? lame : null;
}

export interface Gapless {
  /** Samples the encoder put before the audio (the decoder's own 529 not included). */
  delay: number;
  /** Samples after the audio in the last frame(s). */
  padding: number;
}

/** Encoder delay and padding from a LAME (or ffmpeg's Lavf/Lavc) tag, as ffmpeg reads them; null without one. */
export function readGapless(frame: Uint8Array, h: FrameHeader): Gapless | null {
  const lame = lameAt(frame, h);
  if (lame === null) return null;
  const version = Buffer.from(frame.subarray(lame, lame + 4)).toString('latin1');
  if (version !== 'LAME' && version !== 'Lavf' && version !== 'Lavc') return null;
  const v = (frame[lame + 21] << 16) | (frame[lame + 22] << 8) | frame[lame + 23];
  return { delay: v >>> 12, padding: v & 4095 };
}

/**
 * The Xing quality field LAME 3.100 writes at its default settings (-V 4, -q 3: 100 - 10 × 4 - 3),
 * in CBR as in VBR; ffmpeg's libmp3lame encodes at those defaults unless told otherwise.
 */
export const LAME_DEFAULT_QUALITY = 57;

/** The VBR method (byte 9's low nibble): 1 CBR, 8 CBR two-pass; 2 ABR, 9 ABR two-pass; 3 to 6 VBR. */
const CBR_METHODS = [1, 8];
const ABR_METHODS = [2, 9];
const VBR_METHODS = [2, 3, 4, 5, 6, 9];
/** The frames show CBR or VBR, never which VBR algorithm: 6, which no LAME switch writes, claims none. */
const PLAIN_VBR = 6;

/** LAME tag stereo mode values (bits 2-4 of byte 24), by the frame header's channel mode (0-3). */
const STEREO_MODE_BY_CHANNEL_MODE = [1, 3, 2, 0];
/** The stereo mode field's value for a stream whose frames switch between stereo and joint stereo. */
const STEREO_MODE_AUTO = 5;
/** Byte 24 less its stereo mode bits: noise shaping, the unwise-settings bit, the source rate class. */
const MISC_BUT_STEREO = 0xe3;

/**
 * How a LAME-made stream's encoder was set, as its tag states it: what a join carries over into
 * its own tag when every part states the same (the parts are then one encoder's, set one way).
 */
export interface LameSettings {
  /** The Xing quality field (LAME writes 100 - 10 × V - q), when stated. */
  quality?: number;
  method: number;
  /** Lowpass, in 100 Hz. */
  lowpass: number;
  /** ATH type and psychoacoustic flags (byte 19; the no-gap bits, one file's place in a set, left out). */
  encodingFlags: number;
  /** Noise shaping, unwise settings, source rate class (byte 24 less the stereo mode). */
  misc: number;
  /** Preset and surround info (bytes 26-27). */
  preset: number;
}

/** The settings of a real LAME tag (not ffmpeg's, which states none) whose CRC holds; null otherwise. */
export function readLameSettings(frame: Uint8Array, h: FrameHeader): LameSettings | null {
  const lame = lameAt(frame, h);
  if (lame === null || Buffer.from(frame.subarray(lame, lame + 4)).toString('latin1') !== 'LAME') return null;
  if (crc16(frame, 0, lame + 34) !== ((frame[lame + 34] << 8) | frame[lame + 35])) return null;
  const flags = readWord(frame, 4 + h.sideInfoSize + 4);
  return {
    quality: flags & XING_FLAGS.quality ? readWord(frame, lame - 4) : undefined,
    method: frame[lame + 9] & 15,
    lowpass: frame[lame + 10],
    encodingFlags: frame[lame + 19] & 0x3f,
    misc: frame[lame + 24] & MISC_BUT_STEREO,
    preset: (frame[lame + 26] << 8) | frame[lame + 27],
  };
}

/** The settings every one of `all` states alike; undefined when one states none or they differ. */
export function commonSettings(all: readonly (LameSettings | undefined)[]): LameSettings | undefined {
  const first = all[0];
  const same = (a: LameSettings | undefined) =>
    a !== undefined &&
    a.quality === first!.quality &&
    a.method === first!.method &&
    a.lowpass === first!.lowpass &&
    a.encodingFlags === first!.encodingFlags &&
    a.misc === first!.misc &&
    a.preset === first!.preset;
  return first !== undefined && all.every(same) ? first : undefined;
}

/** What the joined audio is, as the LAME tag's fields state it. */
export interface LameAudio {
  /** VBR method: 1 CBR (one bit rate in every frame), else a VBR one; the parts' own when they agree. */
  method: number;
  /** kbit/s: CBR's bit rate, ABR's average, VBR's lowest (255 means 255 or more). */
  bitRateKbps: number;
  /** 0 mono, 1 stereo, 2 dual channel, 3 joint stereo, 5 switching between stereo and joint. */
  stereoMode: number;
  /** The sample rate class: 0 up to 32 kHz, 1 44.1 kHz, 2 48 kHz, 3 above. */
  sampleRateClass: number;
  /** The parts' encoder settings, when they all state the same; else those fields stay zero (unknown). */
  settings?: LameSettings;
}

/** What the join saw of the frames it wrote. */
export interface FramesSeen {
  mpegVersion: MpegVersion;
  sampleRate: number;
  /** Bit i set when a frame used bit rate index i. */
  bitRateMask: number;
  /** Bit m set when a frame had header channel mode m (0-3). */
  channelModeMask: number;
  /** Bits per second over the whole stream. */
  averageBitRate: number;
}

/** The LAME tag's description of a stream from its frames, and from the parts' settings when they agree. */
export function lameAudioOf(seen: FramesSeen, settings?: LameSettings): LameAudio {
  const indexes = [...Array(15).keys()].filter((i) => i > 0 && seen.bitRateMask & (1 << i));
  const lowest = indexes.length > 0 ? bitRateKbps(seen.mpegVersion, 3, indexes[0]) : 0;
  const stated = settings?.method ?? 0;
  const method =
    indexes.length === 0
      ? 0
      : indexes.length === 1
        ? CBR_METHODS.includes(stated)
          ? stated
          : 1
        : VBR_METHODS.includes(stated)
          ? stated
          : PLAIN_VBR;
  const kbps = ABR_METHODS.includes(method) ? Math.round(seen.averageBitRate / 1000) : lowest;
  const modes = [0, 1, 2, 3].filter((m) => seen.channelModeMask & (1 << m));
  const stereoMode =
    modes.length === 0
      ? 7
      : modes.length === 1
        ? STEREO_MODE_BY_CHANNEL_MODE[modes[0]]
        : modes.every((m) => m === 0 || m === 1)
          ? STEREO_MODE_AUTO
          : 7;
  const rate = seen.sampleRate;
  return {
    method,
    bitRateKbps: Math.min(kbps, 255),
    stereoMode,
    sampleRateClass: rate <= 32000 ? 0 : rate === 44100 ? 1 : rate === 48000 ? 2 : 3,
    settings,
  };
}

/** What writeLameTag fills in. */
export interface LameTag {
  /** Encoder delay of the first part and padding of the last (gapless players trim both). */
  gapless: Gapless;
  /** Bytes of the header frame and the audio frames. */
  musicLength: number;
  audio: LameAudio;
}

/**
 * Fill in the LAME extension of a header frame built by buildXingFrame: the VBR method, the bit
 * rate, the stereo mode and sample rate class of the audio, the encoder delay and padding, the
 * music length, the tag CRC; the encoder's settings when the parts agree on them, else zero
 * (unknown). Peak and replay gain stay zero: no one measured the joined stream.
 */
export function writeLameTag(frame: Buffer, plan: XingPlan, tag: LameTag): void {
  const lame = plan.lameAt;
  const { gapless, audio } = tag;
  const settings = audio.settings;
  frame.write('LAME3.100', lame, 'latin1');
  frame[lame + 9] = audio.method; // revision 0 in the high nibble
  frame[lame + 10] = settings?.lowpass ?? 0;
  frame[lame + 19] = settings?.encodingFlags ?? 0;
  frame[lame + 20] = audio.bitRateKbps;
  const delay = Math.max(0, Math.min(4095, Math.round(gapless.delay)));
  const padding = Math.max(0, Math.min(4095, Math.round(gapless.padding)));
  frame[lame + 21] = delay >>> 4;
  frame[lame + 22] = ((delay & 15) << 4) | (padding >>> 8);
  frame[lame + 23] = padding & 255;
  const misc = settings ? settings.misc : audio.sampleRateClass << 6;
  frame[lame + 24] = misc | (audio.stereoMode << 2);
  frame.writeUInt16BE(settings?.preset ?? 0, lame + 26);
  frame.writeUInt32BE(Math.min(tag.musicLength, 0xffffffff) >>> 0, lame + 28);
  frame.writeUInt16BE(crc16(frame, 0, lame + 34), lame + 34);
}
