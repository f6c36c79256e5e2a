// Where each audio frame of a scanned MP3 file starts, so ranges of its frames can be copied (the
// join reads a part's bytes from audioStart to audioEnd) or read without walking the file again.
import { closeSync, openSync } from 'node:fs';
import { readFullSync } from '../io/sync-io.js';
import { parseFrameHeader, readWord } from './frames.js';
import type { Mp3Scan } from './scan.js';
import { walkAudioChunks } from './audio-chunks.js';
import { FrameWalker } from './walk.js';

/** File offsets of the frames, walked as the join walks them, then the end of the audio. */
export async function frameOffsets(file: string, scan: Mp3Scan, signal?: AbortSignal): Promise<Float64Array> {
  const walker = new FrameWalker(scan.mpegVersion, scan.sampleRate, scan.channels);
  const offsets: number[] = [];
  await walkAudioChunks(
    file,
    scan,
    walker,
    (buf, base, runs) => {
      for (let i = 0; i < runs.length; i += 2) {
        for (let pos = runs[i]; pos < runs[i + 1]; pos += walker.lengthOf(readWord(buf, pos)))
          offsets.push(base + pos);
      }
    },
    signal,
  );
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
