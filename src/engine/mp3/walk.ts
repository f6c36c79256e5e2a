// Walks Layer III frames of one known format through a buffer, chunk by chunk. Shared by the scan and
// the join so both count the same frames: junk is skipped, header frames (Xing/Info/VBRI) dropped.
import {
  lengthTable,
  parseFrameHeader,
  readWord,
  sideInfoSize,
  STREAM_MASK,
  formatWord,
  type MpegVersion,
} from './frames.js';
import { streamAt } from './sync.js';
import { isHeaderFrame } from './xing.js';
import { EngineError } from '../errors.js';

/** A free-format frame where a frame was expected; callers turn it into an InputError naming the file. */
export class FreeFormatError extends EngineError {
  override name = 'FreeFormatError';
  readonly code = 'free-format';
  constructor() {
    super('free-format MP3 frames (no bit rate in the header) are not supported');
  }
}

/** Grows as frames are logged; holds one number per frame (a few MB for hours of audio). */
export class OffsetLog {
  data: Float64Array;
  length = 0;
  /** `expected`: the frame count the scans found, so a join of files that agree never regrows. */
  constructor(expected = 4096) {
    this.data = new Float64Array(Math.max(16, Math.ceil(expected * 1.01) + 16));
  }
  push(v: number): void {
    if (this.length === this.data.length) this.grow();
    this.data[this.length++] = v;
  }
  grow(): void {
    const next = new Float64Array(this.data.length * 2);
    next.set(this.data);
    this.data = next;
  }
}

/** 'X' and 'I' start Xing/Info, 'V' VBRI: a frame without them where they would be is plain audio. */
const X = 0x58;
const I = 0x49;
const V = 0x56;

/**
 * A run of frames of another format (sample rate, channels, layer) where this stream's frames were
 * expected: files joined with cat. Skipping them as junk would silently lose their audio.
 */
export class FormatChangeError extends EngineError {
  override name = 'FormatChangeError';
  readonly code = 'format-change';
  constructor(from: string, to: string) {
    super(`the stream changes format part-way (${from}, then ${to}); it cannot be copied frame by frame`);
  }
}

const formatName = (version: MpegVersion, layer: number, sampleRate: number, channels: number): string =>
  `MPEG-${version} layer ${'I'.repeat(layer)} ${sampleRate} Hz ${channels === 1 ? 'mono' : 'stereo'}`;

/** 'ID3', 'TAG' (ID3v1), 'APETAGEX', 'LYRICSBEGIN': four bytes are enough to tell them from audio. */
const TAG_STARTS = [0x49443300, 0x54414700, 0x41504554, 0x4c595249];

function startsTag(buf: Uint8Array, at: number): boolean {
  const w = readWord(buf, at);
  return TAG_STARTS.some((t) => ((t & 0xff) === 0 ? (w & 0xffffff00) === t : w === t));
}

export type RunSink = (start: number, end: number) => void;

export class FrameWalker {
  frames = 0;
  audioBytes = 0;
  /** Bit i set when a frame used bit rate index i. */
  bitRateMask = 0;
  /** Header word of the first audio frame (0 until one is seen): its channel mode is copied. */
  firstWord = 0;
  private readonly key: number;
  private readonly mono: boolean;
  private readonly lengths: Int32Array;
  private readonly xingAt: number;
  private readonly format: string;
  private syncing = false;

  constructor(
    version: MpegVersion,
    sampleRate: number,
    channels: 1 | 2,
    /** When given, the output offset of each audio frame is logged as base + audioBytes. */
    private readonly offsets?: OffsetLog,
    private readonly offsetBase = 0,
  ) {
    this.key = formatWord(version, 3, sampleRate, 0) & STREAM_MASK;
    this.mono = channels === 1;
    this.lengths = lengthTable(version, 3, sampleRate);
    this.xingAt = 4 + sideInfoSize(version, channels);
    this.format = formatName(version, 3, sampleRate, channels);
  }

  /** Length of the frame whose header is `w`: >0 valid, 0 not a frame of this stream, -1 free format. */
  lengthOf(w: number): number {
    if ((w & STREAM_MASK) !== this.key) return 0;
    if ((((w >>> 6) & 3) === 3) !== this.mono) return 0;
    if ((w & 3) === 2) return 0;
    return this.lengths[((w >>> 12) & 15) * 2 + ((w >>> 9) & 1)];
  }

