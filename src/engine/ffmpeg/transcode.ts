// Re-encode one input to a temporary MP3 with exactly the plan's rate, channels and bit rate.
import { InputError, OutputError, ToolError } from '../errors.js';
import { fileArg, lastLine, machineFault, spawnRunner, type Runner, QUIET_WRITE } from './runner.js';
import { exactDecode, withExactFilter } from './ogg-vorbis.js';
import { assertToolWorks } from './tool-check.js';
import type { Tools } from './tools.js';

export interface TranscodeTarget {
  sampleRate: number;
  channels: number;
  bitRateKbps: number;
  /** false: frames that borrow no bytes from the ones before (frames spliced into a copied stream). */
  bitReservoir?: false;
}

/**
 * Containers whose stated duration is exact (sample counts, granule positions, edit lists).
 * This ffmpeg build decodes AAC and Vorbis encoder padding past that end (about 20 ms of
 * silence per input), so the decode is cut at the stated end. Never for MP3 or raw AAC, whose
 * durations ffprobe may only estimate, so no real audio can be cut.
 */
const EXACT_DURATION_FORMATS = new Set(['m4a', 'ogg', 'opus', 'flac', 'wav']);

export function trustsDuration(format: string): boolean {
  return EXACT_DURATION_FORMATS.has(format);
}

export interface TranscodeJob<T = TranscodeTarget> {
  input: string;
  output: string;
  target: T;
  /** The input's probed duration, to turn ffmpeg's out_time into a fraction. */
  durationSeconds: number;
  /** Cut the decode at durationSeconds (only for formats where trustsDuration). */
  trimToDuration?: boolean;
  tools: Tools;
  runner?: Runner;
  signal?: AbortSignal;
  /** 0..1 */
  onProgress?: (fraction: number) => void;
  /** For error messages. */
  displayName?: string;
  index?: number;
  /** An -af chain (the sound options: gain, trimmed ends, a gap); it then also does the cut at durationSeconds. */
  filters?: string;
  /** The input is raw PCM of this shape (a mixed stream), not a file ffmpeg can identify. */
  raw?: PcmTarget;
  /** An ffmpeg input URL read instead of the file `input` (which then only names it), relative to `cwd`. */
  url?: string;
  cwd?: string;
  /** Ranges of input files decoded in this process and joined, instead of the file `input`. */
  sources?: DecodedSources;
}

/** Sample ranges [from, to) of input files, each decoded to `pcm`'s shape (padded to `to` if it ends sooner), joined in order. */
export interface DecodedSources {
  pcm: PcmTarget;
  ranges: { file: string; from: number; to: number }[];
}

/** What every per-input ffmpeg reads, and how: a cut at a trusted end, the sound filters, raw PCM. */
export interface InputHead {
  trimSeconds?: number;
  filters?: string;
  raw?: PcmTarget;
  /** An ffmpeg input URL (our own byte ranges of scratch files) instead of the file. */
  url?: string;
  sources?: DecodedSources;
}

export function transcodeArgs(
  input: string,
  output: string,
  t: TranscodeTarget,
  head: InputHead = {},
): string[] {
  return [...inputArgs(input, head), ...mp3OutputArgs(t), '-progress', 'pipe:1', '-nostats', fileArg(output)];
}

/** LAME at the target's rate and channels, as a bare stream the join takes frames from. */
export function mp3OutputArgs(t: TranscodeTarget): string[] {
  return [
    '-c:a',
    'libmp3lame',
    '-b:a',
    `${t.bitRateKbps}k`,
    ...(t.bitReservoir === false ? ['-reservoir', '0'] : []),
    '-ar',
    String(t.sampleRate),
    '-ac',
    String(t.channels),
    // The join writes one header and one tag for the whole output; these would only be skipped.
    '-write_xing',
    '0',
    '-id3v2_version',
    '0',
    '-f',
    'mp3',
  ];
}

/** Run one ffmpeg that reads an input and writes a part; failures are the input's unless the tool or disk failed. */
export async function runPartEncode(job: TranscodeJob<unknown>, args: string[], what: string): Promise<void> {
  const runner = job.runner ?? spawnRunner;
  const result = await runner({
    bin: job.tools.ffmpeg,
    args,
    signal: job.signal,
    cwd: job.cwd,
    onProgress: (p) => {
      if (!job.onProgress) return;
      if (p.end) job.onProgress(1);
      else if (job.durationSeconds > 0) job.onProgress(Math.min(1, p.outTimeSeconds / job.durationSeconds));
    },
  });
  if (result.code !== 0) {
    const why = result.signal ? `ffmpeg was killed by ${result.signal}` : lastLine(result.stderrTail);
    if (/Unknown encoder|Encoder .* not found|Unrecognized option/i.test(why)) {
      throw new ToolError(
        `${job.tools.ffmpeg} cannot ${what} (${why}); use an ffmpeg built with the encoders in README`,
      );
    }
    if (!result.signal) await assertToolWorks(runner, job.tools.ffmpeg, 'ffmpeg');
    // Failures of the machine, not of the input, must not be blamed on the file.
    const fault = machineFault(why);
    if (fault) throw new OutputError(`cannot write a temporary file: ${why}`, fault);
    throw new InputError(
      job.displayName ?? job.input,
      'reencode-failed',
      `could not be re-encoded (${why})`,
      job.index ?? -1,
    );
  }
}

/** What a job hands to one ffmpeg's input: the cut, its filters, raw PCM, a URL, its sources. */
export const headOf = (job: TranscodeJob<unknown>): InputHead => ({
  trimSeconds: job.trimToDuration && !job.filters ? job.durationSeconds : undefined,
  filters: job.filters,
  raw: job.raw,
  url: job.url,
  sources: job.sources,
});

