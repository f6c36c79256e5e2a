// Packets of AAC-LC silence, for gaps between AAC parts that are copied, not re-encoded: digital
// silence encoded by the same encoder and settings as our AAC parts, at the stream's rate and
// channels, so its packets decode to zeros under the output's own AudioSpecificConfig.
import type { Tools } from './tools.js';
import { fileArg, type Runner, QUIET_WRITE } from './runner.js';
import { aacOutputArgs, runPartEncode, type TranscodeTarget } from './transcode.js';

export function aacSilenceArgs(output: string, t: TranscodeTarget, seconds: number): string[] {
  const layout = t.channels === 1 ? 'mono' : 'stereo';
  return [
    ...QUIET_WRITE,
    '-f',
    'lavfi',
    '-i',
    `anullsrc=r=${t.sampleRate}:cl=${layout}`,
    '-t',
    seconds.toFixed(6),
    ...aacOutputArgs(t),
    '-progress',
    'pipe:1',
    '-nostats',
    fileArg(output),
  ];
}

/** Encode `seconds` of silence to an MP4 at `output`. */
export function encodeAacSilence(job: {
  output: string;
  target: TranscodeTarget;
  seconds: number;
  tools: Tools;
  runner?: Runner;
  signal?: AbortSignal;
}): Promise<void> {
  const { output, target, seconds, tools, runner, signal } = job;
  return runPartEncode(
    {
      input: 'silence',
      output,
      target,
      durationSeconds: seconds,
      tools,
      runner,
      signal,
      displayName: 'the silence of a gap',
    },
    aacSilenceArgs(output, target, seconds),
    'encode AAC',
  );
}
