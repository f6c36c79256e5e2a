// Frames encoded elsewhere spliced between copied frames of a stream (a re-encoded crossfade), or
// the frames of separate encodes joined (an MP3 timeline's chunks).
// The spliced frames are encoded without the bit reservoir, so none reaches back into the copy
// before them. The copy after them may: its first frames' main_data_begin points into bytes of the
// frames they replaced. Those bytes are put at the end of the last spliced frame's main data, after
// its own (it reads nothing past them), and that frame takes a larger bit rate when it needs room.
import {
  bitRateKbps,
  frameLength,
  parseFrameHeader,
  readWord,
  sideInfoSize,
  type MpegVersion,
} from './frames.js';
import { frameCrc, globalGainBits } from './gain.js';
import { mainDataBegin, maxBackstep } from './reservoir.js';
import { FrameWalker } from './walk.js';

export interface StreamFormat {
  version: MpegVersion;
  sampleRate: number;
  channels: 1 | 2;
}

/** The whole frames of a stream of one format in `buf`, in order (junk and header frames left out). */
export function splitFrames(buf: Buffer, f: StreamFormat): Buffer[] {
  const walker = new FrameWalker(f.version, f.sampleRate, f.channels);
  const frames: Buffer[] = [];
  walker.walk(buf, 0, buf.length, true, (start, end) => {
    for (let pos = start; pos < end;) {
      const len = walker.lengthOf(readWord(buf, pos));
      frames.push(buf.subarray(pos, pos + len));
      pos += len;
    }
  });
  return frames;
}

const crcBytes = (frame: Uint8Array) => ((frame[1] & 1) === 0 ? 2 : 0);

/** Bytes of main data a frame carries (what follows its header, CRC and side information). */
export function mainDataSize(frame: Uint8Array, f: StreamFormat): number {
  return frame.length - 4 - crcBytes(frame) - sideInfoSize(f.version, f.channels);
}

/** Bytes of main data the frame's own granules use (part2_3_length, rounded up to a byte). */
export function ownDataBytes(frame: Uint8Array, f: StreamFormat): number {
  const at = 4 + crcBytes(frame);
  let bits = 0;
  for (const gain of globalGainBits(f.version, f.channels)) {
    const b = gain - 21; // part2_3_length (12 bits) and big_values (9) come before global_gain
    const byte = at + (b >>> 3);
    const word = (frame[byte] << 16) | (frame[byte + 1] << 8) | frame[byte + 2];
    bits += (word >>> (24 - 12 - (b & 7))) & 0xfff;
  }
  return Math.ceil(bits / 8);
}

/**
 * The reservoir bytes the frames `after` (the first copied ones, in order) read from before them,
 * taken from the end of the main data of `before` (the frames they followed, in order): the most
 * any of them reaches back past the ones ahead of it.
 */
export function reservoirBytes(
  before: readonly Uint8Array[],
  after: readonly Uint8Array[],
  f: StreamFormat,
): Buffer {
  let need = 0;
  let ahead = 0;
  for (const frame of after) {
    need = Math.max(need, mainDataBegin(frame, 0, f.version) - ahead);
    ahead += mainDataSize(frame, f);
    if (ahead >= maxBackstep(f.version)) break;
  }
  const out = Buffer.alloc(need);
  let fill = need;
  for (let k = before.length - 1; k >= 0 && fill > 0; k--) {
    const frame = before[k];
    const dataStart = frame.length - mainDataSize(frame, f);
    const take = Math.min(fill, frame.length - dataStart);
    out.set(frame.subarray(frame.length - take), fill - take);
    fill -= take;
  }
  return out;
}

const mainDataRoom = (f: StreamFormat, index: number, padding: boolean) =>
  frameLength(f.version, 3, bitRateKbps(f.version, 3, index) * 1000, f.sampleRate, padding) -
  4 -
  sideInfoSize(f.version, f.channels);

/**
 * The bit rate (kb/s) for encoding frames to splice ahead of a copy that needs `reservoir` bytes:
 * the nominal one, or the highest below it whose frames' own data leaves room for those bytes in
 * a frame of the highest bit rate.
 */
export function spliceBitRate(f: StreamFormat, nominalKbps: number, reservoir: number): number {
  if (reservoir === 0) return nominalKbps;
  const most = mainDataRoom(f, 14, false);
  let best = bitRateKbps(f.version, 3, 1);
  for (let i = 1; i < 15; i++) {
    const kbps = bitRateKbps(f.version, 3, i);
    if (kbps <= nominalKbps && mainDataRoom(f, i, true) + reservoir <= most) best = kbps;
  }
  return best;
}

/**
 * A frame with `reservoir` bytes at the end of its main data: as it is when it has room after its
 * own data, else at the lowest bit rate that has. A frame encoded with the reservoir has the first
 * main_data_begin bytes of its data in the frames before it; only the rest lies in its own slot.
 */
export function carryReservoir(frame: Uint8Array, reservoir: Uint8Array, f: StreamFormat): Buffer {
  const own = Math.max(0, ownDataBytes(frame, f) - mainDataBegin(frame, 0, f.version));
  const word = readWord(frame, 0);
  const h = parseFrameHeader(word);
  if (!h) throw new Error('internal: not a frame header');
  const head = 4 + crcBytes(frame) + sideInfoSize(f.version, f.channels);
  let index = h.bitRateIndex;
  let padding = h.padding;
  while (index < 15 && mainDataRoom(f, index, padding) - crcBytes(frame) < own + reservoir.length)
    [index, padding] = [index + 1, false];
  if (index === 15)
    throw new Error(`internal: no frame holds ${own} + ${reservoir.length} bytes of main data`);
  const length = head + mainDataRoom(f, index, padding) - crcBytes(frame);
  const out = Buffer.alloc(length);
  out.set(frame.subarray(0, head + own));
  out.writeUInt32BE(((word & ~0xf200) | (index << 12) | (padding ? 0x200 : 0)) >>> 0, 0);
  out.set(reservoir, length - reservoir.length);
  if (crcBytes(frame)) {
    const crc = frameCrc(out, 0, sideInfoSize(f.version, f.channels));
    out[4] = crc >>> 8;
    out[5] = crc & 0xff;
  }
  return out;
}
