// Streaming scan of an MP3 file: tags, stream format, exact frame count and duration, in flat memory.
import { closeSync, fstatSync, openSync } from 'node:fs';
import { AbortError } from '../errors.js';
import { readId3v2Chapters, readId3v2Text, type Id3ChapterRead } from './id3-read.js';
import { parseFrameHeader, readWord, type FrameHeader } from './frames.js';
import { readGapless, readLameSettings, trustedCounts, type Gapless, type LameSettings } from './lame.js';
import { FormatChangeError, FrameWalker, FreeFormatError } from './walk.js';
import { findStreamStart } from './sync.js';
import { headTagSize, readId3v1, tailTag, TAIL_WINDOW } from './tags.js';
import { nextTurn, readFullSync } from '../io/sync-io.js';
import { isHeaderFrame } from './xing.js';

export interface Mp3Scan {
  mpegVersion: 1 | 2 | 2.5;
  layer: 3;
  sampleRate: number;
  channels: 1 | 2;
  samplesPerFrame: number;
  /** Audio frames, excluding any Xing/Info/VBRI frame. */
  frames: number;
  /** Bytes of those frames. */
  audioBytes: number;
  /** Byte range holding the audio frames (after tags and header frame). */
  audioStart: number;
  audioEnd: number;
  /** frames * samplesPerFrame / sampleRate */
  durationSeconds: number;
  /** Average bits per second. */
  bitRate: number;
  /** Frames differ in bit rate. */
  vbr: boolean;
  /** title/artist/album when present. */
  tags: Record<string, string>;
  /** Encoder delay and padding from the stream's LAME tag, when it has one. */
  gapless?: Gapless;
  /** The encoder's settings, when a LAME tag (LAME's own, CRC intact) states them. */
  encoder?: LameSettings;
  /** The ID3v2 tag holds a picture (APIC). */
  hasPicture?: boolean;
  /** The chapters its ID3v2 tag carries (CHAP frames), by start. */
  chapters?: Id3ChapterRead[];
}

export type Mp3ScanOutcome =
  | { ok: true; scan: Mp3Scan }
  /** formatChange: MP3 frames of more than one format, which ffmpeg can still decode whole. */
  | { ok: false; reason: string; formatChange?: boolean };

const CHUNK = 1 << 20;
/** How far past the tags the first frame may lie (encoders pad tags; some leave junk). */
const SEARCH = 64 * 1024;
const MAX_TAG_READ = 1 << 20;

function readAt(fd: number, buf: Buffer, pos: number, len: number, at = 0): number {
  return readFullSync(fd, buf, at, len, pos);
}

function popcount(x: number): number {
  let n = 0;
  for (; x; x &= x - 1) n++;
  return n;
}

/** Whether buf[0, len) ends with at least two whole consistent frames, the last ending exactly at len. */
function endsWithFrames(walker: FrameWalker, buf: Buffer, len: number): boolean {
  for (let p = 0; p + 4 <= len; p++) {
    if (buf[p] !== 0xff) continue;
    let q = p;
    let n = 0;
    while (q + 4 <= len) {
      const l = walker.lengthOf(readWord(buf, q));
      if (l <= 0) break;
      q += l;
      n++;
    }
    if (q === len && n >= 2) return true;
  }
  return false;
}

/** The file's byte range between its head and tail tags, where the MP3 stream lies. */
interface Region {
  start: number;
  end: number;
}

/** The stream's first frame, found in the head of the region read into `buf[0, len)`. */
interface StreamHead {
  buf: Buffer;
  len: number;
  /** Index in `buf` of the first frame (a header frame, or audio). */
  offset: number;
  header: FrameHeader;
}

/** What the scan learns of the file besides its audio frames. */
interface Extras {
  tags: Record<string, string>;
  gapless?: Gapless;
  encoder?: LameSettings;
  hasPicture?: boolean;
  chapters?: Id3ChapterRead[];
}

/** The scan of `frames` frames of the stream `h` starts, in the file's bytes [audioStart, audioEnd). */
function scanOf(
  h: FrameHeader,
  counts: { frames: number; audioBytes: number; vbr: boolean },
  audioStart: number,
  audioEnd: number,
): Omit<Mp3Scan, keyof Extras> {
  const durationSeconds = (counts.frames * h.samplesPerFrame) / h.sampleRate;
  return {
    mpegVersion: h.mpegVersion,
    layer: 3,
    sampleRate: h.sampleRate,
    channels: h.channels,
    samplesPerFrame: h.samplesPerFrame,
    frames: counts.frames,
    audioBytes: counts.audioBytes,
    audioStart,
    audioEnd,
    durationSeconds,
    bitRate: Math.round((counts.audioBytes * 8) / durationSeconds),
    vbr: counts.vbr,
  };
}

