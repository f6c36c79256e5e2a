// Probe one input: MP3s in-process by the frame parser (a spawn of ffprobe costs more than
// joining a whole file), FLAC by its metadata blocks where ffmpeg's reading of them is plain
// (flac-info.ts), everything else through ffprobe's JSON; plus a short decode of the head.
import { closeSync, lstatSync, openSync, statSync } from 'node:fs';
import { InputError, type InputErrorCode } from '../errors.js';
import { fileArg, lastLine, spawnRunner, type Runner, QUIET } from '../ffmpeg/runner.js';
import { fsReason } from '../io/fs-reason.js';
import { readFlacHead, readFlacSamples } from './flac-head.js';
import { formatFromProbe, type FfprobeJson, type FfprobeStream } from '../ffmpeg/probe-format.js';
import { Mp4Error, readMp4, readMp4Audio, type Mp4Audio } from '../mp4/read.js';
import { mp4Meta } from '../mp4/meta.js';
import { scanMp3, type Mp3Scan } from '../mp3/scan.js';
import { readFullSync } from '../io/sync-io.js';
import { exactDecode, oggVorbisSamples } from '../ffmpeg/ogg-vorbis.js';
import { assertToolWorks } from '../ffmpeg/tool-check.js';
import { locateTools } from '../ffmpeg/tools.js';
import type { ProbeResult, Tools } from '../types.js';

export interface ProbeOptions {
  tools?: Tools;
  signal?: AbortSignal;
  /** Name used in error messages instead of the path. */
  displayName?: string;
  /** Index carried by an InputError (the input's position in a merge). */
  index?: number;
  runner?: Runner;
  /**
   * Decode the head of a non-MP3 input to prove it is audio (default true). A merge that decodes
   * every such input in full anyway skips it: one ffmpeg start less per input, and a file that
   * does not decode is still refused by name when its decode fails.
   */
  headDecode?: boolean;
  /**
   * Count every frame of an MP3, never taking the count its LAME tag states. The tag's CRC proves
   * nothing of a file made to lie: it can claim a twentieth of what the file plays.
   */
  countEveryFrame?: boolean;
}

// Synchronous: a few small reads per input, where thread-pool round trips cost more (sync-io.ts).
function head(file: string, n: number): Buffer {
  const fd = openSync(file, 'r');
  try {
    const buf = Buffer.alloc(n);
    return buf.subarray(0, readFullSync(fd, buf, 0, n, 0));
  } finally {
    closeSync(fd);
  }
}

/** Why a file cannot be opened, in words; a link whose target is gone says so. */
function unreadable(file: string, err: unknown): string {
  if ((err as NodeJS.ErrnoException).code !== 'ENOENT') return fsReason(err);
  try {
    return lstatSync(file).isSymbolicLink() ? 'a link to a file that does not exist' : 'no such file';
  } catch {
    return 'no such file';
  }
}

function looksLikeMp3(file: string, bytes: Buffer): boolean {
  if (/\.(mp3|mpga|mp2|mpa)$/i.test(file)) return true;
  if (bytes.length >= 3 && bytes.toString('latin1', 0, 3) === 'ID3') return true;
  return bytes.length >= 2 && bytes[0] === 0xff && (bytes[1] & 0xe0) === 0xe0;
}

function fromScan(file: string, scan: Mp3Scan): ProbeResult {
  return {
    path: file,
    format: 'mp3',
    codec: 'mp3',
    sampleRate: scan.sampleRate,
    channels: scan.channels,
    durationSeconds: scan.durationSeconds,
    bitRate: scan.bitRate,
    tags: scan.tags,
    mp3: {
      mpegVersion: scan.mpegVersion,
      layer: scan.layer,
      frames: scan.frames,
      audioBytes: scan.audioBytes,
      vbr: scan.vbr,
      samplesPerFrame: scan.samplesPerFrame,
      ...(scan.gapless ? { gapless: { delay: scan.gapless.delay, padding: scan.gapless.padding } } : {}),
    },
  };
}

