// One decode of an input for its waveform: its first audio stream as 16-bit samples on a pipe,
// folded into peak bins as they come (src/shared/peaks.ts), never held whole in memory. The
// count of samples it decoded is the input's true duration, whatever its header says.
import { InputError } from '../errors.js';
import { fileArg, lastLine, spawnRunner, type Runner, QUIET } from '../ffmpeg/runner.js';
import { locateTools } from '../ffmpeg/tools.js';
import type { Tools } from '../types.js';
import { PeakAccumulator, type PeakTable } from '../../shared/peaks.js';

export interface PeaksJob {
  tools?: Tools;
  signal?: AbortSignal;
  runner?: Runner;
  /** The stream's channels and rate (the probe's); kept as they are, so every channel's peak counts. */
  channels: number;
  sampleRate: number;
  displayName?: string;
  /** Decode no further than this (the merge limit: a longer file can only be refused anyway). */
  limitSeconds?: number;
}

export async function decodePeaks(file: string, job: PeaksJob): Promise<PeakTable> {
  const tools = job.tools ?? (await locateTools());
  const peaks = new PeakAccumulator(job.channels, job.sampleRate);
  const r = await (job.runner ?? spawnRunner)({
    bin: tools.ffmpeg,
    args: [
      ...QUIET,
      '-i',
      fileArg(file),
      ...(job.limitSeconds !== undefined ? ['-t', String(job.limitSeconds)] : []),
      '-map',
      '0:a:0',
      '-ac',
      String(job.channels),
      '-ar',
      String(job.sampleRate),
      '-f',
      's16le',
      'pipe:1',
    ],
    signal: job.signal,
    onStdoutBytes: (chunk) => peaks.push(chunk),
  });
  if (r.code !== 0)
    throw new InputError(
      job.displayName ?? file,
      'not-audio',
      `could not be decoded (${lastLine(r.stderrTail)})`,
    );
  return peaks.finish();
}