/** What the tags before the audio say: where the audio starts, the ID3v2 text, frame ids and chapters. */
interface HeadTags {
  start: number;
  tags: Record<string, string>;
  frameIds: Set<string>;
  chapters: Id3ChapterRead[];
}

/** The tags before the audio (ID3v2, APE): where the audio region starts, and the ID3v2 text, frame ids and chapters. */
function readHeadTags(fd: number): HeadTags {
  const small = Buffer.alloc(32);
  const tags: Record<string, string> = {};
  const frameIds = new Set<string>();
  let chapters: Id3ChapterRead[] = [];
  let start = 0;
  for (let guard = 0; guard < 64; guard++) {
    const n = readAt(fd, small, start, 32);
    const t = headTagSize(small.subarray(0, n), 0);
    if (!t) break;
    if (small[0] === 0x49 && Object.keys(tags).length === 0) {
      const tagBuf = Buffer.alloc(Math.min(t, MAX_TAG_READ));
      readAt(fd, tagBuf, start, tagBuf.length);
      Object.assign(tags, readId3v2Text(tagBuf, frameIds));
      if (frameIds.has('CHAP')) chapters = readId3v2Chapters(tagBuf);
    }
    start += t;
  }
  return { start, tags, frameIds, chapters };
}

/** The tags after the audio (ID3v1, APE, Lyrics3, ID3v2): where the audio region ends. ID3v1 fills gaps in `tags`. */
function readTailTags(fd: number, start: number, size: number, tags: Record<string, string>): number {
  let end = size;
  const tail = Buffer.alloc(TAIL_WINDOW);
  for (let guard = 0; guard < 16 && end > start; guard++) {
    const from = Math.max(start, end - TAIL_WINDOW);
    const n = readAt(fd, tail, from, end - from);
    const t = tailTag(tail.subarray(0, n), from - start);
    if (!t || t.size > end - start) break;
    if (t.kind === 'id3v1') {
      for (const [k, v] of Object.entries(readId3v1(tail.subarray(n - 128, n)))) tags[k] ??= v;
    }
    end -= t.size;
  }
  return end;
}

/**
 * The head of the region, and the first frame in it. Only the head at first: most scans end at a
 * trusted LAME tag, and a 1 MiB buffer per input was most of the garbage collector's work in a
 * join of many files.
 */
function findStream(
  fd: number,
  { start, end }: Region,
): { ok: true; head: StreamHead } | { ok: false; reason: string } {
  const buf = Buffer.allocUnsafe(Math.min(SEARCH + 8192, end - start) + 8192);
  const len = readAt(fd, buf, start, Math.min(SEARCH + 8192, end - start));
  const found = findStreamStart(buf, len, start + len === end, SEARCH);
  if (!found.ok) return found;
  return { ok: true, head: { buf, len, offset: found.offset, header: found.header } };
}

/** The LAME tag's delay and padding, and its encoder settings, when the stream starts with a header frame that has one. */
function headLameTag({ buf, len, offset, header: h }: StreamHead): Pick<Extras, 'gapless' | 'encoder'> {
  if (offset + h.frameLength > len || !isHeaderFrame(buf, offset, 4 + h.sideInfoSize)) return {};
  const frame = buf.subarray(offset, offset + h.frameLength);
  return { gapless: readGapless(frame, h) ?? undefined, encoder: readLameSettings(frame, h) ?? undefined };
}

/**
 * The scan from the encoder's LAME tag (lame.ts) when the stream starts with one that can be
 * trusted and the file still ends in whole frames; null to walk every frame instead.
 */
function fromLameTag(
  fd: number,
  { start, end }: Region,
  { buf: head, len: headLen, offset, header: h }: StreamHead,
  walker: FrameWalker,
): Omit<Mp3Scan, keyof Extras> | null {
  const fl = h.frameLength;
  if (offset + fl + 4 > headLen || !isHeaderFrame(head, offset, 4 + h.sideInfoSize)) return null;
  const firstAudio = parseFrameHeader(readWord(head, offset + fl));
  if (!firstAudio || walker.lengthOf(readWord(head, offset + fl)) <= 0) return null;
  const audioStart = start + offset + fl;
  const counts = trustedCounts(head.subarray(offset, offset + fl), h, end - audioStart, firstAudio);
  if (!counts) return null;
  const tail = Buffer.allocUnsafe(Math.min(8192, end - audioStart));
  if (readAt(fd, tail, end - tail.length, tail.length) !== tail.length) return null;
  if (!endsWithFrames(walker, tail, tail.length)) return null;
  return scanOf(h, counts, audioStart, end);
}

