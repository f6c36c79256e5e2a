// Finding where an MP3 stream starts. Random bytes and text hold false sync words, so a stream
// counts only when several consecutive frames with consistent headers follow one another.
import { parseFrameHeader, readWord, STREAM_MASK, type FrameHeader } from './frames.js';

/** Consecutive consistent frames needed before bytes count as MPEG audio. */
export const MIN_FRAMES = 4;

export type StreamStart = { ok: true; offset: number; header: FrameHeader } | { ok: false; reason: string };

const sameStream = (a: number, b: number): boolean =>
  (a & STREAM_MASK) === (b & STREAM_MASK) && (((a >>> 6) & 3) === 3) === (((b >>> 6) & 3) === 3);

/** Length of the chain of consistent frames from `p` (at most MIN_FRAMES); reaching `len` when `atEnd` counts as whole. */
function chainAt(buf: Uint8Array, p: number, len: number, atEnd: boolean): { count: number; toEnd: boolean } {
  const first = readWord(buf, p);
  let q = p;
  let count = 0;
  while (count < MIN_FRAMES) {
    if (q === len && atEnd) return { count, toEnd: true };
    if (q + 4 > len) break;
    const w = readWord(buf, q);
    const h = parseFrameHeader(w);
    if (!h || !h.frameLength || !sameStream(w, first)) break;
    q += h.frameLength;
    count++;
  }
  return { count, toEnd: false };
}

/**
 * The header at `p` when a run of MIN_FRAMES consistent frames starts there: a stream of its own,
 * not a false sync word. Null when there is none; 'more' when `buf` ends before the run can tell.
 */
export function streamAt(buf: Uint8Array, p: number, len: number): FrameHeader | null | 'more' {
  const first = readWord(buf, p);
  const h = parseFrameHeader(first);
  if (!h || !h.frameLength) return null;
  let q = p;
  for (let count = 0; count < MIN_FRAMES; count++) {
    if (q + 4 > len) return 'more';
    const w = readWord(buf, q);
    const f = parseFrameHeader(w);
    if (!f || !f.frameLength || !sameStream(w, first)) return null;
    q += f.frameLength;
  }
  return h;
}

/** A free-format stream: the same header with bit rate index 0, repeating at a steady spacing. */
function freeFormatAt(buf: Uint8Array, p: number, len: number): boolean {
  const w = readWord(buf, p) & 0xfffffcc0;
  for (let r = p + 24; r + 4 <= len && r < p + 4000; r++) {
    if ((readWord(buf, r) & 0xfffffcc0) !== w) continue;
    const step = r - p;
    for (let d = -1; d <= 1; d++) {
      const s = r + step + d;
      if (s + 4 <= len && (readWord(buf, s) & 0xfffffcc0) === w) return true;
    }
  }
  return false;
}

/**
 * The first frame of the stream in buf[0, len), searching starts up to `searchLimit`. `atEnd`
 * says the buffer reaches the end of the audio region (a short file may hold few frames).
 */
export function findStreamStart(
  buf: Uint8Array,
  len: number,
  atEnd: boolean,
  searchLimit = len,
): StreamStart {
  let freeFormat = false;
  const last = Math.min(searchLimit, len - 4);
  for (let p = 0; p <= last; p++) {
    if (buf[p] !== 0xff || (buf[p + 1] & 0xe0) !== 0xe0) continue;
    const h = parseFrameHeader(readWord(buf, p));
    if (!h) continue;
    if (h.bitRate === 0) {
      if (!freeFormat && h.layer === 3 && freeFormatAt(buf, p, len)) freeFormat = true;
      continue;
    }
    const chain = chainAt(buf, p, len, atEnd);
    if (chain.count < MIN_FRAMES && !(chain.toEnd && chain.count >= 2)) continue;
    if (h.layer !== 3) {
      return {
        ok: false,
        reason: `MPEG-${h.mpegVersion} layer ${h.layer === 1 ? 'I' : 'II'} audio, not layer III (MP3)`,
      };
    }
    return { ok: true, offset: p, header: h };
  }
  if (freeFormat)
    return { ok: false, reason: 'free-format MP3 (no bit rate in the frame headers) is not supported' };
  return { ok: false, reason: `no run of ${MIN_FRAMES} consistent MPEG audio frames found (not an MP3)` };
}
