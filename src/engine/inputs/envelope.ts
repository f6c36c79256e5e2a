// One decode of an input for its silences: its first audio stream at its own rate and channels as
// 16-bit samples on a pipe, folded as they come into an envelope of 10 ms bins (the largest
// absolute sample of any channel, the same fold as the waveform's, src/shared/peaks.ts), on a
// worker thread unless a runner is given. Native rate and channels: a resample or downmix would
// cost ffmpeg more than the fold of the extra samples costs, and would blur the level judged.
import { InputError } from '../errors.js';
import { lastLine, type Runner } from '../ffmpeg/runner.js';
import type { Tools } from '../types.js';
import { peakFolder, type FoldedPeaks } from '../../shared/peaks.js';
import { foldOnWorker } from './peaks-worker.js';
import { pcmPipeArgs } from './peaks.js';
import { BOOK_BIN_SECONDS, type Envelope } from '../plan/silence-chapters.js';

export interface EnvelopeJob {
  tools: Pick<Tools, 'ffmpeg'>;
  signal?: AbortSignal;
  /** Runs ffmpeg here, folding on this thread; without one, the decode and fold run on a worker. */
  runner?: Runner;
  channels: number;
  sampleRate: number;
  /** The probed length: sizes the table (a longer file merges bins in pairs, never loses any). */
  durationSeconds: number;
  /** Decode no further than this many seconds (a trim's end). */
  untilSeconds?: number;
  displayName?: string;
  /** The share (0..1) of the input decoded so far, now and then. */
  onFraction?: (fraction: number) => void;
}

/** Decodes `file` and folds it into an envelope of BOOK_BIN_SECONDS bins (as near as its rate allows). */
export async function decodeEnvelope(file: string, job: EnvelopeJob): Promise<Envelope> {
  const firstBin = Math.max(1, Math.round(job.sampleRate * BOOK_BIN_SECONDS));
  const length = Math.min(job.durationSeconds, job.untilSeconds ?? Infinity);
  const capacity = Math.ceil((length * 1.05) / BOOK_BIN_SECONDS) + 1024;
  const args = pcmPipeArgs(file, {
    ...job,
    seconds: job.untilSeconds !== undefined ? job.untilSeconds + 0.1 : undefined,
  });
  const expected = 2 * job.channels * job.sampleRate * length;
  const onBytes = job.onFraction && ((b: number) => job.onFraction!(Math.min(1, b / expected)));
  const fold = { bin: job.tools.ffmpeg, args, channels: job.channels, firstBin, capacity, onBytes };
  const r = job.runner
    ? await foldHere(job.runner, fold, job.signal)
    : await foldOnWorker({ ...fold, signal: job.signal });
  if (r.code !== 0)
    throw new InputError(
      job.displayName ?? file,
      'not-audio',
      `could not be decoded to find its silences (${lastLine(r.stderrTail)})`,
    );
  return { binSeconds: r.folded.samplesPerBin / job.sampleRate, peaks: r.folded.bins };
}

async function foldHere(
  runner: Runner,
  f: {
    bin: string;
    args: string[];
    channels: number;
    firstBin: number;
    capacity: number;
    onBytes?: (bytes: number) => void;
  },
  signal: AbortSignal | undefined,
): Promise<{ code: number | null; stderrTail: string; folded: FoldedPeaks }> {
  const folder = peakFolder(f.channels, f.firstBin, f.capacity);
  let bytes = 0;
  const onStdoutBytes = (c: Buffer) => {
    folder.push(c);
    bytes += c.length;
    f.onBytes?.(bytes);
  };
  const r = await runner({ bin: f.bin, args: f.args, signal, onStdoutBytes });
  return { code: r.code, stderrTail: r.stderrTail, folded: folder.finish() };
}