type Walked =
  { ok: true; audioStart: number; audioEnd: number } | { ok: false; reason: string; formatChange?: boolean };

/**
 * Every frame of the region through `walker`, a chunk at a time from the stream's head on: where
 * the audio frames start and end in the file. The chunk that reaches the region's end (or where
 * the file was found to end, should it shrink under us) is the final one.
 */
async function walkFrames(
  fd: number,
  region: Region,
  head: StreamHead,
  walker: FrameWalker,
  signal?: AbortSignal,
): Promise<Walked> {
  let { buf, len } = head;
  let end = region.end;
  if (end - region.start > len && buf.length < CHUNK + 8192) {
    const big = Buffer.allocUnsafe(Math.min(CHUNK, end - region.start) + 8192);
    buf.copy(big, 0, 0, len);
    buf = big;
  }
  let audioStart = -1;
  let audioEnd = -1;
  let filePos = region.start + len; // file position of buf[len]
  let from = head.offset;
  for (;;) {
    if (signal?.aborted) throw new AbortError();
    const final = filePos >= end;
    const base = filePos - len; // file position of buf[0]
    let consumed: number;
    try {
      consumed = walker.walk(buf, from, len, final, (s, e) => {
        if (audioStart < 0) audioStart = base + s;
        audioEnd = base + e;
      });
    } catch (err) {
      if (err instanceof FreeFormatError) return { ok: false, reason: err.message };
      if (err instanceof FormatChangeError) return { ok: false, reason: err.message, formatChange: true };
      throw err;
    }
    if (final) return { ok: true, audioStart, audioEnd };
    const rest = len - consumed;
    buf.copy(buf, 0, consumed, len);
    await nextTurn(); // a full walk of a long file must not hold up a server's event loop
    const n = readAt(fd, buf, filePos, Math.min(CHUNK, end - filePos), rest);
    if (n === 0) end = filePos; // the file shrank under us
    filePos += n;
    len = rest + n;
    from = 0;
  }
}

const hasPicture = (ids: Set<string>) => ids.has('APIC') || ids.has('PIC');

/**
 * Streaming scan (chunked reads, never the whole file). Not an MP3, free-format, or layers I/II:
 * ok:false with a reason, so the caller can fall back to ffprobe. A truncated last frame is dropped.
 * Phases: the tags at either end, the stream's first frame, then its LAME tag's counts when they
 * can be trusted, else a walk of every frame.
 */
export async function scanMp3(
  file: string,
  opts: {
    signal?: AbortSignal;
    /** Count every frame even when the LAME tag can be trusted. */ fullWalk?: boolean;
  } = {},
): Promise<Mp3ScanOutcome> {
  if (opts.signal?.aborted) throw new AbortError();
  // Synchronous reads (see ../io/sync-io.ts): a scan of a short file is a few small reads, and the
  // thread-pool round trips of fs/promises cost more than the reads themselves.
  const fd = openSync(file, 'r');
  try {
    const size = fstatSync(fd).size;
    const { start, tags, frameIds, chapters } = readHeadTags(fd);
    if (start >= size)
      return { ok: false, reason: size === 0 ? 'the file is empty' : 'no audio after the tags' };
    const region = { start, end: readTailTags(fd, start, size, tags) };
    const found = findStream(fd, region);
    if (!found.ok) return { ok: false, reason: found.reason };
    const { head } = found;
    const h = head.header;
    const { gapless, encoder } = headLameTag(head);
    const extras: Extras = { tags, gapless, encoder, hasPicture: hasPicture(frameIds), chapters };
    const walker = new FrameWalker(h.mpegVersion, h.sampleRate, h.channels);
    const fast = opts.fullWalk ? null : fromLameTag(fd, region, head, walker);
    if (fast) return { ok: true, scan: { ...fast, ...extras } };
    const walked = await walkFrames(fd, region, head, walker, opts.signal);
    if (!walked.ok) return walked;
    if (walker.frames === 0) return { ok: false, reason: 'no MP3 audio frames (only a header frame)' };
    const counts = {
      frames: walker.frames,
      audioBytes: walker.audioBytes,
      vbr: popcount(walker.bitRateMask) > 1,
    };
    return { ok: true, scan: { ...scanOf(h, counts, walked.audioStart, walked.audioEnd), ...extras } };
  } finally {
    closeSync(fd);
  }
}
