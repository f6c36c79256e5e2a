// A cover is a real JPEG or PNG within the limits every output format can carry (at most 10 MB,
// 4096 x 4096), or it is not a cover: a given one is refused with the reason, an input's own
// picture outside them is left out (the input itself is fine). Reading one never takes more
// than the limit, and stops when the merge is stopped.
import { constants, open as openFd } from 'node:fs';
import { open, stat } from 'node:fs/promises';
import { Socket } from 'node:net';
import { Readable } from 'node:stream';
import { promisify } from 'node:util';
import { AbortError } from '../errors.js';
import { QUIET, spawnRunner, type Runner } from '../ffmpeg/runner.js';
import type { Tools } from '../types.js';

export const COVER_LIMITS = { bytes: 10 * 1024 * 1024, side: 4096 } as const;

export interface Cover {
  mime: 'image/jpeg' | 'image/png';
  data: Buffer;
}

export type CoverCheck = { ok: true; cover: Cover } | { ok: false; reason: string };

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** Pure: PNG or JPEG by a file's first bytes (8 are enough), undefined for anything else. */
export function imageMime(head: Buffer): Cover['mime'] | undefined {
  if (head.length >= 8 && head.subarray(0, 8).equals(PNG_SIGNATURE)) return 'image/png';
  if (head.length >= 3 && head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) return 'image/jpeg';
  return undefined;
}

/** Pure: the image's kind and size, from its header; undefined when it is neither a whole PNG nor a JPEG. */
export function imageShape(data: Buffer): { mime: Cover['mime']; width: number; height: number } | undefined {
  const mime = imageMime(data);
  if (mime === 'image/png' && data.length >= 45) {
    const size = pngSize(data);
    return size && { mime, ...size };
  }
  if (mime === 'image/jpeg' && data.length >= 4) {
    const size = jpegSize(data);
    return size && { mime, ...size };
  }
  return undefined;
}

/** The bit depths PNG allows for each colour type. */
const PNG_DEPTHS: Record<number, number[]> = {
  0: [1, 2, 4, 8, 16],
  2: [8, 16],
  3: [1, 2, 4, 8],
  4: [8, 16],
  6: [8, 16],
};

/**
 * A PNG's size from its IHDR, when the file is built as a PNG is: IHDR first (a depth its colour
 * type allows), chunks whose lengths fit the file, image data (IDAT), and IEND at the very end.
 * A header alone is no picture: ffmpeg cannot write one into FLAC, so the merge would fail late.
 */
function pngSize(data: Buffer): { width: number; height: number } | undefined {
  if (data.readUInt32BE(8) !== 13 || data.toString('latin1', 12, 16) !== 'IHDR') return undefined;
  const [depth, colour, compression, filter, interlace] = data.subarray(24, 29);
  if (!PNG_DEPTHS[colour]?.includes(depth) || compression !== 0 || filter !== 0 || interlace > 1)
    return undefined;
  let at = 8;
  let imageData = false;
  while (at + 12 <= data.length) {
    const length = data.readUInt32BE(at);
    const type = data.toString('latin1', at + 4, at + 8);
    const next = at + 12 + length;
    if (next > data.length) return undefined;
    if (type === 'IDAT') imageData = length > 0 || imageData;
    if (type === 'IEND')
      return imageData && next === data.length
        ? { width: data.readUInt32BE(16), height: data.readUInt32BE(20) }
        : undefined;
    at = next;
  }
  return undefined;
}

/** Frame headers every output's muxer and every decoder take: baseline, extended and progressive Huffman. */
const HUFFMAN_FRAMES = [0xc0, 0xc1, 0xc2];

/**
 * A JPEG's frame size, walking the marker segments to its first frame header and on to the scan
 * that holds its picture. Only an 8-bit Huffman frame (SOF0-2) counts: an arithmetic-coded or
 * lossless one (SOF3, SOF9...) is a JPEG that ffmpeg cannot put into FLAC, and a frame header with
 * no scan after it is no picture.
 */
function jpegSize(data: Buffer): { width: number; height: number } | undefined {
  let at = 2;
  let size: { width: number; height: number } | undefined;
  while (at + 4 <= data.length) {
    if (data[at] !== 0xff) return undefined;
    const marker = data[at + 1];
    if (marker === 0xff) {
      at++;
      continue;
    }
    const length = data.readUInt16BE(at + 2);
    if (length < 2) return undefined;
    // SOF0-SOF15, except DHT (C4), JPG (C8) and DAC (CC).
    if (marker >= 0xc0 && marker <= 0xcf && ![0xc4, 0xc8, 0xcc].includes(marker)) {
      if (size || !HUFFMAN_FRAMES.includes(marker) || at + 10 > data.length || data[at + 4] !== 8)
        return undefined;
      size = { height: data.readUInt16BE(at + 5), width: data.readUInt16BE(at + 7) };
    }
    // The first scan: its header and at least one byte of coded data after it.
    if (marker === 0xda) return size && at + 2 + length < data.length ? size : undefined;
    at += 2 + length;
  }
  return undefined;
}

