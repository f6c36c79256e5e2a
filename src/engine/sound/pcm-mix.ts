// Joins decoded parts (raw 32-bit float PCM files, interleaved) into one, overlapping neighbours by
// their crossfade with constant-power curves. Streams in chunks; only the overlaps are held whole.
import { closeSync, openSync } from 'node:fs';
import { AbortError } from '../errors.js';
import { nextTurn, readFullSync, writeFullSync } from '../io/sync-io.js';
import { constantPowerGains } from '../plan/crossfade.js';

const CHUNK = 1 << 20;
const BYTES = 4;

/**
 * Mix the end of one part (`tail`) with the start of the next (`head`), both `frames` sample
 * frames of `channels` interleaved samples: at frame k the gains are those at (k + 0.5) / frames.
 */
export function mixOverlap(tail: Float32Array, head: Float32Array, channels: number): Float32Array {
  const frames = Math.min(tail.length, head.length) / channels;
  const out = new Float32Array(frames * channels);
  for (let k = 0; k < frames; k++) {
    const g = constantPowerGains((k + 0.5) / frames);
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
    let carried: Float32Array | undefined; // the previous part's overlap, already mixed
    for (let i = 0; i < parts.length; i++) {
      if (signal?.aborted) throw new AbortError();
      const p = parts[i];
      const headFrames = i > 0 ? fades[i - 1] : 0;
      const tailFrames = i + 1 < parts.length ? fades[i] : 0;
      const fd = openSync(p.file, 'r');
      try {
        if (carried) {
          writeFullSync(
            out,
            Buffer.from(carried.buffer, carried.byteOffset, carried.byteLength),
            0,
            carried.byteLength,
            written * channels * BYTES,
          );
          written += carried.length / channels;
          carried = undefined;
        }
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
          const tail = readFloats(fd, p.frames - tailFrames, tailFrames, channels);
          const next = openSync(parts[i + 1].file, 'r');
          try {
            carried = mixOverlap(tail, readFloats(next, 0, tailFrames, channels), channels);
          } finally {
            closeSync(next);
          }
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