/** ffprobe prefixes its message with the input name; keep only the reason, in plain words. */
function toolReason(stderrTail: string): string {
  const line = lastLine(stderrTail);
  const cut = line.lastIndexOf(': ');
  const raw = (cut >= 0 ? line.slice(cut + 2) : line).replace(/\.$/, '');
  // What ffprobe says when no demuxer recognises the bytes.
  if (/^(Invalid data found when processing input|Invalid argument|End of file)$/.test(raw))
    return 'unrecognised format';
  return raw;
}

const HEAD_SECONDS = 5;

/** Decode (the first `limit` seconds of) the first audio stream to nowhere; how much came out. */
async function decode(
  runner: Runner,
  ffmpeg: string,
  file: string,
  signal: AbortSignal | undefined,
  limit?: number,
) {
  let seconds = 0;
  const exact = exactDecode(file);
  const r = await runner({
    bin: ffmpeg,
    args: [
      ...QUIET,
      ...(limit ? ['-t', String(limit)] : []),
      ...exact.input,
      '-i',
      fileArg(file),
      '-map',
      '0:a:0',
      ...(exact.filter ? ['-af', exact.filter] : []),
      '-f',
      'null',
      '-progress',
      'pipe:1',
      '-nostats',
      '-',
    ],
    signal,
    onProgress: (p) => {
      seconds = Math.max(seconds, p.outTimeSeconds);
    },
  });
  return { code: r.code, stderrTail: r.stderrTail, seconds };
}

/**
 * How long an input really plays: its first audio stream decoded to nowhere, up to `limitSeconds`
 * (a header's stated duration or rate can lie; the decoded samples cannot). An input that decodes
 * for the whole limit answers the limit: it is at least that long.
 */
export async function decodedSeconds(
  file: string,
  opts: { tools?: Tools; signal?: AbortSignal; runner?: Runner; limitSeconds?: number } = {},
): Promise<number> {
  const tools = opts.tools ?? (await locateTools());
  const decoded = await decode(
    opts.runner ?? spawnRunner,
    tools.ffmpeg,
    file,
    opts.signal,
    opts.limitSeconds,
  );
  return decoded.seconds;
}

/**
 * Probe one input. MP3s are read in-process by the frame parser, FLAC by its metadata blocks;
 * everything else (and any MP3 or FLAC not read cleanly that way) through ffprobe. Throws InputError naming the file and reason
 * when the input has no usable audio.
 */
export async function probeFile(file: string, opts: ProbeOptions = {}): Promise<ProbeResult> {
  const probed = await probeInput(file, opts);
  return { ...probed.result, chapterCount: probed.chapters?.length ?? 0 };
}

export interface Probed {
  result: ProbeResult;
  /** The frame parser's full scan, present when the file is an MP3 it read cleanly. */
  scan?: Mp3Scan;
  /** The AAC track's packet index, present when the file is AAC in MP4 that can be copied. */
  mp4?: Mp4Audio;
  /** The file carries a picture (cover art) that ffmpeg can extract. */
  hasCover?: boolean;
  /** The exact length in samples at its own rate, where it is known before a decode (a FLAC's last frame). */
  samples?: number;
  /** The chapters the file carries (MP4 chapter track or chpl, ID3 CHAP, Vorbis CHAPTERnnn), by start. */
  chapters?: InputChapter[];
}

/** An input's own chapter: seconds from the start of its audio, and its title ('' when it has none). */
export interface InputChapter {
  start: number;
  end: number;
  title: string;
}

function chaptersOf(json: FfprobeJson): InputChapter[] {
  return (json.chapters ?? [])
    .map((c) => {
      const tags = Object.fromEntries(Object.entries(c.tags ?? {}).map(([k, v]) => [k.toLowerCase(), v]));
      return { start: Number(c.start_time), end: Number(c.end_time), title: String(tags.title ?? '').trim() };
    })
    .filter((c) => Number.isFinite(c.start) && c.start >= 0)
    .sort((a, b) => a.start - b.start);
}