/** Pure: is this a cover every format can carry, and if not, why not (in words). */
export function checkCover(data: Buffer): CoverCheck {
  if (data.length > COVER_LIMITS.bytes)
    return { ok: false, reason: `cover is larger than ${COVER_LIMITS.bytes / (1024 * 1024)} MB` };
  const shape = imageShape(data);
  if (!shape) return { ok: false, reason: 'cover is not a JPEG or PNG image' };
  const { width, height } = shape;
  if (width < 1 || height < 1) return { ok: false, reason: 'cover is not a JPEG or PNG image' };
  if (width > COVER_LIMITS.side || height > COVER_LIMITS.side)
    return {
      ok: false,
      reason: `cover is ${width} x ${height} pixels, more than ${COVER_LIMITS.side} x ${COVER_LIMITS.side}`,
    };
  return { ok: true, cover: { mime: shape.mime, data } };
}

/**
 * Does ffmpeg decode this picture without an error? A header can be right and the picture not
 * (a JPEG without its quantisation tables, an arithmetic-coded one): such a cover would make some
 * output fail, or show as noise. One decode of one frame, the bytes on stdin.
 */
export async function coverDecodes(
  data: Buffer,
  opts: { tools: Pick<Tools, 'ffmpeg'>; runner?: Runner; signal?: AbortSignal },
): Promise<boolean> {
  const run = await (opts.runner ?? spawnRunner)({
    bin: opts.tools.ffmpeg,
    args: [...QUIET, '-f', 'image2pipe', '-i', 'pipe:0', '-frames:v', '1', '-f', 'null', '-'],
    stdin: Readable.from([data]),
    signal: opts.signal,
  });
  return run.code === 0 && run.stderrTail.trim() === '';
}

/**
 * At most `limit` + 1 bytes of `file` (one more than allowed tells "too large"), in pieces, so a
 * stop (SIGTERM) is heard between them and /dev/zero costs no more than the limit. A pipe is read
 * without blocking, so a writer that never writes (or never comes) cannot hold off a stop.
 */
export async function readAtMost(file: string, limit: number, signal?: AbortSignal): Promise<Buffer> {
  if ((await stat(file)).isFIFO()) return readPipeAtMost(file, limit, signal);
  const fh = await open(file, 'r');
  try {
    const chunks: Buffer[] = [];
    let total = 0;
    while (total <= limit) {
      if (signal?.aborted) throw new AbortError();
      const piece = Buffer.allocUnsafe(Math.min(1024 * 1024, limit + 1 - total));
      const { bytesRead } = await fh.read(piece, 0, piece.length, null);
      if (bytesRead === 0) break;
      chunks.push(piece.subarray(0, bytesRead));
      total += bytesRead;
    }
    return Buffer.concat(chunks, total);
  } finally {
    await fh.close();
  }
}

/**
 * A named pipe, opened non-blocking and read through the event loop (a blocking read would sit in
 * a worker thread no stop can reach): up to `limit` + 1 bytes, until its writers close, or a stop.
 */
async function readPipeAtMost(file: string, limit: number, signal?: AbortSignal): Promise<Buffer> {
  if (signal?.aborted) throw new AbortError();
  const fd = await promisify(openFd)(file, constants.O_RDONLY | constants.O_NONBLOCK);
  const pipe = new Socket({ fd, readable: true, writable: false });
  return new Promise<Buffer>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let total = 0;
    let done = false;
    const finish = (err?: Error) => {
      if (done) return;
      done = true;
      signal?.removeEventListener('abort', onAbort);
      pipe.destroy();
      if (err) reject(err);
      else resolve(Buffer.concat(chunks, total).subarray(0, limit + 1));
    };
    const onAbort = () => finish(new AbortError());
    signal?.addEventListener('abort', onAbort, { once: true });
    pipe.on('data', (chunk: Buffer) => {
      if (done) return;
      chunks.push(chunk);
      total += chunk.length;
      if (total > limit) finish();
    });
    pipe.once('end', () => finish());
    pipe.once('error', (err) => finish(err));
  });
}
