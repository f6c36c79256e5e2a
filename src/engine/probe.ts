import type { ProbeResult, Tools } from './types.js';

/**
 * Probe one input. MP3s are read in-process by the frame parser; everything else (and any MP3
 * the parser cannot read cleanly) through ffprobe. Throws InputError naming the file and reason
 * when the input has no usable audio.
 */
export async function probeFile(
  _file: string,
  _opts: { tools?: Tools; signal?: AbortSignal; displayName?: string } = {},
): Promise<ProbeResult> {
  throw new Error('probeFile: not implemented yet');
}