type Refuse = (reason: string, code: InputErrorCode) => InputError;

/** Size and first bytes, or a refusal saying why the file cannot be read. */
function openHead(file: string, refuse: Refuse): Buffer {
  let size: number;
  let first: Buffer;
  try {
    const st = statSync(file);
    if (!st.isFile()) throw refuse('not a file', 'unreadable');
    size = st.size;
    first = head(file, 12);
  } catch (err) {
    if (err instanceof InputError) throw err;
    throw refuse(`cannot be read (${unreadable(file, err)})`, 'unreadable');
  }
  if (size === 0) throw refuse('empty file', 'empty');
  return first;
}

interface ScanTry {
  done?: Probed;
  reason?: string;
  formatChange: boolean;
}

async function tryScan(file: string, opts: ProbeOptions): Promise<ScanTry> {
  const outcome = await scanMp3(file, { signal: opts.signal, fullWalk: opts.countEveryFrame });
  if (outcome.ok)
    return {
      done: {
        result: fromScan(file, outcome.scan),
        scan: outcome.scan,
        hasCover: outcome.scan.hasPicture,
        chapters: outcome.scan.chapters,
      },
      formatChange: false,
    };
  return { reason: outcome.reason, formatChange: outcome.formatChange === true };
}

async function ffprobe(
  runner: Runner,
  tools: Tools,
  file: string,
  signal: AbortSignal | undefined,
  refuse: Refuse,
): Promise<FfprobeJson> {
  const probed = await runner({
    bin: tools.ffprobe,
    args: [
      '-v',
      'error',
      '-print_format',
      'json',
      '-show_format',
      '-show_streams',
      '-show_chapters',
      fileArg(file),
    ],
    signal,
  });
  let json: FfprobeJson | undefined;
  try {
    if (probed.code === 0) json = JSON.parse(probed.stdout) as FfprobeJson;
  } catch {
    // handled below, after the tool itself is checked
  }
  if (json) return json;
  await assertToolWorks(runner, tools.ffprobe, 'ffprobe');
  throw refuse(
    probed.code === 0
      ? 'not audio (ffprobe gave no readable answer)'
      : `not audio (${toolReason(probed.stderrTail)})`,
    'not-audio',
  );
}

/** The head must really decode: ffprobe alone accepts some junk (random bytes named .mp3). */
async function checkDecodes(runner: Runner, tools: Tools, file: string, opts: ProbeOptions, refuse: Refuse) {
  const decoded = await decode(runner, tools.ffmpeg, file, opts.signal, HEAD_SECONDS);
  if (decoded.code !== 0) await assertToolWorks(runner, tools.ffmpeg, 'ffmpeg');
  if (decoded.code !== 0) throw refuse(`no decodable audio (${toolReason(decoded.stderrTail)})`, 'not-audio');
  if (decoded.seconds <= 0) throw refuse('no decodable audio (zero duration)', 'not-audio');
  return decoded;
}

function lowerTags(json: FfprobeJson, stream: FfprobeStream): Record<string, string> {
  const tags: Record<string, string> = {};
  for (const [k, v] of Object.entries({ ...json.format?.tags, ...stream.tags }))
    tags[k.toLowerCase()] = String(v);
  return tags;
}

/** The AAC packet index of an MP4 input, when its packets could be copied as they are. */
function aacTrack(file: string, format: string, codec: string): Mp4Audio | undefined {
  if (format !== 'm4a' || codec !== 'aac') return undefined;
  try {
    return readMp4Audio(file);
  } catch (err) {
    if (err instanceof Mp4Error) return undefined; // decoded and re-encoded instead
    throw err;
  }
}

