// MPEG audio frame header arithmetic. Pure: works on a 32-bit header word read from a buffer.

export type MpegVersion = 1 | 2 | 2.5;

export interface FrameHeader {
  mpegVersion: MpegVersion;
  layer: 1 | 2 | 3;
  /** Protected by a 16-bit CRC that follows the header. */
  crc: boolean;
  bitRateIndex: number;
  /** Bits per second; 0 means free format (length not given by the header). */
  bitRate: number;
  sampleRateIndex: number;
  sampleRate: number;
  padding: boolean;
  /** 0 stereo, 1 joint stereo, 2 dual channel, 3 mono. */
  channelMode: number;
  channels: 1 | 2;
  samplesPerFrame: number;
  /** Bytes including the header; 0 for free format. */
  frameLength: number;
  /** Layer III side information bytes after the header (and CRC); 0 for layers I/II. */
  sideInfoSize: number;
}

// kbit/s by [table][index]; index 0 is free format, 15 is invalid.
const KBPS: readonly (readonly number[])[] = [
  [0, 32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448], // V1 L1
  [0, 32, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320, 384], // V1 L2
  [0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320], // V1 L3
  [0, 32, 48, 56, 64, 80, 96, 112, 128, 144, 160, 176, 192, 224, 256], // V2/2.5 L1
  [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160], // V2/2.5 L2, L3
];

const SAMPLE_RATES: Record<string, readonly number[]> = {
  '1': [44100, 48000, 32000],
  '2': [22050, 24000, 16000],
  '2.5': [11025, 12000, 8000],
};

/** Version bits (19-20) to version; 1 is reserved. */
const VERSION_BY_BITS: readonly (MpegVersion | 0)[] = [2.5, 0, 2, 1];
/** Layer bits (17-18) to layer; 0 is reserved. */
const LAYER_BY_BITS: readonly (0 | 1 | 2 | 3)[] = [0, 3, 2, 1];

/** Big-endian 32-bit word at `off` (unsigned). */
export function readWord(b: Uint8Array, off: number): number {
  return ((b[off] << 24) | (b[off + 1] << 16) | (b[off + 2] << 8) | b[off + 3]) >>> 0;
}

export function bitRateKbps(version: MpegVersion, layer: 1 | 2 | 3, index: number): number {
  const table = version === 1 ? layer - 1 : layer === 1 ? 3 : 4;
  return KBPS[table][index] ?? 0;
}

export function sampleRatesOf(version: MpegVersion): readonly number[] {
  return SAMPLE_RATES[String(version)];
}

export function samplesPerFrame(version: MpegVersion, layer: 1 | 2 | 3): number {
  if (layer === 1) return 384;
  if (layer === 2) return 1152;
  return version === 1 ? 1152 : 576;
}

export function sideInfoSize(version: MpegVersion, channels: 1 | 2): number {
  if (version === 1) return channels === 1 ? 17 : 32;
  return channels === 1 ? 9 : 17;
}

/** Frame length in bytes, header included. */
export function frameLength(
  version: MpegVersion,
  layer: 1 | 2 | 3,
  bitRate: number,
  sampleRate: number,
  padding: boolean,
): number {
  const pad = padding ? 1 : 0;
  if (layer === 1) return (Math.floor((12 * bitRate) / sampleRate) + pad) * 4;
  const coeff = layer === 3 && version !== 1 ? 72 : 144;
  return Math.floor((coeff * bitRate) / sampleRate) + pad;
}

/** Decode a header word; null when it is not a valid MPEG audio frame header. */
export function parseFrameHeader(word: number): FrameHeader | null {
  if ((word & 0xffe00000) >>> 0 !== 0xffe00000) return null;
  const mpegVersion = VERSION_BY_BITS[(word >>> 19) & 3];
  const layer = LAYER_BY_BITS[(word >>> 17) & 3];
  const bitRateIndex = (word >>> 12) & 15;
  const sampleRateIndex = (word >>> 10) & 3;
  if (mpegVersion === 0 || layer === 0 || bitRateIndex === 15 || sampleRateIndex === 3) return null;
  if ((word & 3) === 2) return null; // reserved emphasis
  const channelMode = (word >>> 6) & 3;
  const channels = channelMode === 3 ? 1 : 2;
  const sampleRate = sampleRatesOf(mpegVersion)[sampleRateIndex];
  const bitRate = bitRateKbps(mpegVersion, layer, bitRateIndex) * 1000;
  const padding = ((word >>> 9) & 1) === 1;
  const crc = ((word >>> 16) & 1) === 0;
  return {
    mpegVersion,
    layer,
    crc,
    bitRateIndex,
    bitRate,
    sampleRateIndex,
    sampleRate,
    padding,
    channelMode,
    channels,
    samplesPerFrame: samplesPerFrame(mpegVersion, layer),
    frameLength: bitRate ? frameLength(mpegVersion, layer, bitRate, sampleRate, padding) : 0,
    sideInfoSize: layer === 3 ? sideInfoSize(mpegVersion, channels) : 0,
  };
}

/** Bits that must not change from frame to frame: sync, version, layer, sample rate. */
export const STREAM_MASK = 0xfffe0c00;

/** Header word bits for a format (no CRC, bit rate index 0, no padding). */
export function formatWord(
  version: MpegVersion,
  layer: 1 | 2 | 3,
  sampleRate: number,
  channelMode: number,
): number {
  const rates = sampleRatesOf(version);
  const srIndex = rates.indexOf(sampleRate);
  if (srIndex < 0) throw new Error(`${sampleRate} Hz is not an MPEG-${version} sample rate`);
  const vBits = VERSION_BY_BITS.indexOf(version);
  const lBits = LAYER_BY_BITS.indexOf(layer);
  return (
    (0xffe00000 | (vBits << 19) | (lBits << 17) | (1 << 16) | (srIndex << 10) | (channelMode << 6)) >>> 0
  );
}

/**
 * Frame lengths of one stream format, for fast walking: lengths[index * 2 + padding].
 * Entry 0 (free format) is -1, entry 15 (invalid) is 0.
 */
export function lengthTable(version: MpegVersion, layer: 1 | 2 | 3, sampleRate: number): Int32Array {
  const t = new Int32Array(32);
  for (let i = 0; i < 16; i++) {
    for (let p = 0; p < 2; p++) {
      if (i === 0) t[i * 2 + p] = -1;
      else if (i === 15) t[i * 2 + p] = 0;
      else
        t[i * 2 + p] = frameLength(
          version,
          layer,
          bitRateKbps(version, layer, i) * 1000,
          sampleRate,
          p === 1,
        );
    }
  }
  return t;
}
