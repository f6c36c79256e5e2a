// The encode of one re-encoded stretch of a spliced AAC output (plan/aac-splice.ts): sample ranges
// of input files and pads of silence, joined and encoded by the same AAC encoder and settings as
// every other AAC part, so its packets share the copies' stream configuration. Many stretches go
// through one ffmpeg.
import type { Tools } from './tools.js';
import { stretchSeekSeconds } from '../plan/aac-splice.js';
import { BATCH_SIZE } from './batch.js';
import { fileArg, spawnRunner, type FfmpegProgress, type Runner, QUIET_WRITE } from './runner.js';
import { aacOutputArgs, runPartEncode, type TranscodeTarget } from './transcode.js';

/** Samples [from, to) of a file's decoded audio (at the target's rate), or that many of silence. */
export type FeedPiece = { file: string; from: number; to: number } | { silence: number };

/** One stretch to encode: its feed and the MP4 it is written to. */
export interface StretchJob {
  feed: readonly FeedPiece[];
  output: string;
}

/** The inputs and filter chains of one stretch, its inputs numbered from `first`, its feed labelled `[fK]`. */
function stretchGraph(job: StretchJob, k: number, first: number, t: TranscodeTarget) {
  const layout = t.channels === 1 ? 'mono' : 'stereo';
  const shape = `aformat=sample_fmts=fltp:sample_rates=${t.sampleRate}:channel_layouts=${layout}`;
  const inputs: string[] = [];
  const chains: string[] = [];
  job.feed.forEach((p, n) => {
    const label = `[p${k}_${n}]`;
    if ('silence' in p) {
      chains.push(`anullsrc=r=${t.sampleRate}:cl=${layout},atrim=end_sample=${p.silence},${shape}${label}`);
      return;
    }
    const seek = stretchSeekSeconds(p.from, t.sampleRate);
    const at = first + inputs.filter((a) => a === '-i').length;
    // No seek at all from the start: ffmpeg of 2018 drops the first frame after `-ss 0` besides the priming.
    inputs.push(...(seek > 0 ? ['-ss', String(seek)] : []), '-i', fileArg(p.file));
    const base = seek * t.sampleRate;
    chains.push(
      `[${at}:a:0]${shape},atrim=start_sample=${p.from - base}:end_sample=${p.to - base},asetpts=PTS-STARTPTS${label}`,
    );
  });
  const labels = job.feed.map((_, n) => `[p${k}_${n}]`).join('');
  chains.push(`${labels}concat=n=${job.feed.length}:v=0:a=1[f${k}]`);
  return { inputs, chains };
}

/** One ffmpeg that encodes every stretch of `jobs`, each to its own MP4. */
export function aacStretchArgs(jobs: readonly StretchJob[], t: TranscodeTarget): string[] {
  const inputs: string[] = [];
  const chains: string[] = [];
  jobs.forEach((job, k) => {
    const g = stretchGraph(job, k, inputs.filter((a) => a === '-i').length, t);
    inputs.push(...g.inputs);
    chains.push(...g.chains);
  });
  const outputs = jobs.flatMap((job, k) => [
    '-map',
    `[f${k}]`,
    '-map_metadata',
    '-1',
    ...aacOutputArgs(t),
    fileArg(job.output),
  ]);
  return [
    ...QUIET_WRITE,
    '-progress',
    'pipe:1',
    '-nostats',
    ...inputs,
    '-filter_complex',
    chains.join(';'),
    ...outputs,
  ];
}

export interface StretchEncodes {
  jobs: readonly StretchJob[];
  target: TranscodeTarget;
  tools: Tools;
  runner?: Runner;
  signal?: AbortSignal;
  /** The input a stretch belongs to, for the error of one that cannot be encoded. */
  nameOf: (k: number) => { displayName: string; index: number };
  /** `fraction` (0..1) of stretch `k`'s encode is done; never goes back for a stretch. */
  onProgress?: (k: number, fraction: number) => void;
}

const feedSamples = (job: StretchJob) =>
  job.feed.reduce((n, p) => n + ('silence' in p ? p.silence : p.to - p.from), 0);

/**
 * Progress of a group's one ffmpeg, per stretch: its outputs are written side by side (ffmpeg
 * feeds the output furthest behind), so each stretch has written as far as the output time has
 * come, up to its own length.
 */
function groupProgress(e: StretchEncodes, from: number, count: number) {
  return (p: FfmpegProgress) => {
    for (let j = from; j < from + count; j++) {
      const seconds = feedSamples(e.jobs[j]) / e.target.sampleRate;
      e.onProgress?.(j, p.end || seconds <= 0 ? 1 : Math.min(1, p.outTimeSeconds / seconds));
    }
  };
}

/**
 * Encode the stretches, BATCH_SIZE to an ffmpeg (starting one costs more than a stretch's work);
 * a group that fails is run again one by one, so the error names the input at fault.
 */
export async function encodeAacStretches(e: StretchEncodes): Promise<void> {
  const runner = e.runner ?? spawnRunner;
  for (let from = 0; from < e.jobs.length; from += BATCH_SIZE) {
    const group = e.jobs.slice(from, from + BATCH_SIZE);
    const r = await runner({
      bin: e.tools.ffmpeg,
      args: aacStretchArgs(group, e.target),
      signal: e.signal,
      onProgress: groupProgress(e, from, group.length),
    });
    if (r.code === 0) continue;
    e.signal?.throwIfAborted();
    for (let j = 0; j < group.length; j++) await encodeOne(e, from + j);
  }
}

/** Encode stretch `k` alone; a failure names the input it belongs to. */
function encodeOne(e: StretchEncodes, k: number): Promise<void> {
  const job = e.jobs[k];
  const samples = feedSamples(job);
  const first = job.feed.find((p) => 'file' in p);
  return runPartEncode(
    {
      input: first && 'file' in first ? first.file : 'silence',
      output: job.output,
      target: e.target,
      durationSeconds: samples / e.target.sampleRate,
      tools: e.tools,
      runner: e.runner,
      signal: e.signal,
      onProgress: (f) => e.onProgress?.(k, f),
      ...e.nameOf(k),
    },
    aacStretchArgs([job], e.target),
    'encode AAC',
  );
}