/** A FLAC input read in-process, as ffprobe would describe it; undefined to ask ffprobe. */
function fromFlacHead(file: string, first: Buffer): Probed | undefined {
  if (first.toString('latin1', 0, 4) !== 'fLaC') return undefined;
  const flac = readFlacHead(file);
  if (!flac) return undefined;
  const result: ProbeResult = {
    path: file,
    format: 'flac',
    codec: 'flac',
    sampleRate: flac.sampleRate,
    channels: flac.channels,
    durationSeconds: flac.samples / flac.sampleRate,
    bitRate: flac.bitRate,
    tags: Object.fromEntries(Object.entries(flac.tags).map(([k, v]) => [k.toLowerCase(), v])),
    bitsPerSample: flac.bitsPerSample,
  };
  return { result, hasCover: flac.hasPicture, samples: flac.samples };
}

/**
 * An AAC-in-MP4 input read in-process from its index, as ffprobe would describe it (a book of
 * hundreds of M4A files costs no process per file); undefined to ask ffprobe: not MP4, AAC this
 * engine cannot copy, or something in the index only ffprobe reads right (mp4/meta.ts).
 */
function fromMp4Head(file: string, first: Buffer): Probed | undefined {
  if (first.length < 8 || first.toString('latin1', 4, 8) !== 'ftyp') return undefined;
  let read: ReturnType<typeof readMp4>;
  try {
    read = readMp4(file);
  } catch {
    return undefined; // damaged or unusual: ffprobe says what it is, or why not
  }
  const meta = mp4Meta(read.moov);
  const { audio } = read;
  if (!meta || !(audio.sampleRate > 0) || !(audio.channels > 0) || audio.audioSamples <= 0) return undefined;
  const durationSeconds = audio.audioSamples / audio.sampleRate;
  const bytes = audio.sizes.reduce((a, b) => a + b, 0);
  const result: ProbeResult = {
    path: file,
    format: 'm4a',
    codec: 'aac',
    sampleRate: audio.sampleRate,
    channels: audio.channels,
    durationSeconds,
    bitRate: Math.round((bytes * 8) / durationSeconds),
    tags: meta.tags,
  };
  const starts = meta.chapters.filter((c) => Number.isFinite(c.start) && c.start >= 0);
  const chapters = starts
    .sort((a, b) => a.start - b.start)
    .map((c, i) => ({ start: c.start, end: starts[i + 1]?.start ?? durationSeconds, title: c.title.trim() }));
  return { result, mp4: audio, hasCover: meta.hasCover, chapters };
}

/** probeFile, keeping the frame scan (MP3) or packet index (AAC in MP4) that a copy needs. */
/**
 * The sample rates an input may have: below 1 kHz is no audio anyone recorded (a WAV whose header
 * says 1 Hz makes hours of "audio" of a few bytes, and resampling it to the output's rate makes
 * ffmpeg's memory grow without end); above 768 kHz is past what any format or converter writes.
 */
export const INPUT_RATE_RANGE = { min: 1000, max: 768_000 } as const;

/** Probe an input, refusing one whose sample rate no real file has (every caller, every path). */
export async function probeInput(file: string, opts: ProbeOptions = {}): Promise<Probed> {
  const probed = await probeAnyRate(file, opts);
  const rate = probed.result.sampleRate;
  if (rate < INPUT_RATE_RANGE.min || rate > INPUT_RATE_RANGE.max)
    throw new InputError(
      opts.displayName ?? file,
      'bad-rate',
      `not audio (a sample rate of ${rate} Hz; real audio has ${INPUT_RATE_RANGE.min} to ${INPUT_RATE_RANGE.max} Hz)`,
      opts.index ?? -1,
    );
  return probed;
}