export function transcodeToMp3(job: TranscodeJob): Promise<void> {
  return runPartEncode(job, transcodeArgs(job.input, job.output, job.target, headOf(job)), 'encode MP3');
}

/**
 * The common head of every per-input ffmpeg: first audio stream only, no tags, cut at a trusted
 * end (by -t, or inside the sound filters, which may add a gap after that end).
 */
export function inputArgs(input: string, head: InputHead = {}): string[] {
  const { trimSeconds, filters, raw, url, sources } = head;
  if (sources) return sourcesArgs(sources);
  // An Ogg Vorbis file is cut at its exact end by sample count, not by time.
  const exact = raw || url ? { input: [] } : exactDecode(input);
  const chain = withExactFilter(exact, filters);
  const cut = !exact.filter && trimSeconds !== undefined && trimSeconds > 0;
  return [
    ...QUIET_WRITE,
    ...(raw ? ['-f', raw.sampleFormat, '-ar', String(raw.sampleRate), '-ac', String(raw.channels)] : []),
    ...exact.input,
    '-i',
    url ?? fileArg(input),
    '-vn',
    '-map',
    '0:a:0',
    '-map_metadata',
    '-1',
    ...(cut ? ['-t', trimSeconds.toFixed(6)] : []),
    ...(chain ? ['-af', chain] : []),
  ];
}

const SAMPLE_FMT: Record<PcmFormat, string> = { s16le: 's16', s32le: 's32', f32le: 'flt' };

/**
 * Samples of silence after each decoded input: a resampler's count may differ by a sample from the
 * rounded one the timeline counts. A file that decodes to less than that falls short of its feed.
 */
const RESAMPLER_SLACK = 4;

/**
 * The head of an encoder that decodes its own feed: each range of each file resampled to the
 * timeline's shape, followed by a few samples of silence, cut to the range by sample count, joined,
 * and stamped from the samples that came out. `atrim` and `concat` keep the source's timestamps, so
 * a feed cut from sample 16 of an input would start at 16/rate: the MP4 muxer then writes that as
 * an edit (the AAC encode's priming reads 1008, not 1024, or an empty edit comes first) and the
 * chunks no longer stitch. Stamped by count, the feed starts at 0 whatever it was cut from, and a
 * damaged frame the decoder drops leaves no gap in the timestamps, so ffmpeg's out_time counts the
 * samples that came out (a feed that came out short shows it).
 */
export function sourcesArgs({ pcm, ranges }: DecodedSources): string[] {
  if (pcm.channels > 2) throw new Error('internal: decoded sources are mono or stereo');
  const shape =
    `aresample=${pcm.sampleRate},aformat=sample_fmts=${SAMPLE_FMT[pcm.sampleFormat]}` +
    `:channel_layouts=${pcm.channels === 1 ? 'mono' : 'stereo'}`;
  const exact = ranges.map((r) => exactDecode(r.file));
  const chains = ranges.map(
    (r, k) =>
      `[${k}:a:0]${withExactFilter(exact[k], shape)},apad=pad_len=${RESAMPLER_SLACK},atrim=start_sample=${r.from}:end_sample=${r.to}[s${k}]`,
  );
  const labels = ranges.map((_, k) => `[s${k}]`).join('');
  return [
    ...QUIET_WRITE,
    ...ranges.flatMap((r, k) => [...exact[k].input, '-i', fileArg(r.file)]),
    '-filter_complex',
    `${chains.join(';')};${labels}concat=n=${ranges.length}:v=0:a=1,asetpts=N/SR/TB[feed]`,
    '-map',
    '[feed]',
    '-map_metadata',
    '-1',
  ];
}

/** AAC-LC in MP4, at the plan's rate and channels: a part whose packets the MP4 join copies. */
export function aacArgs(input: string, output: string, t: TranscodeTarget, head: InputHead = {}): string[] {
  return [...inputArgs(input, head), ...aacOutputArgs(t), '-progress', 'pipe:1', '-nostats', fileArg(output)];
}

/** The output side of an AAC-LC encode: every AAC part and every packet of silence alike. */
export function aacOutputArgs(t: TranscodeTarget): string[] {
  return [
    '-c:a',
    'aac',
    '-b:a',
    `${t.bitRateKbps}k`,
    '-ar',
    String(t.sampleRate),
    '-ac',
    String(t.channels),
    '-f',
    'mp4',
  ];
}

export function transcodeToAac(job: TranscodeJob): Promise<void> {
  return runPartEncode(job, aacArgs(job.input, job.output, job.target, headOf(job)), 'encode AAC');
}

export type PcmFormat = 's16le' | 's32le' | 'f32le';

export interface PcmTarget {
  sampleRate: number;
  channels: number;
  sampleFormat: PcmFormat;
}

/** Raw PCM at the plan's rate and channels; its length in bytes counts the samples exactly. */
export function pcmArgs(input: string, output: string, t: PcmTarget, head: InputHead = {}): string[] {
  return [...inputArgs(input, head), ...pcmOutputArgs(t), '-progress', 'pipe:1', '-nostats', fileArg(output)];
}

/** Raw samples at the target's rate, channels and sample format. */
export function pcmOutputArgs(t: PcmTarget): string[] {
  const codec = t.sampleFormat === 'f32le' ? 'pcm_f32le' : `pcm_${t.sampleFormat}`;
  return ['-c:a', codec, '-ar', String(t.sampleRate), '-ac', String(t.channels), '-f', t.sampleFormat];
}

export function decodeToPcm(job: TranscodeJob<PcmTarget>): Promise<void> {
  return runPartEncode(job, pcmArgs(job.input, job.output, job.target, headOf(job)), 'decode');
}
