import type { MergeOptions, MergeReport } from './types.js';

/**
 * Join `inputs`, in order, into one MP3 at `output`, atomically (temporary file + rename).
 * Throws InputError (with index) for an unusable input, AbortError when cancelled.
 */
export async function mergeFiles(_inputs: string[], _output: string, _opts: MergeOptions = {}): Promise<MergeReport> {
  throw new Error('mergeFiles: not implemented yet');
}