async function probeAnyRate(file: string, opts: ProbeOptions): Promise<Probed> {
  const name = opts.displayName ?? file;
  const refuse: Refuse = (reason, code) => new InputError(name, code, reason, opts.index ?? -1);
  const first = openHead(file, refuse);

  // MP3 frames of more than one format (files joined with cat): ffmpeg decodes them all, so the
  // input is re-encoded; the decode errors at each joint are no reason to refuse it.
  let scanned: ScanTry = { formatChange: false };
  if (looksLikeMp3(file, first)) {
    scanned = await tryScan(file, opts);
    if (scanned.done) return scanned.done;
  }

  const own = fromFlacHead(file, first) ?? fromMp4Head(file, first);
  if (own && opts.headDecode === false) return own;
  const tools = opts.tools ?? (await locateTools());
  const runner = opts.runner ?? spawnRunner;
  if (own) {
    await checkDecodes(runner, tools, file, opts, refuse);
    return own;
  }
  const json = await ffprobe(runner, tools, file, opts.signal, refuse);
  // An MP3 without the usual first bytes (junk or padding ahead of the frames): the parser may
  // still read it, and then its frames can be copied rather than re-encoded.
  if (scanned.reason === undefined && (json.format?.format_name ?? '').split(',').includes('mp3')) {
    scanned = await tryScan(file, opts);
    if (scanned.done) return scanned.done;
  }
  const stream = json.streams?.find((s) => s.codec_type === 'audio');
  if (!stream) throw refuse('not audio (no audio stream)', 'not-audio');
  const sampleRate = Number(stream.sample_rate);
  const channels = Number(stream.channels);
  if (!(sampleRate > 0) || !(channels > 0))
    throw refuse('not audio (no sample rate or channel count)', 'not-audio');

  const format = formatFromProbe(json.format?.format_name ?? '', stream.codec_name ?? '');
  // A FLAC's stated length is only a claim (0 or any other number): its frames say what it decodes
  // to, or else the decode measures it.
  const samples = format === 'flac' ? readFlacSamples(file) : undefined;
  // An Ogg Vorbis stream plays what its last granule position says, whatever ffmpeg decodes,
  // from the granule of its first sample (0 but for a stream cut from a longer one).
  const lastGranule = stream.codec_name === 'vorbis' ? oggVorbisSamples(file) : undefined;
  const firstGranule = Math.max(0, Math.round(Number(stream.start_time ?? 0) * sampleRate) || 0);
  const granules = lastGranule !== undefined ? lastGranule - firstGranule : undefined;
  let duration =
    format === 'flac'
      ? (samples ?? 0) / sampleRate
      : granules && granules > 0
        ? granules / sampleRate
        : Number(stream.duration ?? json.format?.duration);
  const skipDecode = opts.headDecode === false && duration > 0 && stream.codec_name !== 'mp3';
  const decoded = skipDecode
    ? { seconds: duration, stderrTail: '' }
    : await checkDecodes(runner, tools, file, opts, refuse);
  if (stream.codec_name === 'mp3' && scanned.reason && !scanned.formatChange && decoded.stderrTail.trim()) {
    throw refuse(`not a readable MP3 (${scanned.reason})`, 'bad-mp3');
  }
  if (!(duration > 0)) {
    // No stated length (some raw streams, a FLAC whose frames do not tell it): the decode
    // measures it, whole if the head was not.
    duration =
      decoded.seconds < HEAD_SECONDS
        ? decoded.seconds
        : (await decode(runner, tools.ffmpeg, file, opts.signal)).seconds;
  }
  if (!(duration > 0)) throw refuse('zero duration', 'not-audio');

  const codec = stream.codec_name ?? 'unknown';
  const bits = Number(stream.bits_per_raw_sample) || Number(stream.bits_per_sample) || undefined;
  const result: ProbeResult = {
    path: file,
    format,
    codec,
    sampleRate,
    channels,
    durationSeconds: duration,
    bitRate: Number(stream.bit_rate ?? json.format?.bit_rate) || 0,
    tags: lowerTags(json, stream),
    ...(bits ? { bitsPerSample: bits } : {}),
  };
  const hasCover = (json.streams ?? []).some(
    (s) => s.codec_type === 'video' && s.disposition?.attached_pic === 1,
  );
  return {
    result,
    mp4: aacTrack(file, format, codec),
    hasCover,
    chapters: chaptersOf(json),
    ...(samples ? { samples } : {}),
  };
}
