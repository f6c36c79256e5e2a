// Measure many inputs at once (one decode each, up to `concurrency` at a time), in input order.
import { measureInput, type Measurement } from '../ffmpeg/loudness.js';
import type { Runner } from '../ffmpeg/runner.js';
import type { Tools } from '../types.js';
import { runPool } from '../io/pool.js';

export interface MeasureAllOptions {
  tools: Tools;
  concurrency: number;
  /** Also find silences (for --trim-silence). */
  silence?: boolean;
  /** Per input, the span measured (a trim), seconds; the whole input when absent. */
  keeps?: ReadonlyArray<{ start: number; end: number } | undefined>;
  runner?: Runner;
  signal?: AbortSignal;
  names?: string[];
  durations?: number[];
  /** Input `index` is `fraction` (0..1) measured. */
  onProgress?: (index: number, fraction: number) => void;
  /** Called on the first failure, so the caller can stop the rest. */
  onFailure?: () => void;
}

export async function measureAll(
  inputs: readonly string[],
  which: readonly number[],
  opts: MeasureAllOptions,
): Promise<Map<number, Measurement>> {
  return runPool(
    which,
    opts.concurrency,
    (i) =>
      measureInput({
        input: inputs[i],
        tools: opts.tools,
        silence: opts.silence,
        keep: opts.keeps?.[i],
        runner: opts.runner,
        signal: opts.signal,
        durationSeconds: opts.durations?.[i],
        displayName: opts.names?.[i],
        index: i,
        onProgress: (f) => opts.onProgress?.(i, f),
      }),
    opts.onFailure,
  );
}