  /**
   * The common case, kept small so V8 compiles it within the first chunk: whole frames of this
   * stream, each followed by another header of it, none a header frame. Returns where it stopped
   * (at `pos` when it took nothing); everything else is left to walk's careful path.
   * The header test of lengthOf is written out here on purpose: calling it cost ~3 ms of a 1-hour
   * join, measured, while V8 still interprets this loop.
   */
  private fastRun(buf: Uint8Array, pos: number, len: number): number {
    const key = this.key;
    const stereo = this.mono ? 0 : 1;
    const lengths = this.lengths;
    const xa = this.xingAt;
    const base = this.offsetBase;
    const start = pos;
    let frames = this.frames;
    let bytes = this.audioBytes;
    let rates = this.bitRateMask;
    if (pos + 4 > len) return pos;
    let w = ((buf[pos] << 24) | (buf[pos + 1] << 16) | (buf[pos + 2] << 8) | buf[pos + 3]) >>> 0;
    if ((w & STREAM_MASK) !== key || (((w >>> 6) & 3) === 3 ? 0 : 1) !== stereo || (w & 3) === 2) return pos;
    let fl = lengths[((w >>> 12) & 15) * 2 + ((w >>> 9) & 1)];
    let log = this.offsets?.data;
    let logged = this.offsets?.length ?? 0;
    for (;;) {
      if (fl <= 0) break;
      const next = pos + fl;
      if (next + 4 > len) break;
      const c = buf[pos + xa];
      const d = buf[pos + xa + 2];
      if ((c === X || c === I || d === X || d === I || buf[pos + 36] === V) && isHeaderFrame(buf, pos, xa))
        break;
      const wn = ((buf[next] << 24) | (buf[next + 1] << 16) | (buf[next + 2] << 8) | buf[next + 3]) >>> 0;
      if ((wn & STREAM_MASK) !== key || (((wn >>> 6) & 3) === 3 ? 0 : 1) !== stereo || (wn & 3) === 2) break;
      const fln = lengths[((wn >>> 12) & 15) * 2 + ((wn >>> 9) & 1)];
      if (fln <= 0) break;
      if (log) {
        if (logged === log.length) {
          this.offsets!.length = logged;
          this.offsets!.grow();
          log = this.offsets!.data;
        }
        log[logged++] = base + bytes;
      }
      frames++;
      bytes += fl;
      rates |= 1 << ((w >>> 12) & 15);
      pos = next;
      w = wn;
      fl = fln;
    }
    if (this.offsets) this.offsets.length = logged;
    if (pos !== start) {
      if (this.frames === 0) this.firstWord = readWord(buf, start);
      this.frames = frames;
      this.audioBytes = bytes;
      this.bitRateMask = rates;
    }
    return pos;
  }

  /** 1 when a confirmed frame starts in buf[from, to), 0 when none does, -1 when more bytes are needed to tell. */
  private startsWithin(buf: Uint8Array, from: number, to: number, len: number, final: boolean): number {
    for (let q = from; q < to; q++) {
      if (buf[q] !== 0xff) continue;
      const l = this.lengthOf(readWord(buf, q));
      if (l <= 0) continue;
      if (q + l + 4 <= len) {
        if (this.lengthOf(readWord(buf, q + l)) > 0) return 1;
      } else if (!final) return -1;
      else if (q + l === len) return 1;
    }
    return 0;
  }

  /**
   * Walk buf[from, len). `final` says the buffer ends where the audio ends. Calls `sink` for each
   * run of audio frames (buffer indexes). Returns where the unconsumed tail starts: bytes the
   * caller must present again, followed by more, in the next call.
   */
  walk(buf: Uint8Array, from: number, len: number, final: boolean, sink?: RunSink): number {
    let pos = from;
    let runStart = -1;
    for (;;) {
      if (!this.syncing) {
        const end = this.fastRun(buf, pos, len);
        if (end !== pos) {
          if (runStart < 0) runStart = pos;
          pos = end;
        }
      }
      if (pos + 4 > len) {
        if (final) {
          if (runStart >= 0) sink?.(runStart, pos);
          runStart = -1;
          pos = len;
        }
        break;
      }
      let fl = this.lengthOf(readWord(buf, pos));
      if (fl > 0 && !this.syncing) {
        // A frame counts when the next header follows it. When one does not, the frame was most
        // likely cut: by junk written into it (its bytes are then junk that decoders stumble on) or
        // by a truncation with more appended. Only a tag right after it (files joined with cat)
        // or the header of another stream shows that it ended whole, unless a frame of this stream
        // starts inside it.
        const next = pos + fl;
        if (next + 4 > len && !final) break;
        if (next + 4 <= len && this.lengthOf(readWord(buf, next)) <= 0) {
          if (!startsTag(buf, next) && !parseFrameHeader(readWord(buf, next))) fl = 0;
          else {
            const cut = this.startsWithin(buf, pos + 1, next, len, final);
            if (cut < 0) break;
            if (cut > 0) fl = 0;
          }
        }
      }
      if (fl > 0 && this.syncing) {
        // After junk, a header counts only when the next one is a header too (or the audio ends there).
        const next = pos + fl;
        let confirmed: boolean;
        if (next + 4 <= len) confirmed = this.lengthOf(readWord(buf, next)) > 0;
        else if (!final) break;
        else confirmed = next <= len;
        if (!confirmed) {
          pos++;
          continue;
        }
        this.syncing = false;
      }
      if (fl > 0) {
        if (pos + fl > len) {
          if (final) {
            if (runStart >= 0) sink?.(runStart, pos);
            runStart = -1;
            pos = len;
          }
          break;
        }
        if (isHeaderFrame(buf, pos, this.xingAt)) {
          if (runStart >= 0) sink?.(runStart, pos);
          runStart = -1;
          pos += fl;
          continue;
        }
        if (runStart < 0) runStart = pos;
        this.offsets?.push(this.offsetBase + this.audioBytes);
        if (this.frames++ === 0) this.firstWord = readWord(buf, pos);
        this.audioBytes += fl;
        this.bitRateMask |= 1 << ((buf[pos + 2] >>> 4) & 15);
        pos += fl;
        continue;
      }
      if (fl < 0 && !this.syncing) throw new FreeFormatError();
      if (fl === 0 && buf[pos] === 0xff && this.lengthOf(readWord(buf, pos)) === 0) {
        const other = streamAt(buf, pos, len);
        if (other === 'more' && !final) break;
        if (other && other !== 'more')
          throw new FormatChangeError(
            this.format,
            formatName(other.mpegVersion, other.layer, other.sampleRate, other.channels),
          );
      }
      if (runStart >= 0) sink?.(runStart, pos);
      runStart = -1;
      this.syncing = true;
      pos++;
      while (pos < len && buf[pos] !== 0xff) pos++;
    }
    if (runStart >= 0 && pos > runStart) sink?.(runStart, pos);
    return pos;
  }
}
