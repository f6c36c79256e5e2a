// Reads back the Xing/Info/VBRI header frame the join wrote, so tests can check its counts and
// seek table. The product only writes these frames (src/engine/mp3/xing.ts) and skips them in
// inputs; it never needs their contents.
import { parseFrameHeader, readWord } from '../../src/engine/mp3/frames.js';
import { INFO, VBRI, XING, XING_FLAGS } from '../../src/engine/mp3/xing.js';

export interface XingRead {
  kind: 'Xing' | 'Info' | 'VBRI';
  frames?: number;
  bytes?: number;
  toc?: Uint8Array;
}

/** Read the header frame at the start of `frame`; null when it is not one. */
export function readXingFrame(frame: Uint8Array): XingRead | null {
  const h = parseFrameHeader(readWord(frame, 0));
  if (!h || h.layer !== 3) return null;
  const crc = h.crc ? 2 : 0;
  for (const at of [4 + h.sideInfoSize, 4 + h.sideInfoSize + crc]) {
    if (at + 8 > frame.length) continue;
    const tag = readWord(frame, at);
    if (tag !== XING && tag !== INFO) continue;
    const flags = readWord(frame, at + 4);
    let p = at + 8;
    const out: XingRead = { kind: tag === XING ? 'Xing' : 'Info' };
    if (flags & XING_FLAGS.frames) {
      out.frames = readWord(frame, p);
      p += 4;
    }
    if (flags & XING_FLAGS.bytes) {
      out.bytes = readWord(frame, p);
      p += 4;
    }
    if (flags & XING_FLAGS.toc) out.toc = Uint8Array.from(frame.subarray(p, p + 100));
    return out;
  }
  if (frame.length >= 52 && readWord(frame, 36) === VBRI) {
    return { kind: 'VBRI', bytes: readWord(frame, 36 + 10), frames: readWord(frame, 36 + 14) };
  }
  return null;
}
