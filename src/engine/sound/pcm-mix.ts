// Joins decoded parts (raw 32-bit float PCM files, interleaved) into one, overlapping neighbours by
// their crossfade with constant-power curves. Streams in chunks, the overlaps too: memory stays
// the same whatever the rate, the channels or the fade's length.
import { closeSync, openSync } from 'node:fs';
import { AbortError } from '../errors.js';
import { nextTurn, readFullSync, writeFullSync } from '../io/sync-io.js';
import { constantPowerGains } from '../plan/crossfade.js';

const CHUNK = 1 << 20;
const BYTES = 4;

/**
 * Mix the end of one part (`tail`) with the start of the next (`head`), both `frames` sample
 * frames of `channels` interleaved samples: at frame k the gains are those at (k + 0.5) / frames.
 * A piece of a longer overlap passes where it starts (`from`) and the whole overlap's length.
 */
export function mixOverlap(
  tail: Float32Array,
  head: Float32Array,
  channels: number,
  from = 0,
  overlapFrames?: number,
): Float32Array {
  const frames = Math.min(tail.length, head.length) / channels;
  const whole = overlapFrames ?? frames;
  const out = new Float32Array(frames * channels);
  for (let k = 0; k < frames; k++) {
    const g = constantPowerGains((from + k + 0.5) / whole);
    for (let c = 0; c < channels; c++) {
      const i = k * channels + c;
      out[i] = tail[i] * g.out + head[i] * g.in;
    }
  }
  return out;
}

export interface MixPart {
  file: string;
  /** Sample frames in the file. */
  frames: number;
}

function readFloats(fd: number, fromFrame: number, frames: number, channels: number): Float32Array {
  const buf = Buffer.alloc(frames * channels * BYTES);
  readFullSync(fd, buf, 0, buf.length, fromFrame * channels * BYTES);
  return new Float32Array(buf.buffer, buf.byteOffset, frames * channels);
}

function copyRange(
  from: number,
  to: number,
  fromByte: number,
  bytes: number,
  toByte: number,
  buf: Buffer,
): void {
  for (let done = 0; done < bytes;) {
    const n = readFullSync(from, buf, 0, Math.min(buf.length, bytes - done), fromByte + done);
    if (n === 0) throw new Error('internal: a decoded part is shorter than counted');
    writeFullSync(to, buf, 0, n, toByte + done);
    done += n;
  }
}

/** Frames of an overlap mixed at once: 64 K frames of 8 channels is 2 MB per buffer. */
const OVERLAP_CHUNK_FRAMES = 1 << 16;

/** Mix `frames` frames of `tailFd` from `tailFrom` with `headFd` from its start, written at `at` (bytes) of `out`. */
function mixOverlapInto(
  fds: { tail: number; head: number; out: number },
  tailFrom: number,
  frames: number,
  channels: number,
  at: number,
): void {
  const step = Math.max(1, Math.floor(OVERLAP_CHUNK_FRAMES / Math.max(1, channels / 2)));
  for (let done = 0; done < frames; done += step) {
    const n = Math.min(step, frames - done);
    const mixed = mixOverlap(
      readFloats(fds.tail, tailFrom + done, n, channels),
      readFloats(fds.head, done, n, channels),
      channels,
      done,
      frames,
    );
    writeFullSync(
      fds.out,
      Buffer.from(mixed.buffer, mixed.byteOffset, mixed.byteLength),
      0,
      mixed.byteLength,
      at + done * channels * BYTES,
    );
  }
}

/**
 * Write the parts, in order, to `outFile`, overlapping part i and i+1 by `fades[i]` sample frames
 * (each at most half of either part). Returns the sample frames written.
 */
export async function mixParts(
  parts: readonly MixPart[],
  fades: readonly number[],
  channels: number,
  outFile: string,
  signal?: AbortSignal,
): Promise<number> {
  const out = openSync(outFile, 'w');
  const buf = Buffer.allocUnsafe(CHUNK);
  let written = 0;
  try {
    for (let i = 0; i < parts.length; i++) {
      if (signal?.aborted) throw new AbortError();
      const p = parts[i];
      const headFrames = i > 0 ? fades[i - 1] : 0;
      const tailFrames = i + 1 < parts.length ? fades[i] : 0;
      const fd = openSync(p.file, 'r');
      try {
        const body = p.frames - headFrames - tailFrames;
        copyRange(
          fd,
          out,
          headFrames * channels * BYTES,
          body * channels * BYTES,
          written * channels * BYTES,
          buf,
        );
        written += body;
        if (tailFrames > 0) {
          // The overlap is written right after this part's body; the next part's body follows it.
          const next = openSync(parts[i + 1].file, 'r');
          try {
            const fds = { tail: fd, head: next, out };
            mixOverlapInto(fds, p.frames - tailFrames, tailFrames, channels, written * channels * BYTES);
          } finally {
            closeSync(next);
          }
          written += tailFrames;
        }
      } finally {
        closeSync(fd);
      }
      await nextTurn();
    }
    return written;
  } finally {
    closeSync(out);
  }
}
