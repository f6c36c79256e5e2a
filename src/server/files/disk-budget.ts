// DATA_DIR's disk, shared fairly: before a merge starts it reserves the scratch and output bytes
// it may write, and each resumable upload in progress holds its declared length. What is
// reserved counts as written already, so one merge or upload can never take the room another
// was promised: it waits for room, or is refused at once when even an empty queue could not
// make room for it. MIN_FREE_MB always stays free.
import { setTimeout as delay } from 'node:timers/promises';
import { AbortError } from '../../engine/index.js';
import type { FreeSpace } from './disk-space.js';

export interface DiskBudgetDeps {
  /** The folder whose disk is shared (DATA_DIR). */
  dir: string;
  minFreeBytes: number;
  freeSpace: FreeSpace;
  /** Bytes resumable uploads in progress have declared and may still write. */
  heldByUploads?: () => number;
  /** How often a waiting merge looks again (uploads end without telling). */
  recheckMs?: number;
}

/** A merge's hold on the disk; release it once its files are stored or removed. */
export type Release = () => void;

export class DiskFullError extends Error {
  override name = 'DiskFullError';
  readonly code = 'disk-full';
}

export interface DiskBudget {
  /** True when `bytes` more fit beside everything reserved, leaving MIN_FREE_MB free. */
  fits(bytes: number): Promise<boolean>;
  /**
   * Reserve `bytes` for a merge: at once when they fit, after others release theirs when they
   * will, a DiskFullError when they could not fit even with nothing else reserved.
   */
  reserve(bytes: number, signal?: AbortSignal): Promise<Release>;
  /** Bytes reserved by merges now. */
  readonly reservedByMerges: number;
}

export function createDiskBudget(deps: DiskBudgetDeps): DiskBudget {
  let merges = 0;
  const wakers = new Set<() => void>();
  const free = () => deps.freeSpace(deps.dir).catch(() => Number.POSITIVE_INFINITY);
  const held = () => merges + (deps.heldByUploads?.() ?? 0);

  const hold = (bytes: number): Release => {
    merges += bytes;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      merges -= bytes;
      for (const wake of wakers) wake();
    };
  };

  return {
    get reservedByMerges() {
      return merges;
    },
    async fits(bytes) {
      return (await free()) - held() - bytes >= deps.minFreeBytes;
    },
    async reserve(bytes, signal) {
      for (;;) {
        if (signal?.aborted) throw new AbortError();
        const room = await free();
        if (room - held() - bytes >= deps.minFreeBytes) return hold(bytes);
        // What is reserved may be on the disk already: with all of it back, would this fit?
        if (room + held() - bytes < deps.minFreeBytes) throw new DiskFullError("The server's disk is full");
        await new Promise<void>((resolve) => {
          const wake = () => {
            wakers.delete(wake);
            signal?.removeEventListener('abort', wake);
            resolve();
          };
          wakers.add(wake);
          if (signal?.aborted) return wake();
          signal?.addEventListener('abort', wake, { once: true });
          void delay(deps.recheckMs ?? 2000, undefined, { ref: false }).then(wake);
        });
      }
    },
  };
}

/** Bytes per second of 32-bit float PCM, the widest form a merge keeps in scratch. */
const pcmRate = (rate: number, channels: number) => rate * channels * 4;
/** The highest bit rate a lossy output is written at, bytes per second. */
const LOSSY_MAX_BYTES_PER_SECOND = 320_000 / 8;

export interface MergeEstimate {
  /** Every use of every item: its duration (s), sample rate and channels as stored at upload. */
  inputs: ReadonlyArray<{ duration: number; sampleRate: number; channels: number; size: number }>;
  format: string;
  /** Crossfades and gapless joins decode the whole merge to PCM, twice over. */
  mixed: boolean;
  /** Silence between inputs, seconds. */
  gapSeconds: number;
  maxSampleRate: number;
  maxChannels: number;
  /** With a bucket, the inputs are copied into scratch first. */
  copiesInputs: boolean;
}

/**
 * An upper bound on what one merge writes on DATA_DIR's disk, scratch and output together: its
 * inputs decoded at the output's rate and channels (capped), as the widest intermediate the
 * route may keep, and the output at its largest.
 */
export function estimateMergeBytes(e: MergeEstimate): number {
  let seconds = e.gapSeconds * Math.max(0, e.inputs.length - 1);
  let rate = 8000;
  let channels = 1;
  for (const i of e.inputs) {
    seconds += i.duration;
    rate = Math.max(rate, i.sampleRate);
    channels = Math.max(channels, i.channels);
  }
  rate = Math.min(rate, e.maxSampleRate);
  channels = Math.min(channels, e.maxChannels);
  const lossless = e.format === 'wav' || e.format === 'flac';
  const pcm = seconds * pcmRate(rate, channels);
  // A lossy output may copy its inputs' packets as they are, at whatever rate they were made.
  const output = lossless
    ? seconds * rate * channels * 3
    : Math.max(
        seconds * LOSSY_MAX_BYTES_PER_SECOND,
        e.inputs.reduce((n, i) => n + i.size, 0),
      );
  // Lossless routes decode every input to PCM; lossy ones keep re-encoded parts (output-sized).
  const scratch = (lossless ? pcm : output) + (e.mixed ? 2 * pcm : 0);
  const copies = e.copiesInputs ? sumUnique(e.inputs) : 0;
  return Math.ceil(scratch + output + copies);
}

function sumUnique(inputs: MergeEstimate['inputs']): number {
  let total = 0;
  for (const i of new Set(inputs)) total += i.size;
  return total;
}
