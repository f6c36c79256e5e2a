// Parts the MP3 join copies like any other, made for the sound options without an encoder: an
// input trimmed to whole frames (with its gain), and a gap of silent frames in the stream's format.
// Each comes with the scan the join needs, so nothing is read twice to describe it.
import { closeSync, openSync } from 'node:fs';
import { readFullSync, writeFullSync } from '../io/sync-io.js';
import { readWord } from './frames.js';
import { PartShaper, type PartSound } from './part-shaper.js';
import type { Mp3Scan } from './scan.js';
import { silentFrames } from './silence.js';
import { walkAudioChunks } from './audio-chunks.js';
import { FrameWalker } from './walk.js';

/** The scan of a part written for the join: `frames` frames in `bytes` bytes, shaped like `like`. */
export function scanOf(like: Mp3Scan, frames: number, bytes: number, vbr: boolean): Mp3Scan {
  const durationSeconds = (frames * like.samplesPerFrame) / like.sampleRate;
  return {
    ...like,
    frames,
    audioBytes: bytes,
    audioStart: 0,
    audioEnd: bytes,
    durationSeconds,
    bitRate: durationSeconds > 0 ? Math.round((bytes * 8) / durationSeconds) : like.bitRate,
    vbr,
    tags: {},
  };
}

/** The header word of the first audio frame of a scanned file (the template for its silent frames). */
export function firstFrameWord(file: string, scan: Mp3Scan): number {
  const fd = openSync(file, 'r');
  try {
    const b = Buffer.alloc(4);
    readFullSync(fd, b, 0, 4, scan.audioStart);
    return readWord(b, 0);
  } finally {
    closeSync(fd);
  }
}

/**
 * `frames` silent frames shaped like `template`, written to `outFile`, with their scan. A
 * constant-bit-rate stream gets them at its own bit rate, so the joined output stays CBR.
 */
export function writeGapPart(outFile: string, template: number, frames: number, like: Mp3Scan): Mp3Scan {
  const data = silentFrames(template, frames, like.vbr ? undefined : (template >>> 12) & 15);
  const fd = openSync(outFile, 'w');
  try {
    writeFullSync(fd, data, 0, data.length, 0);
  } finally {
    closeSync(fd);
  }
  return scanOf(like, frames, data.length, like.vbr);
}

/** Copy the audio frames of `file` to `outFile` as `sound` says (kept frames, gain); returns the new scan. */
export async function writeShapedPart(
  file: string,
  scan: Mp3Scan,
  sound: PartSound,
  outFile: string,
  signal?: AbortSignal,
): Promise<Mp3Scan> {
  const walker = new FrameWalker(scan.mpegVersion, scan.sampleRate, scan.channels);
  const shaper = new PartShaper(scan.mpegVersion, scan.channels, sound, (w) => walker.lengthOf(w));
  const out = openSync(outFile, 'w');
  try {
    let outPos = 0;
    const write = (buf: Buffer, start: number, end: number) => {
      writeFullSync(out, buf, start, end - start, outPos);
      outPos += end - start;
    };
    await walkAudioChunks(
      file,
      scan,
      walker,
      (buf, _base, runs) => {
        const shaped = shaper.shape(buf, runs);
        if (shaped.prefix) write(shaped.prefix, 0, shaped.prefix.length);
        for (let i = 0; i < shaped.runs.length; i += 2) write(buf, shaped.runs[i], shaped.runs[i + 1]);
      },
      signal,
    );
    return scanOf(scan, shaper.written, outPos, scan.vbr || shaper.written !== walker.frames);
  } finally {
    closeSync(out);
  }
}
