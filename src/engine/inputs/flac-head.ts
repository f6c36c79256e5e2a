// The metadata blocks of a FLAC file, read in-process: a probe of a FLAC input then needs no
// ffprobe start (each costs about 40 ms of CPU, a serial step ahead of the encode).
import { closeSync, fstatSync, openSync } from 'node:fs';
import { readFullSync } from '../io/sync-io.js';
import { FLAC_BLOCK, flacHead, type FlacBlock, type FlacHead } from './flac-info.js';

/** A comment block larger than this is left to ffprobe (it is read whole). */
const MAX_COMMENTS = 1 << 20;
/** How much of a PICTURE block is read: its head up to the picture data. */
const PICTURE_HEAD = 4096;
/** More blocks than any encoder writes: the bytes are not a FLAC head (ffprobe says what they are). */
const MAX_BLOCKS = 128;

/** The bytes of a block the head needs: STREAMINFO and the comments whole, a picture's head. */
function wanted(type: number, length: number): number {
  if (type === FLAC_BLOCK.streaminfo || type === FLAC_BLOCK.vorbisComment) return length;
  return type === FLAC_BLOCK.picture ? Math.min(length, PICTURE_HEAD) : 0;
}

function read(fd: number, pos: number, len: number): Buffer {
  const buf = Buffer.alloc(len);
  return buf.subarray(0, readFullSync(fd, buf, 0, len, pos));
}

/** The blocks up to the last, and the file's size; undefined when they do not end before its audio. */
function readBlocks(fd: number): { blocks: FlacBlock[]; size: number } | undefined {
  const size = fstatSync(fd).size;
  const blocks: FlacBlock[] = [];
  let at = 4;
  for (let last = false; !last;) {
    const header = read(fd, at, 4);
    if (header.length < 4 || blocks.length === MAX_BLOCKS) return undefined;
    last = (header[0] & 0x80) !== 0;
    const type = header[0] & 0x7f;
    const length = header.readUIntBE(1, 3);
    if (type === FLAC_BLOCK.vorbisComment && length > MAX_COMMENTS) return undefined;
    blocks.push({ type, length, body: read(fd, at + 4, wanted(type, length)) });
    at += 4 + length;
  }
  // The first audio frame's sync code follows the last block.
  const sync = read(fd, at, 2);
  return sync.length === 2 && sync[0] === 0xff && (sync[1] & 0xfe) === 0xf8 ? { blocks, size } : undefined;
}

/**
 * A FLAC file's head (flacHead), and its average bit rate over the whole file as ffmpeg states
 * it; undefined when ffprobe should read the file instead.
 */
export function readFlacHead(file: string): (FlacHead & { bitRate: number }) | undefined {
  const fd = openSync(file, 'r');
  try {
    if (read(fd, 0, 4).toString('latin1') !== 'fLaC') return undefined;
    const found = readBlocks(fd);
    const head = found && flacHead(found.blocks);
    if (!found || !head) return undefined;
    return { ...head, bitRate: Math.round((found.size * 8 * head.sampleRate) / head.samples) };
  } finally {
    closeSync(fd);
  }
}
