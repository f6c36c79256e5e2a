// The metadata blocks of a FLAC file, read in-process: a probe of a FLAC input then needs no
// ffprobe start (each costs about 40 ms of CPU, a serial step ahead of the encode).
import { closeSync, fstatSync, openSync } from 'node:fs';
import { readFullSync } from '../io/sync-io.js';
import { framesLength } from './flac-frames.js';
import {
  FLAC_BLOCK,
  flacHead,
  streamInfo,
  type FlacBlock,
  type FlacHead,
  type StreamInfo,
} from './flac-info.js';

/** A comment block larger than this is left to ffprobe (it is read whole). */
const MAX_COMMENTS = 1 << 20;
/** How much of a PICTURE block is read: its head up to the picture data. */
const PICTURE_HEAD = 4096;
/** More blocks than any encoder writes: the bytes are not a FLAC head (ffprobe says what they are). */
const MAX_BLOCKS = 128;
/**
 * How much of the file's end is read to find its last frame: its stated largest frame, at least
 * 64 KiB (16-bit stereo frames of 4096 samples are at most 16 KiB), at most 4 MiB (above the
 * largest frame the format allows, 65,535 samples of 8 channels of 32 bits).
 */
const TAIL_MIN = 1 << 16;
const TAIL_MAX = 1 << 22;
/** A frame header's most bytes: sync and codes (4), a 7-byte number, block size (2), rate (2), CRC-8. */
const FRAME_HEADER_MAX = 16;

/** The bytes of a block the head needs: STREAMINFO and the comments whole, a picture's head. */
function wanted(type: number, length: number): number {
  if (type === FLAC_BLOCK.streaminfo || type === FLAC_BLOCK.vorbisComment) return length;
  return type === FLAC_BLOCK.picture ? Math.min(length, PICTURE_HEAD) : 0;
}

function read(fd: number, pos: number, len: number): Buffer {
  const buf = Buffer.alloc(len);
  return buf.subarray(0, readFullSync(fd, buf, 0, len, pos));
}

interface Blocks {
  blocks: FlacBlock[];
  size: number;
  /** Where the first frame starts. */
  audio: number;
}

/** The blocks up to the last, the file's size, where its audio starts; undefined when no frame follows them. */
function readBlocks(fd: number): Blocks | undefined {
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
  return sync.length === 2 && sync[0] === 0xff && (sync[1] & 0xfe) === 0xf8
    ? { blocks, size, audio: at }
    : undefined;
}

/**
 * The samples the frames hold (framesLength): the first frame's header and the file's last bytes
 * are read, two small reads whatever the file's length.
 */
function lengthOfFrames(fd: number, found: Blocks, info: StreamInfo): number | undefined {
  const window = Math.min(TAIL_MAX, Math.max(TAIL_MIN, info.maxFrameSize + FRAME_HEADER_MAX));
  const from = Math.max(found.audio, found.size - window);
  const samples = framesLength(
    read(fd, found.audio, FRAME_HEADER_MAX),
    read(fd, from, found.size - from),
    info,
  );
  return samples && samples > 0 ? samples : undefined;
}

/** Opened, its "fLaC" and blocks read, or undefined; closed after `use`. */
function withBlocks<T>(file: string, use: (fd: number, found: Blocks) => T | undefined): T | undefined {
  const fd = openSync(file, 'r');
  try {
    if (read(fd, 0, 4).toString('latin1') !== 'fLaC') return undefined;
    const found = readBlocks(fd);
    return found && use(fd, found);
  } finally {
    closeSync(fd);
  }
}

/**
 * How many samples (per channel) a FLAC file decodes to, from its frames, whatever its STREAMINFO
 * states; undefined when the frames do not tell it for sure (the file has to be decoded to know).
 */
export function readFlacSamples(file: string): number | undefined {
  return withBlocks(file, (fd, found) => {
    const [info] = found.blocks;
    const stream = info?.type === FLAC_BLOCK.streaminfo ? streamInfo(info.body) : undefined;
    return stream && lengthOfFrames(fd, found, stream);
  });
}

/**
 * A FLAC file's head (flacHead), the samples its frames hold (which a STREAMINFO that states
 * another length does not change), and its average bit rate over the whole file as ffmpeg states
 * it; undefined when ffprobe (and a decode) should read the file instead.
 */
export function readFlacHead(file: string): (FlacHead & { samples: number; bitRate: number }) | undefined {
  return withBlocks(file, (fd, found) => {
    const head = flacHead(found.blocks);
    const samples = head && lengthOfFrames(fd, found, head);
    if (!head || !samples) return undefined;
    return { ...head, samples, bitRate: Math.round((found.size * 8 * head.sampleRate) / samples) };
  });
}
