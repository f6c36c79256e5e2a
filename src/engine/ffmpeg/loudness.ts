// One decode of an input that measures what the sound options need: integrated loudness (EBU R128,
// gated as the standard says, so silence and near-silence do not drag it) and true peak from
// ffmpeg's ebur128 filter, and, when asked, stretches of silence from silencedetect.
import { InputError } from '../errors.js';
import type { Tools } from './tools.js';
import { fileArg, lastLine, spawnRunner, type Runner } from './runner.js';
import { exactDecode } from './ogg-vorbis.js';
import { SilenceLog, type Silence } from './silence-log.js';
import { assertToolWorks } from './tool-check.js';

/** Level below which a stretch counts as silence for --trim-silence. */
export const SILENCE_DB = -50;
/** Shortest stretch silencedetect reports; shorter gaps are part of the sound. */
const SILENCE_MIN_SECONDS = 0.02;

export interface Measurement {
  /** Integrated loudness in LUFS; null when no block passed the gates (digital silence). */
  integratedLufs: number | null;
  /** True peak in dBTP; null for digital silence. */
  truePeakDb: number | null;
  /** Seconds of audio the decode produced (encoder delay and padding already removed by ffmpeg). */
  decodedSeconds: number;
  /** Stretches below SILENCE_DB, in order (only when silence was asked for). */
  silences: Silence[];
}

export interface MeasureJob {
  input: string;
  tools: Tools;
  /** Also report the stretches of silence. */
  silence?: boolean;
  /** Measure only these seconds of the input (a trim): loudness of what is kept, silences from its start. */
  keep?: { start: number; end: number };
  runner?: Runner;
  signal?: AbortSignal;
  /** 0..1 of the input decoded. */
  onProgress?: (fraction: number) => void;
  /** The input's probed duration, for progress. */
  durationSeconds?: number;
  displayName?: string;
  index?: number;
  /** A filter chain the audio goes through before it is measured (a gain and limiter being checked). */
  preFilter?: string;
}

/** `keep`: only these seconds are measured (a trim); `preFilter`: a chain the kept audio goes through first. */
export function measureArgs(
  input: string,
  silence: boolean,
  { keep, preFilter }: { keep?: { start: number; end: number }; preFilter?: string } = {},
): string[] {
  // An Ogg Vorbis file is cut at its exact end first, so the kept seconds count from its first sample.
  const exact = exactDecode(input);
  const filters = [
    ...(exact.filter ? [exact.filter] : []),
    ...(keep
      ? [`atrim=start=${keep.start.toFixed(6)}:end=${keep.end.toFixed(6)}`, 'asetpts=PTS-STARTPTS']
      : []),
    ...(preFilter ? [preFilter] : []),
    ...(silence ? [`silencedetect=n=${SILENCE_DB}dB:d=${SILENCE_MIN_SECONDS}`] : []),
    // framelog=verbose keeps the 10-per-second frame lines out of stderr; the summary is at info.
    'ebur128=peak=true:framelog=verbose',
  ];
  return [
    '-hide_banner',
    '-nostdin',
    '-nostats',
    '-v',
    'info',
    ...exact.input,
    '-i',
    fileArg(input),
    '-vn',
    '-map',
    '0:a:0',
    '-af',
    filters.join(','),
    '-f',
    'null',
    '-progress',
    'pipe:1',
    '-',
  ];
}

const NUMBER = String.raw`(-?\d+(?:\.\d+)?|-?inf)`;

function dbValue(text: string | undefined): number | null {
  if (text === undefined || /inf/.test(text)) return null;
  return Number(text);
}

/** The integrated loudness and true peak from ebur128's summary; null when there is no summary. */
export function parseEbur128Summary(
  stderr: string,
): { integratedLufs: number | null; truePeakDb: number | null } | null {
  const at = stderr.lastIndexOf('Summary:');
  if (at < 0) return null;
  const summary = stderr.slice(at);
  const i = new RegExp(String.raw`\bI:\s+${NUMBER} LUFS`).exec(summary);
  if (!i) return null;
  const peak = new RegExp(String.raw`True peak:\s+Peak:\s+${NUMBER} dBFS`).exec(summary);
  const lufs = dbValue(i[1]);
  // ebur128 reports -70 LUFS, its absolute gate, when nothing passed the gate.
  return { integratedLufs: lufs === null || lufs <= -70 ? null : lufs, truePeakDb: dbValue(peak?.[1]) };
}

export async function measureInput(job: MeasureJob): Promise<Measurement> {
  const runner = job.runner ?? spawnRunner;
  const silences = new SilenceLog();
  let decodedSeconds = 0;
  const result = await runner({
    bin: job.tools.ffmpeg,
    args: measureArgs(job.input, job.silence ?? false, { keep: job.keep, preFilter: job.preFilter }),
    signal: job.signal,
    onStderr: (chunk) => silences.push(chunk),
    onProgress: (p) => {
      decodedSeconds = Math.max(decodedSeconds, p.outTimeSeconds);
      const d = job.keep ? job.keep.end - job.keep.start : (job.durationSeconds ?? 0);
      if (p.end) job.onProgress?.(1);
      else if (d > 0) job.onProgress?.(Math.min(1, p.outTimeSeconds / d));
    },
  });
  const name = job.displayName ?? job.input;
  if (result.code !== 0) {
    if (!result.signal) await assertToolWorks(runner, job.tools.ffmpeg, 'ffmpeg');
    const why = result.signal ? `ffmpeg was killed by ${result.signal}` : lastLine(result.stderrTail);
    throw new InputError(name, 'measure-failed', `could not be measured (${why})`, job.index ?? -1);
  }
  const summary = parseEbur128Summary(result.stderrTail);
  if (!summary)
    throw new InputError(
      name,
      'measure-failed',
      'could not be measured (no loudness summary from ffmpeg)',
      job.index ?? -1,
    );
  return { ...summary, decodedSeconds, silences: silences.finish(decodedSeconds) };
}
