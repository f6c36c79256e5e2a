// Pure: a FLAC stream's length from its frames, not from what STREAMINFO states. STREAMINFO's
// total is a number anyone can write (0 means "unknown"), while ffmpeg decodes every frame there
// is; the last frame's header says where its samples start and how many it holds, so the file's
// tail alone gives the length the decoders will produce, without reading the rest.

/** The FLAC frame header's CRC-8 (polynomial x^8 + x^2 + x + 1, initial 0). */
const CRC8 = Uint8Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 0x80 ? ((c << 1) ^ 0x07) & 0xff : (c << 1) & 0xff;
  return c;
});

/** The FLAC frame's CRC-16 (polynomial x^16 + x^15 + x^2 + 1, initial 0). */
const CRC16 = Uint16Array.from({ length: 256 }, (_, n) => {
  let c = n << 8;
  for (let k = 0; k < 8; k++) c = c & 0x8000 ? ((c << 1) ^ 0x8005) & 0xffff : (c << 1) & 0xffff;
  return c;
});

export function crc8(buf: Uint8Array, from: number, to: number): number {
  let c = 0;
  for (let i = from; i < to; i++) c = CRC8[c ^ buf[i]];
  return c;
}

export function crc16(buf: Uint8Array, from: number, to: number): number {
  let c = 0;
  for (let i = from; i < to; i++) c = ((c << 8) & 0xffff) ^ CRC16[(c >> 8) ^ buf[i]];
  return c;
}

/** What a frame header says, when it is one: its CRC-8 checks and no field is reserved. */
export interface FrameHeader {
  /** Variable block size: `number` is the first sample's; fixed: the frame's index. */
  variable: boolean;
  number: number;
  blockSize: number;
  /** Channels, and bits per sample (0: as STREAMINFO says). */
  channels: number;
  bits: number;
  /** Its length in bytes, CRC-8 included. */
  length: number;
}

/** The stream's shape as STREAMINFO states it, which every frame must agree with. */
export interface StreamShape {
  channels: number;
  bitsPerSample: number;
  minBlockSize: number;
  maxBlockSize: number;
}

const BITS = [0, 8, 12, -1, 16, 20, 24, 32];

/** The UTF-8-like coded number at `at`: its value and length; undefined when malformed. */
function codedNumber(buf: Uint8Array, at: number): { value: number; length: number } | undefined {
  const first = buf[at];
  if (first === undefined || first === 0xff) return undefined;
  let extra = 0;
  while (extra < 7 && first & (0x80 >> extra)) extra++;
  if (extra === 1) return undefined; // a continuation byte
  const length = extra === 0 ? 1 : extra;
  let value = extra === 0 ? first : first & (0x7f >> extra);
  for (let k = 1; k < length; k++) {
    const b = buf[at + k];
    if (b === undefined || (b & 0xc0) !== 0x80) return undefined;
    value = value * 64 + (b & 0x3f);
  }
  return { value, length };
}

/** The block size its code says, with the bytes at `at` it may need: [size, bytes read]. */
function blockSizeOf(code: number, buf: Uint8Array, at: number): [number, number] | undefined {
  if (code === 0) return undefined;
  if (code === 1) return [192, 0];
  if (code <= 5) return [144 << code, 0];
  if (code === 6) return at < buf.length ? [buf[at] + 1, 1] : undefined;
  if (code === 7) return at + 1 < buf.length ? [((buf[at] << 8) | buf[at + 1]) + 1, 2] : undefined;
  return [256 << (code - 8), 0];
}

/** Bytes a sample rate code reads after the block size's. */
const rateBytes = (code: number) => (code === 12 ? 1 : code === 13 || code === 14 ? 2 : 0);

/** The frame header at `at`, when the bytes there are one (sync, no reserved field, CRC-8). */
export function frameHeader(buf: Uint8Array, at: number): FrameHeader | undefined {
  if (at + 4 > buf.length || buf[at] !== 0xff || (buf[at + 1] & 0xfe) !== 0xf8) return undefined;
  const rateCode = buf[at + 2] & 0x0f;
  const assignment = buf[at + 3] >> 4;
  const bits = BITS[(buf[at + 3] >> 1) & 0x07];
  if (rateCode === 15 || assignment > 10 || bits < 0 || buf[at + 3] & 0x01) return undefined;
  const number = codedNumber(buf, at + 4);
  if (!number) return undefined;
  const size = blockSizeOf(buf[at + 2] >> 4, buf, at + 4 + number.length);
  if (!size) return undefined;
  const end = at + 4 + number.length + size[1] + rateBytes(rateCode);
  if (end >= buf.length || crc8(buf, at, end) !== buf[end]) return undefined;
  return {
    variable: (buf[at + 1] & 0x01) === 1,
    number: number.value,
    blockSize: size[0],
    channels: assignment < 8 ? assignment + 1 : 2,
    bits,
    length: end + 1 - at,
  };
}

/** A frame of this stream: its shape agrees with STREAMINFO's. */
function agrees(h: FrameHeader, shape: StreamShape): boolean {
  return (
    h.channels === shape.channels &&
    (h.bits === 0 || h.bits === shape.bitsPerSample) &&
    h.blockSize <= shape.maxBlockSize
  );
}

/**
 * The stream's length in samples per channel, from its first frame's header (`head`, the bytes
 * where the audio starts) and the file's last bytes (`tail`): where the last frame starts, plus
 * its block size. The last frame is the one whose header checks and whose CRC-16 covers
 * everything after it to the end of the file. Undefined when that cannot be told for sure (no
 * such frame in the tail, bytes after it, frames of other shapes, a fixed block size that
 * STREAMINFO does not pin down): the length then has to be measured by decoding.
 */
export function framesLength(head: Uint8Array, tail: Uint8Array, shape: StreamShape): number | undefined {
  const first = frameHeader(head, 0);
  if (!first || first.number !== 0 || !agrees(first, shape)) return undefined;
  const last = lastFrame(withoutId3v1(tail), shape);
  if (!last || last.variable !== first.variable) return undefined;
  if (last.variable) return last.number + last.blockSize;
  // Fixed: every frame but the last holds the stream's one block size, which the first shows.
  if (last.number === 0) return last.blockSize;
  if (shape.minBlockSize !== shape.maxBlockSize || first.blockSize !== shape.maxBlockSize) return undefined;
  return last.number * shape.maxBlockSize + last.blockSize;
}

/** The tail without the 128-byte ID3v1 tag ("TAG" ...) some taggers still append to FLAC files. */
function withoutId3v1(tail: Uint8Array): Uint8Array {
  const at = tail.length - 128;
  const tagged = at >= 8 && tail[at] === 0x54 && tail[at + 1] === 0x41 && tail[at + 2] === 0x47;
  return tagged ? tail.subarray(0, at) : tail;
}

/** The header of the frame that ends the tail (its CRC-16 is the tail's last two bytes). */
function lastFrame(tail: Uint8Array, shape: StreamShape): FrameHeader | undefined {
  if (tail.length < 8) return undefined;
  const stated = (tail[tail.length - 2] << 8) | tail[tail.length - 1];
  for (let at = tail.length - 8; at >= 0; at--) {
    if (tail[at] !== 0xff) continue;
    const h = frameHeader(tail, at);
    if (h && agrees(h, shape) && crc16(tail, at, tail.length - 2) === stated) return h;
  }
  return undefined;
}
