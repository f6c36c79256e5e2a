// Frame-level MP3 join: copy each input's audio frames, in order, behind one new ID3v2.3 tag and
// one new Xing/Info frame. Streams in 1 MiB chunks; each validated run is written with one call.
import { closeSync, openSync, write } from 'node:fs';
import path from 'node:path';
import { AbortError, InputError } from '../errors.js';
import { FrameGain } from './gain.js';
import { commonSettings, LAME_DEFAULT_QUALITY, lameAudioOf, writeLameTag, type Gapless } from './lame.js';
import { FormatChangeError, FrameWalker, FreeFormatError, OffsetLog } from './walk.js';
import type { Mp3Scan } from './scan.js';
import { readFullSync, writeFullSync } from '../io/sync-io.js';
import { buildToc, buildXingFrame, planXingFrame } from './xing.js';

export interface JoinPart {
  file: string;
  scan: Mp3Scan;
  /** Loudness matching: whole global_gain steps written into each frame as it is copied. */
  gainSteps?: number;
}

export interface JoinResult {
  bytes: number;
  frames: number;
  durationSeconds: number;
  /** Audio frames written from each part, in order. */
  partFrames: number[];
  /** Frames of each part whose gain was changed (0 for a part without gainSteps). */
  partGained: number[];
}

export interface JoinOptions {
  /**
   * The ID3 tag to write ahead of the audio, given each part's frame count: called with the scans'
   * counts before the copy and again with the counts actually written, if they differ (the tag
   * must keep its length, as it would with chapter times changed).
   */
  id3?: (partFrames: number[]) => Buffer;
  /** Encoder delay of the first part and padding of the last, for the LAME tag. */
  gapless?: Gapless;
  signal?: AbortSignal;
  /** Cumulative input audio-region bytes processed, of the total. */
  onProgress?: (doneBytes: number, totalBytes: number) => void;
}

const CHUNK = 1 << 20;
const SLACK = 8192; // room for a carried partial frame ahead of each read

function checkCompatible(parts: JoinPart[]): void {
  const a = parts[0].scan;
  for (const p of parts) {
    const s = p.scan;
    if (s.layer !== 3) throw new InputError(p.file, 'bad-mp3', 'not MPEG layer III audio');
    if (s.mpegVersion !== a.mpegVersion || s.sampleRate !== a.sampleRate || s.channels !== a.channels) {
      throw new InputError(
        p.file,
        'format-change',
        `MPEG-${s.mpegVersion} ${s.sampleRate} Hz ${s.channels} ch cannot be joined frame by frame with ` +
          `MPEG-${a.mpegVersion} ${a.sampleRate} Hz ${a.channels} ch (${parts[0].file})`,
      );
    }
  }
}

/** Write buf[runs[0], runs[1]), buf[runs[2], runs[3]) ... at `pos` on a thread-pool thread. */
function writeRuns(out: number, buf: Buffer, runs: number[], pos: number): Promise<void> {
  return new Promise((resolve, reject) => {
    let i = 0;
    let at = runs[0];
    const next = (err: Error | null, n: number) => {
      if (err) return reject(err);
      at += n;
      pos += n;
      if (at === runs[i + 1]) {
        i += 2;
        if (i >= runs.length) return resolve();
        at = runs[i];
      }
      write(out, buf, at, runs[i + 1] - at, pos, next);
    };
    if (runs.length === 0) resolve();
    else write(out, buf, at, runs[1] - at, pos, next);
  });
}

/** Where and how copyPart writes: the output file from `outPos`, through two buffers. */
interface CopyTarget {
  out: number;
  gain?: FrameGain;
  outPos: number;
  bufs: [Buffer, Buffer];
  signal?: AbortSignal;
  /** `consumed` more bytes of the part are read and checked. */
  progress: (consumed: number) => void;
}

/**
 * Copy one part's frames to the target; returns the new end. Reading and checking a chunk
 * overlaps with writing the one before it (two buffers): the write, a copy into the page cache,
 * is the larger half of the time, and a second core is free while this thread walks frames.
 */
async function copyPart(
  part: JoinPart,
  walker: FrameWalker,
  { out, outPos, bufs, signal, progress, gain }: CopyTarget,
): Promise<number> {
  const { audioStart, audioEnd } = part.scan;
  const lengthOf = (w: number) => walker.lengthOf(w);
  let [buf, spare] = bufs;
  const fd = openSync(part.file, 'r');
  let writing: Promise<void> = Promise.resolve();
  try {
    let filePos = audioStart;
    let len = 0; // bytes in buf: a carried partial frame, then the new chunk
    for (;;) {
      if (signal?.aborted) throw new AbortError();
      const n = readFullSync(fd, buf, len, Math.min(CHUNK, audioEnd - filePos), filePos);
      filePos += n;
      len += n;
      const final = filePos >= audioEnd || n === 0;
      const runs: number[] = [];
      let consumed: number;
      try {
        consumed = walker.walk(buf, 0, len, final, (s, e) => {
          gain?.applyRun(buf, s, e, lengthOf);
          runs.push(s, e);
        });
      } catch (err) {
        if (err instanceof FreeFormatError || err instanceof FormatChangeError)
          throw new InputError(part.file, err.code, err.message);
        throw err;
      }
      await writing; // the spare buffer is free once its write is done
      if (final) {
        // Written here and now: nothing is left to overlap with, and a short input (a two-second
        // clip is one chunk) would otherwise pay a thread-pool round trip for nothing.
        for (let i = 0; i < runs.length; i += 2) {
          writeFullSync(out, buf, runs[i], runs[i + 1] - runs[i], outPos);
          outPos += runs[i + 1] - runs[i];
        }
        progress(consumed);
        return outPos;
      }
      writing = writeRuns(out, buf, runs, outPos);
      for (let i = 0; i < runs.length; i += 2) outPos += runs[i + 1] - runs[i];
      progress(consumed);
      buf.copy(spare, 0, consumed, len);
      len -= consumed;
      [buf, spare] = [spare, buf];
    }
  } finally {
    // Never close a file, or reuse a buffer, under a write still in flight.
    await writing.catch(() => undefined);
    closeSync(fd);
  }
}

