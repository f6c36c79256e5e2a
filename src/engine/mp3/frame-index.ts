// Where each audio frame of a scanned MP3 file starts, so ranges of its frames can be copied (the
// join reads a part's bytes from audioStart to audioEnd) or read without walking the file again.
import { closeSync, openSync } from 'node:fs';
import { AbortError } from '../errors.js';
import { nextTurn, readFullSync } from '../io/sync-io.js';
import { parseFrameHeader, readWord } from './frames.js';
import type { Mp3Scan } from './scan.js';
import { FrameWalker } from './walk.js';

const CHUNK = 1 << 20;

/** File offsets of the frames, walked as the join walks them, then the end of the audio. */
export async function frameOffsets(file: string, scan: Mp3Scan, signal?: AbortSignal): Promise<Float64Array> {
  const walker = new FrameWalker(scan.mpegVersion, scan.sampleRate, scan.channels);
  const offsets: number[] = [];
  const fd = openSync(file, 'r');
  try {
    const buf = Buffer.allocUnsafe(CHUNK + 8192);
    let len = 0;
    let base = scan.audioStart; // file offset of buf[0]
    for (let filePos = scan.audioStart; ; ) {
      if (signal?.aborted) throw new AbortError();
      const n = readFullSync(fd, buf, len, Math.min(CHUNK, scan.audioEnd - filePos), filePos);
      filePos += n;
      len += n;
      const final = filePos >= scan.audioEnd || n === 0;
      const consumed = walker.walk(buf, 0, len, final, (s, e) => {
        for (let pos = s; pos < e; pos += walker.lengthOf(readWord(buf, pos))) offsets.push(base + pos);
      });
      if (final) break;
      buf.copy(buf, 0, consumed, len);
      len -= consumed;
      base += consumed;
      await nextTurn();
    }
  } finally {
    closeSync(fd);
  }
  offsets.push(scan.audioEnd);
  return Float64Array.from(offsets);
}

/** Frames [from, to) of the file, each its own buffer (any junk between them left out). */
export function readFrames(file: string, offsets: Float64Array, from: number, to: number): Buffer[] {
  if (to <= from) return [];
  const start = offsets[from];
  const bytes = Buffer.alloc(offsets[to] - start);
  const fd = openSync(file, 'r');
  try {
    readFullSync(fd, bytes, 0, bytes.length, start);
  } finally {
    closeSync(fd);
  }
  const frames: Buffer[] = [];
  for (let k = from; k < to; k++) {
    const at = offsets[k] - start;
    // A frame's length is the distance to the next, less any junk the walk skipped between them.
    const len = parseFrameHeader(readWord(bytes, at))?.frameLength ?? 0;
    frames.push(bytes.subarray(at, at + Math.min(len, offsets[k + 1] - offsets[k])));
  }
  return frames;
}

