// The encode of one re-encoded stretch of a spliced AAC output (plan/aac-splice.ts): sample ranges
// of input files and pads of silence, joined and encoded by the same AAC encoder and settings as
// every other AAC part, so its packets share the copies' stream configuration.
import type { Tools } from './tools.js';
import { fileArg, type Runner } from './runner.js';
import { aacOutputArgs, runPartEncode, type TranscodeTarget } from './transcode.js';

/** Samples [from, to) of a file's decoded audio (at the target's rate), or that many of silence. */
export type FeedPiece = { file: string; from: number; to: number } | { silence: number };

/**
 * A range is read from a whole second at least one second before it (a sample-exact point for
 * ffmpeg's seek, with the decoder's overlap settled well before the range), then cut by sample count.
 */
function seekSeconds(from: number, rate: number): number {
  return Math.max(0, Math.floor(from / rate) - 1);
}

export function aacStretchArgs(feed: readonly FeedPiece[], output: string, t: TranscodeTarget): string[] {
  const layout = t.channels === 1 ? 'mono' : 'stereo';
  const shape = `aformat=sample_fmts=fltp:sample_rates=${t.sampleRate}:channel_layouts=${layout}`;
  const inputs: string[] = [];
  const chains: string[] = [];
  feed.forEach((p, k) => {
    if ('silence' in p) {
      chains.push(`anullsrc=r=${t.sampleRate}:cl=${layout},atrim=end_sample=${p.silence},${shape}[p${k}]`);
      return;
    }
    const seek = seekSeconds(p.from, t.sampleRate);
    const at = inputs.length / 4;
    inputs.push('-ss', String(seek), '-i', fileArg(p.file));
    const base = seek * t.sampleRate;
    chains.push(
      `[${at}:a:0]${shape},atrim=start_sample=${p.from - base}:end_sample=${p.to - base},asetpts=PTS-STARTPTS[p${k}]`,
    );
  });
  const labels = feed.map((_, k) => `[p${k}]`).join('');
  return [
    '-hide_banner',
    '-nostdin',
    '-v',
    'error',
    '-y',
    ...inputs,
    '-filter_complex',
    `${chains.join(';')};${labels}concat=n=${feed.length}:v=0:a=1[feed]`,
    '-map',
    '[feed]',
    '-map_metadata',
    '-1',
    ...aacOutputArgs(t),
    '-progress',
    'pipe:1',
    '-nostats',
    fileArg(output),
  ];
}

/** Encode a stretch's feed to an MP4 at `output`; a failure names `displayName` (the input cut there). */
export function encodeAacStretch(job: {
  feed: readonly FeedPiece[];
  output: string;
  target: TranscodeTarget;
  tools: Tools;
  runner?: Runner;
  signal?: AbortSignal;
  displayName: string;
  index: number;
}): Promise<void> {
  const { feed, output, target } = job;
  const samples = feed.reduce((n, p) => n + ('silence' in p ? p.silence : p.to - p.from), 0);
  const first = feed.find((p) => 'file' in p);
  return runPartEncode(
    {
      input: first && 'file' in first ? first.file : 'silence',
      output,
      target,
      durationSeconds: samples / target.sampleRate,
      tools: job.tools,
      runner: job.runner,
      signal: job.signal,
      displayName: job.displayName,
      index: job.index,
    },
    aacStretchArgs(feed, output, target),
    'encode AAC',
  );
}
