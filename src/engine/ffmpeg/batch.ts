// Many small decodes or encodes in one ffmpeg: each input read once, each written to its own
// output with its own filters and codec. Starting ffmpeg costs more here than a few frames of work
// (about 0.1 s a process), so the cuts and fades of a copied MP3 join go through one process for
// their decodes and one for their encodes, in groups of BATCH_SIZE. A group that fails is run again
// one by one, so the error names the input at fault, as a single run's does.
import { fileArg, spawnRunner, type Runner, QUIET_WRITE } from './runner.js';
import { exactDecode, withExactFilter } from './ogg-vorbis.js';
import type { InputHead } from './transcode.js';
import type { Tools } from '../types.js';

/** Inputs per ffmpeg: well under the open-file limits, and a failed group is cheap to redo. */
export const BATCH_SIZE = 32;

export interface BatchJob {
  input: string;
  output: string;
  head: InputHead;
  /** Codec and format arguments of the output (everything after the stream's filters). */
  outputArgs: string[];
}

export interface BatchOptions {
  tools: Pick<Tools, 'ffmpeg'>;
  runner?: Runner;
  signal?: AbortSignal;
}

/** The one command line: every input, then every output taking its own input's first audio stream. */
export function batchArgs(jobs: readonly BatchJob[]): string[] {
  // An Ogg Vorbis file is cut at its exact end by sample count, not by time (ogg-vorbis.ts).
  const exact = jobs.map(({ input, head: { raw, url } }) =>
    raw || url ? { input: [] } : exactDecode(input),
  );
  const inputs = jobs.flatMap(({ input, head: { raw, url } }, j) => [
    ...(raw ? ['-f', raw.sampleFormat, '-ar', String(raw.sampleRate), '-ac', String(raw.channels)] : []),
    ...exact[j].input,
    '-i',
    url ?? fileArg(input),
  ]);
  const outputs = jobs.flatMap(({ output, head: { trimSeconds, filters }, outputArgs }, j) => {
    const chain = withExactFilter(exact[j], filters);
    const cut = !exact[j].filter && trimSeconds !== undefined && trimSeconds > 0;
    return [
      '-vn',
      '-map',
      `${j}:a:0`,
      '-map_metadata',
      '-1',
      ...(cut ? ['-t', trimSeconds.toFixed(6)] : []),
      ...(chain ? ['-af', chain] : []),
      ...outputArgs,
      fileArg(output),
    ];
  });
  return [...QUIET_WRITE, ...inputs, ...outputs];
}

/**
 * Run the jobs in groups; `single` runs one job alone (with its own error), for a group that
 * failed. Resolves when every output is written.
 */
export async function runBatched(
  jobs: readonly BatchJob[],
  opts: BatchOptions,
  single: (index: number) => Promise<void>,
): Promise<void> {
  const runner = opts.runner ?? spawnRunner;
  for (let from = 0; from < jobs.length; from += BATCH_SIZE) {
    const group = jobs.slice(from, from + BATCH_SIZE);
    const r = await runner({ bin: opts.tools.ffmpeg, args: batchArgs(group), signal: opts.signal });
    if (r.code === 0) continue;
    opts.signal?.throwIfAborted();
    for (let j = 0; j < group.length; j++) await single(from + j);
  }
}
