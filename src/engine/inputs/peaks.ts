// One decode of an input for its waveform: its first audio stream as 16-bit samples on a pipe,
// folded into peak bins as they come (src/shared/peaks.ts), never held whole in memory, on a
// worker thread (peaks-worker.ts) unless a runner is given. The
// count of samples it decoded is the input's true duration, whatever its header says.
import { InputError } from '../errors.js';
import { fileArg, lastLine, type Runner, QUIET } from '../ffmpeg/runner.js';
import { locateTools } from '../ffmpeg/tools.js';
import { exactDecode } from '../ffmpeg/ogg-vorbis.js';
import type { Tools } from '../types.js';
import { PeakAccumulator, type PeakTable } from '../../shared/peaks.js';
import { foldOnWorker } from './peaks-worker.js';

export interface PeaksJob {
  tools?: Pick<Tools, 'ffmpeg'>;
  signal?: AbortSignal;
  /** Runs ffmpeg here, folding on this thread (tests' fakes); without one, all of it runs on a worker. */
  runner?: Runner;
  /** The ffmpeg child's pid as soon as it exists. */
  onSpawn?: (pid: number) => void;
  /** The stream's channels and rate (the probe's); kept as they are, so every channel's peak counts. */
  channels: number;
  sampleRate: number;
  displayName?: string;
  /** Decode no further than this (the merge limit: a longer file can only be refused anyway). */
  limitSeconds?: number;
}

/** The floor of a decode's time: ffmpeg's start on a busy machine, and a short file's decode. */
const DECODE_FLOOR_MS = 60_000;
/**
 * Per sample (per channel) the file may hold: about ten times what this fold and ffmpeg's decode
 * of 16-bit PCM take together on a small, busy machine (2 s for 921 million samples).
 */
const DECODE_NS_PER_SAMPLE = 20;

/**
 * How long a decode of at most `limitSeconds` of `channels` x `sampleRate` audio may take before
 * it is given up: proportional to what the file may hold, not to what its header claims.
 */
export function decodeTimeoutMs(limitSeconds: number, sampleRate: number, channels: number): number {
  return Math.ceil(DECODE_FLOOR_MS + (limitSeconds * sampleRate * channels * DECODE_NS_PER_SAMPLE) / 1e6);
}

/**
 * ffmpeg's arguments to decode an input's first audio stream to 16-bit PCM on stdout, at most
 * `seconds` of it, at `channels` and `sampleRate`: what a waveform and a silence envelope fold. An
 * Ogg Vorbis file decodes to exactly its granule's samples (ffmpeg/ogg-vorbis.ts).
 */
export function pcmPipeArgs(
  file: string,
  o: { channels: number; sampleRate: number; seconds?: number },
): string[] {
  const exact = exactDecode(file);
  return [
    ...QUIET,
    ...exact.input,
    '-i',
    fileArg(file),
    ...(o.seconds !== undefined ? ['-t', String(o.seconds)] : []),
    '-map',
    '0:a:0',
    ...(exact.filter ? ['-af', exact.filter] : []),
    '-ac',
    String(o.channels),
    '-ar',
    String(o.sampleRate),
    '-f',
    's16le',
    'pipe:1',
  ];
}

export async function decodePeaks(file: string, job: PeaksJob): Promise<PeakTable> {
  const tools = job.tools ?? (await locateTools());
  const args = pcmPipeArgs(file, { ...job, seconds: job.limitSeconds });
  const { code, stderrTail, table } = await fold(tools.ffmpeg, args, job);
  if (code !== 0)
    throw new InputError(
      job.displayName ?? file,
      'not-audio',
      `could not be decoded (${lastLine(stderrTail)})`,
    );
  return table;
}

async function fold(
  bin: string,
  args: string[],
  job: PeaksJob,
): Promise<{ code: number | null; stderrTail: string; table: PeakTable }> {
  if (!job.runner) {
    const r = await foldOnWorker({
      bin,
      args,
      channels: job.channels,
      signal: job.signal,
      onSpawn: job.onSpawn,
    });
    return { code: r.code, stderrTail: r.stderrTail, table: { sampleRate: job.sampleRate, ...r.folded } };
  }
  const peaks = new PeakAccumulator(job.channels, job.sampleRate);
  const r = await job.runner({
    bin,
    args,
    signal: job.signal,
    onSpawn: job.onSpawn,
    onStdoutBytes: (chunk) => peaks.push(chunk),
  });
  return { code: r.code, stderrTail: r.stderrTail, table: peaks.finish() };
}