/** When the frames written differ from the scans' counts (junk dropped), the tag is redone with the real ones. */
function rewriteTag(
  out: number,
  id3: Buffer,
  parts: JoinPart[],
  written: number[],
  build: JoinOptions['id3'],
): void {
  if (!build || written.every((n, i) => n === parts[i].scan.frames)) return;
  const again = build(written);
  if (again.length !== id3.length) throw new Error('internal: the ID3 tag changed length');
  writeFullSync(out, again, 0, again.length, 0);
}

/**
 * Stream-join the parts' audio frames into `outFile` (created/truncated). All parts must share MPEG
 * version, sample rate and channel count. On abort it throws AbortError; the caller deletes outFile.
 */
export async function joinMp3(
  parts: JoinPart[],
  outFile: string,
  opts: JoinOptions = {},
): Promise<JoinResult> {
  if (parts.length === 0) throw new Error('joinMp3 needs at least one part');
  checkCompatible(parts);
  for (const p of parts) {
    if (path.resolve(p.file) === path.resolve(outFile))
      throw new InputError(p.file, 'same-as-output', 'is also the output file');
  }
  const first = parts[0].scan;
  const format = { mpegVersion: first.mpegVersion, sampleRate: first.sampleRate, channels: first.channels };
  const allCbr = parts.every(
    (p) => !p.scan.vbr && Math.abs(p.scan.bitRate - first.bitRate) < first.bitRate * 0.01,
  );
  // One encoder set one way made every part: its settings (the quality among them) carry over.
  // Otherwise the quality LAME states at its defaults: readers take a missing field as 0, which
  // mediainfo shows as "-V 10 -q 0" (decision 0045).
  const settings = commonSettings(parts.map((p) => p.scan.encoder));
  const quality = settings?.quality ?? LAME_DEFAULT_QUALITY;
  const plan = planXingFrame(format, allCbr ? first.bitRate : undefined, true);
  const id3 = opts.id3?.(parts.map((p) => p.scan.frames)) ?? Buffer.alloc(0);
  const partFrames: number[] = [];
  const partGained: number[] = [];
  const totalBytes = parts.reduce((n, p) => n + (p.scan.audioEnd - p.scan.audioStart), 0);
  const offsets = new OffsetLog(parts.reduce((n, p) => n + p.scan.frames, 0));
  let frames = 0;
  let audioBytes = 0;
  let mask = 0;
  let done = 0;
  let modes = 0;
  let firstWord = 0;
  const out = openSync(outFile, 'w');
  try {
    writeFullSync(out, id3, 0, id3.length, 0);
    writeFullSync(out, Buffer.alloc(plan.length), 0, plan.length, id3.length);
    let outPos = id3.length + plan.length;
    const bufs: [Buffer, Buffer] = [Buffer.allocUnsafe(CHUNK + SLACK), Buffer.allocUnsafe(CHUNK + SLACK)];
    for (const part of parts) {
      const walker = new FrameWalker(
        format.mpegVersion,
        format.sampleRate,
        format.channels,
        offsets,
        audioBytes,
      );
      const gain = part.gainSteps
        ? new FrameGain(part.scan.mpegVersion, part.scan.channels, part.gainSteps)
        : undefined;
      outPos = await copyPart(part, walker, {
        out,
        gain,
        outPos,
        bufs,
        signal: opts.signal,
        progress: (consumed) => {
          done += consumed;
          opts.onProgress?.(Math.min(done, totalBytes), totalBytes);
        },
      });
      frames += walker.frames;
      partFrames.push(walker.frames);
      partGained.push(gain?.frames ?? 0);
      audioBytes += walker.audioBytes;
      mask |= walker.bitRateMask;
      modes |= walker.channelModeMask;
      firstWord ||= walker.firstWord;
    }
    if (frames === 0) throw new InputError(parts[0].file, 'bad-mp3', 'no MP3 audio frames to join');
    const streamBytes = plan.length + audioBytes;
    const vbr = (mask & (mask - 1)) !== 0;
    const toc = buildToc(offsets.data, frames, audioBytes);
    // Same channel mode as the audio, so strict players see one consistent stream.
    const mode = (firstWord >>> 6) & 3;
    const headerPlan = firstWord
      ? planXingFrame({ ...format, channelMode: mode }, allCbr ? first.bitRate : undefined, true)
      : plan;
    const header = buildXingFrame(headerPlan, { vbr, frames, bytes: streamBytes, toc, quality });
    if (opts.gapless) {
      const seconds = (frames * first.samplesPerFrame) / first.sampleRate;
      const seen = {
        ...format,
        bitRateMask: mask,
        channelModeMask: modes,
        averageBitRate: (audioBytes * 8) / seconds,
      };
      const audio = lameAudioOf(seen, settings);
      writeLameTag(header, headerPlan, { gapless: opts.gapless, musicLength: streamBytes, audio });
    }
    writeFullSync(out, header, 0, header.length, id3.length);
    rewriteTag(out, id3, parts, partFrames, opts.id3);
    return {
      bytes: id3.length + streamBytes,
      frames,
      durationSeconds: (frames * first.samplesPerFrame) / first.sampleRate,
      partFrames,
      partGained,
    };
  } finally {
    closeSync(out);
  }
}
