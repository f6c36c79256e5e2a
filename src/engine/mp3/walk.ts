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

/** What frameAt finds besides a frame's length: the buffer ends first, junk, or (within it) a whole frame. */
const MORE = -1;
const JUNK = 0;
const FRAME = 1;

export class FrameWalker {
  frames = 0;
  audioBytes = 0;
  /** Bit i set when a frame used bit rate index i. */
  bitRateMask = 0;
  /** Bit i set when a frame's header has channel mode i (0 stereo, 1 joint, 2 dual, 3 mono). */
  channelModeMask = 0;
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
    let modes = this.channelModeMask;
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
      modes |= 1 << ((w >>> 6) & 3);
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
      this.channelModeMask = modes;
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
   * caller must present again, followed by more, in the next call. Phases, per step: the fast run
   * of plain frames, then what starts where it stopped (frameAt): a header frame (skipped), an
   * audio frame (counted), junk (skipped to the next sync byte), or the end of the buffer.
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
      const fl = this.frameAt(buf, pos, len, final);
      if (fl === MORE) break;
      if (fl === JUNK || isHeaderFrame(buf, pos, this.xingAt)) {
        if (runStart >= 0) sink?.(runStart, pos);
        runStart = -1;
        pos = fl === JUNK ? this.skipJunk(buf, pos, len) : pos + fl;
        continue;
      }
      if (runStart < 0) runStart = pos;
      this.countFrame(buf, pos, fl);
      pos += fl;
    }
    // The end of the buffer: the run so far is the caller's; when the audio ends here, what is
    // left is less than a whole frame (a cut one), dropped, else it is presented again.
    if (runStart >= 0) sink?.(runStart, pos);
    return final ? len : pos;
  }

  /**
   * What starts at `pos`: a frame of this stream (its length; audio or a header frame), JUNK, or
   * MORE when the buffer ends before that can be told (when `final`, before a whole frame).
   * Leaves the junk state when a frame is confirmed after junk.
   */
  private frameAt(buf: Uint8Array, pos: number, len: number, final: boolean): number {
    if (pos + 4 > len) return MORE;
    const fl = this.lengthOf(readWord(buf, pos));
    if (fl < 0 && !this.syncing) throw new FreeFormatError();
    if (fl === 0) return this.otherStreamAt(buf, pos, len, final);
    if (fl < 0) return JUNK;
    const verdict = this.syncing
      ? this.confirmedAfterJunk(buf, pos + fl, len, final)
      : this.endsWhole(buf, pos, pos + fl, len, final);
    if (verdict !== FRAME) return verdict;
    this.syncing = false;
    return pos + fl > len ? MORE : fl;
  }

  /**
   * A frame counts when the next header follows it. When one does not, the frame was most likely
   * cut: by junk written into it (its bytes are then junk that decoders stumble on) or by a
   * truncation with more appended. Only a tag right after it (files joined with cat) or the header
   * of another stream shows that it ended whole, unless a frame of this stream starts inside it.
   */
  private endsWhole(buf: Uint8Array, pos: number, next: number, len: number, final: boolean): number {
    if (next + 4 > len) return final ? FRAME : MORE;
    if (this.lengthOf(readWord(buf, next)) > 0) return FRAME;
    if (!startsTag(buf, next) && !parseFrameHeader(readWord(buf, next))) return JUNK;
    const cut = this.startsWithin(buf, pos + 1, next, len, final);
    return cut < 0 ? MORE : cut > 0 ? JUNK : FRAME;
  }

  /** After junk, a header counts only when the next one is a header too (or the audio ends there). */
  private confirmedAfterJunk(buf: Uint8Array, next: number, len: number, final: boolean): number {
    if (next + 4 <= len) return this.lengthOf(readWord(buf, next)) > 0 ? FRAME : JUNK;
    if (!final) return MORE;
    return next <= len ? FRAME : JUNK;
  }

  /** No frame of this stream at `pos`: one of another format throws, anything else is junk. */
  private otherStreamAt(buf: Uint8Array, pos: number, len: number, final: boolean): number {
    if (buf[pos] !== 0xff) return JUNK;
    const other = streamAt(buf, pos, len);
    if (other === 'more') return final ? JUNK : MORE;
    if (other)
      throw new FormatChangeError(
        this.format,
        formatName(other.mpegVersion, other.layer, other.sampleRate, other.channels),
      );
    return JUNK;
  }

  /** Past junk at `pos`: to the next byte that may start a header, in the junk state. */
  private skipJunk(buf: Uint8Array, pos: number, len: number): number {
    this.syncing = true;
    pos++;
    while (pos < len && buf[pos] !== 0xff) pos++;
    return pos;
  }

  /** Count the audio frame of `fl` bytes at `pos`. */
  private countFrame(buf: Uint8Array, pos: number, fl: number): void {
    this.offsets?.push(this.offsetBase + this.audioBytes);
    if (this.frames++ === 0) this.firstWord = readWord(buf, pos);
    this.audioBytes += fl;
    this.bitRateMask |= 1 << ((buf[pos + 2] >>> 4) & 15);
    this.channelModeMask |= 1 << ((buf[pos + 3] >>> 6) & 3);
  }
}
