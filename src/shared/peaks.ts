// Pure: a file's waveform peaks, kept compactly and served at any width. One pass over the decoded
// samples fills bins of the largest absolute sample (all channels); whenever there are too many,
// neighbours are merged in pairs, so a file of any length ends with MIN_BINS to 2 * MIN_BINS bins
// (fewer only when it is shorter than MIN_BINS * FIRST_BIN samples). Any N equal slices are then
// the maximum of the bins each slice covers.

/** Samples per bin to start with (under a millisecond at 44.1 kHz). */
export const FIRST_BIN = 32;
/** Bins kept at least, once the file is long enough: more than any request asks. */
export const MIN_BINS = 4096;
/** The most slices a request may ask for, and the default. */
export const MAX_PEAK_SLICES = 4000;
export const DEFAULT_PEAK_SLICES = 800;

const MAGIC = 0x4b414550; // "PEAK" little-endian
const HEADER = 20;

export interface PeakTable {
  sampleRate: number;
  /** Samples (per channel) each bin covers; the last bin may cover fewer. */
  samplesPerBin: number;
  /** Samples per channel in the file. */
  samples: number;
  /** Per bin, the largest absolute sample, 0..65535 for 0..1. */
  bins: Uint16Array;
}

/** The bins so far, as a folder hands them over. */
export interface FoldedPeaks {
  samplesPerBin: number;
  samples: number;
  bins: Uint16Array;
}

export interface PeakFolder {
  /** Little-endian signed 16-bit interleaved samples; a chunk may end mid-sample or mid-frame. */
  push(chunk: Uint8Array): void;
  finish(): FoldedPeaks;
}

/**
 * The one fold of samples into bins. It names nothing outside itself (its constants come as
 * arguments), because its source text is also what a worker thread runs (engine/inputs/peaks-worker.ts).
 */
export function peakFolder(channels: number, firstBin: number, capacity: number): PeakFolder {
  const bins = new Uint16Array(capacity);
  let count = 0;
  let perBin = firstBin;
  let inBin = 0;
  let current = 0;
  let samples = 0;
  let channelPos = 0;
  let carry = -1;
  // 32768 (full scale negative) reads as 1. Neighbours are merged in pairs when the bins are full.
  const closeBin = (): void => {
    if (count === capacity) {
      const half = count >> 1;
      for (let i = 0; i < half; i++) bins[i] = Math.max(bins[2 * i], bins[2 * i + 1]);
      count = half;
      perBin *= 2;
    }
    bins[count++] = Math.min(65535, Math.round((current / 32768) * 65535));
    current = 0;
    inBin = 0;
  };
  return {
    push(chunk) {
      let bytes = chunk;
      if (carry >= 0) {
        bytes = new Uint8Array(chunk.length + 1);
        bytes[0] = carry;
        bytes.set(chunk, 1);
        carry = -1;
      }
      const n = bytes.length >> 1;
      // A view without copying when the bytes are aligned (samples are little-endian, as the machine).
      const view =
        (bytes.byteOffset & 1) === 0
          ? new Int16Array(bytes.buffer, bytes.byteOffset, n)
          : new Int16Array(bytes.slice(0, n * 2).buffer);
      // The hot loop works on locals; the closure's are written back at the end.
      let max = current;
      let pos = channelPos;
      let fill = inBin;
      for (let k = 0; k < n; k++) {
        const v = view[k];
        const a = v < 0 ? -v : v;
        if (a > max) max = a;
        if (++pos === channels) {
          pos = 0;
          samples++;
          if (++fill === perBin) {
            current = max;
            closeBin();
            max = 0;
            fill = 0;
          }
        }
      }
      current = max;
      channelPos = pos;
      inBin = fill;
      if (bytes.length & 1) carry = bytes[bytes.length - 1];
    },
    finish() {
      // A last, shorter bin; should it fill the table, the pairs merged are twice as long.
      if (inBin > 0) closeBin();
      return { samplesPerBin: perBin, samples, bins: bins.slice(0, count) };
    },
  };
}

/** Fills the bins from interleaved 16-bit samples, chunk by chunk (a chunk may end mid-frame). */
export class PeakAccumulator {
  private readonly folder: PeakFolder;

  constructor(
    channels: number,
    private readonly sampleRate: number,
  ) {
    this.folder = peakFolder(channels, FIRST_BIN, 2 * MIN_BINS);
  }

  push(chunk: Uint8Array): void {
    this.folder.push(chunk);
  }

  finish(): PeakTable {
    return { sampleRate: this.sampleRate, ...this.folder.finish() };
  }
}

/** The table as bytes: a 20-byte header, then the bins (little-endian). */
export function encodePeaks(t: PeakTable): Buffer {
  const out = Buffer.alloc(HEADER + t.bins.length * 2);
  out.writeUInt32LE(MAGIC, 0);
  out.writeUInt32LE(t.sampleRate, 4);
  out.writeUInt32LE(t.samplesPerBin, 8);
  out.writeDoubleLE(t.samples, 12);
  for (let i = 0; i < t.bins.length; i++) out.writeUInt16LE(t.bins[i], HEADER + 2 * i);
  return out;
}

/** The table back from its bytes; undefined when they are not one. */
export function parsePeaks(buf: Buffer): PeakTable | undefined {
  if (buf.length < HEADER || buf.readUInt32LE(0) !== MAGIC || (buf.length - HEADER) % 2 !== 0)
    return undefined;
  const bins = new Uint16Array((buf.length - HEADER) / 2);
  for (let i = 0; i < bins.length; i++) bins[i] = buf.readUInt16LE(HEADER + 2 * i);
  return {
    sampleRate: buf.readUInt32LE(4),
    samplesPerBin: buf.readUInt32LE(8),
    samples: buf.readDoubleLE(12),
    bins,
  };
}

/** Seconds the table covers. */
export const peaksDuration = (t: PeakTable): number => (t.sampleRate > 0 ? t.samples / t.sampleRate : 0);

/**
 * `n` equal slices of the file, each its largest absolute sample (0..1, 3 decimals): the maximum
 * of every bin the slice touches.
 */
export function poolPeaks(t: PeakTable, n: number): number[] {
  const out = new Array<number>(n).fill(0);
  const bins = t.bins.length;
  if (bins === 0 || t.samples === 0) return out;
  const per = t.samples / n;
  for (let j = 0; j < n; j++) {
    const from = Math.min(bins - 1, Math.floor((j * per) / t.samplesPerBin));
    const to = Math.min(bins, Math.max(from + 1, Math.ceil(((j + 1) * per) / t.samplesPerBin)));
    let m = 0;
    for (let b = from; b < to; b++) if (t.bins[b] > m) m = t.bins[b];
    out[j] = Math.round((m / 65535) * 1000) / 1000;
  }
  return out;
}
