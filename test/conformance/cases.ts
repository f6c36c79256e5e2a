// The matrix's cases (which corpus files, in which order, into which format, with which options),
// what each is expected to hold, and the tolerance table every length is checked against.
import os from 'node:os';
import type { OutputFormat } from '../../src/shared/output-formats.js';
import { AAC_PRIMING, MIN_CHUNK_FRAMES } from '../../src/engine/plan/chunks.js';
import { KINDS, kindByName, type CorpusFile, type Family, type Recipe, type Voice } from './corpus.js';

export const FORMATS: OutputFormat[] = ['mp3', 'm4b', 'm4a', 'opus', 'ogg', 'flac', 'wav'];

/** The engine's paths a case goes through (the `paths` column of the table below). */
export type Path =
  | 'mp3-copy' // MP3 frames joined as they are
  | 'mp3-encode' // a run of other inputs through one LAME timeline, in one chunk
  | 'mp3-encode-chunked' // ... in parallel chunks stitched at frame seams
  | 'aac-copy' // AAC packets copied into the MP4
  | 'aac-encode' // a run of other inputs through one AAC timeline, in one chunk
  | 'aac-encode-chunked' // ... in parallel chunks
  | 'direct-feed' // chunk encoders decode the inputs themselves (every input states its length: FLAC)
  | 'pcm-parts' // inputs decoded to PCM parts first, chunk encoders read those
  | 'pcm-route' // Opus, Vorbis, FLAC, WAV: decoded and encoded once
  | 'resample' // an input at another rate than the output's
  | 'trim' // --trim: an exact cut (a copied MP3 or AAC spliced at its cuts)
  | 'gap' // --gap: silence between inputs (silent frames in copied streams)
  | 'crossfade' // --crossfade: overlaps mixed (the mixed route, or fades spliced into copies)
  | 'loudness' // --loudness: gains (in MP3 frames when copied), true-peak limiter
  | 'chapters-file' // --chapters FILE
  | 'input-chapters' // an input's own chapters moved to where it starts
  | 'long'; // an hour: many chunks, 64-bit sample counts, memory

export interface Case {
  id: string;
  inputs: Recipe[];
  format: OutputFormat;
  trims?: { input: number; start: number; end: number }[];
  gap?: number;
  crossfade?: number;
  loudness?: number;
  /** --chapters FILE: these lines. */
  chaptersFile?: { start: number; title: string }[];
  /** In the smaller run on the npm fallback ffmpeg (CONFORMANCE=engine). */
  engine?: boolean;
  /** Paths this case is meant to cover; the test checks the chunking ones against the arithmetic. */
  paths: Path[];
}

/**
 * How far an output's decoded length may stray from the inputs' spans (+gaps, -crossfades), and
 * why. In samples at the output's rate.
 *
 * - end: at the output's end. MP3: 0, the output's LAME tag states its delay and padding to the
 *   sample (one frame more where a stream made of copies ends in a partial frame). AAC: one frame
 *   (1024): the edit list that trims the last frame's padding is ignored by some decoders, ffmpeg's
 *   among them. Opus, Vorbis: 0, the last page's granule position trims to the sample. FLAC, WAV: 0.
 * - copiedJoin: at a join between two copied lossy inputs, what the first's padding and the second's
 *   delay leave inside the stream (frames are copied whole, never re-cut): MP3, LAME's delay (576)
 *   and the decoder's (529) plus up to a frame less one of padding; AAC, one frame of priming plus
 *   up to a frame less one of padding.
 * - perInput: one sample per input for the rounding of a resampled length.
 */
export function lengthTolerance(
  format: OutputFormat,
  rate: number,
): { end: number; copiedJoin: number; perInput: number } {
  const mp3Frame = rate >= 32000 ? 1152 : 576;
  switch (format) {
    case 'mp3':
      return { end: mp3Frame, copiedJoin: 576 + 529 + mp3Frame - 1, perInput: 1 };
    case 'm4a':
    case 'm4b':
      return { end: 1024, copiedJoin: AAC_PRIMING + 1023, perInput: 1 };
    default:
      return { end: 0, copiedJoin: 0, perInput: 1 };
  }
}

/**
 * How far the report's `durationSeconds` may stray from the decoded length: a millisecond, but for
 * AAC one frame (the decoder may not trim the last frame's padding, see above).
 */
export const reportTolerance = (format: OutputFormat, rate: number) =>
  format === 'm4a' || format === 'm4b' ? 1024 / rate : 0.001;

/** A chapter starts where its input's audio starts, within 30 ms (every chapter, however many). */
export const CHAPTER_TOLERANCE = 0.03;
/** Loudness: each input within 1 LU of the target, and no true peak above -1 dBTP. */
export const LOUDNESS_TOLERANCE = 1;
export const TRUE_PEAK_LIMIT = -1;
/**
 * The true peak measured on a lossy decode: the codec's quantisation noise rides on the peaks of
 * the tones (measured here up to ~0.2 dB at the default bit rates); a limiter that held -1 dBTP
 * before the encoder keeps the decode within this of it.
 */
export const LOSSY_PEAK_SLACK = 0.3;
/**
 * A click: the sharpest edge within 30 ms of a join against the sharpest of the two inputs' own
 * steady stretches. A join of two whole inputs is silent in the source (4 ms fades), so its edges
 * stay under the tones' own; a jump of a few percent of full scale is several times them.
 */
export const CLICK_RATIO = 2;
/**
 * Inside an input's steady stretch, no 10 ms block's sharpest edge may pass this many times the
 * blocks' median: a steady tone's blocks are alike, a click (a chunk seam, a lost packet) is not.
 */
export const STEADY_RATIO = 3;
/** Floor of the click measure (lossy decodes of silence carry small noise). */
export const CLICK_FLOOR = 0.004;
/** A crossfade keeps constant power: the summed relative power of the two tones through it. */
export const CROSSFADE_DIP_DB = 1.5;

/** Kinds that stand for their family when every kind meets every format. */
const REPRESENTATIVE: Record<Family, string> = {
  mp3: 'lame-cbr128',
  aac: 'aac-44k',
  alac: 'alac-44k',
  flac: 'flac-16-44k',
  wav: 'wav-16-44k',
  vorbis: 'oggenc-q3-44k',
  opus: 'opusenc-96k',
};

/**
 * Lengths: a pair of 14 s inputs makes a 28 s timeline, past where encodes are chunked at 44.1 and
 * 48 kHz (2 x 512 frames: 23.8 s of AAC, 26.7 s of MP3); 6 s pairs stay in one chunk. FLAC at 14 s,
 * every kind: the files people merge into books.
 */
const pairSeconds = (kind: string) =>
  Object.values(REPRESENTATIVE).includes(kind) || kindByName(kind).family === 'flac' ? 14 : 6;

const pair = (kind: string, seconds = pairSeconds(kind)): Recipe[] => [
  { kind, voice: 'A', seconds },
  { kind, voice: 'B', seconds },
];

const copies = (family: Family, format: OutputFormat) =>
  (family === 'mp3' && format === 'mp3') || (family === 'aac' && (format === 'm4a' || format === 'm4b'));

function pathsOf(kinds: string[], format: OutputFormat): Path[] {
  const families = kinds.map((k) => kindByName(k).family);
  const out = new Set<Path>();
  for (const f of families) {
    if (copies(f, format)) out.add(format === 'mp3' ? 'mp3-copy' : 'aac-copy');
    else if (format === 'mp3') out.add('mp3-encode');
    else if (format === 'm4a' || format === 'm4b') out.add('aac-encode');
    else out.add('pcm-route');
  }
  return [...out];
}

/** Every kind alone, twice (A then B: one join), into every format (representatives) or three. */
function aloneCases(): Case[] {
  const out: Case[] = [];
  KINDS.forEach((kind, i) => {
    const rep = REPRESENTATIVE[kind.family] === kind.name;
    const pcm: OutputFormat[] = ['opus', 'ogg', 'flac', 'wav'];
    const formats = rep ? FORMATS : (['mp3', i % 2 ? 'm4a' : 'm4b', pcm[i % pcm.length]] as OutputFormat[]);
    for (const format of formats)
      out.push({
        id: `${kind.name} x2 -> ${format}`,
        inputs: pair(kind.name),
        format,
        paths: pathsOf([kind.name], format),
        engine: rep && (format === 'm4b' || format === 'mp3' || format === 'opus'),
      });
  });
  return out;
}

/** Every kind in one merge, short (0.5 to 3 s), voices alternating, into every format. */
function mixedInputs(): Recipe[] {
  const voices: Voice[] = ['A', 'B', 'C'];
  return KINDS.map((k, i) => ({ kind: k.name, voice: voices[i % 3], seconds: [0.5, 1.25, 2, 3][i % 4] }));
}

function mixedCases(): Case[] {
  const inputs = mixedInputs();
  return FORMATS.map((format) => ({
    id: `every kind mixed -> ${format}`,
    inputs,
    format,
    paths: [
      ...pathsOf(
        inputs.map((r) => r.kind),
        format,
      ),
      'resample',
      'input-chapters',
    ],
    engine: format === 'm4b' || format === 'flac',
  }));
}

const trio = (): Recipe[] => [
  { kind: 'lame-cbr128', voice: 'A', seconds: 14 },
  { kind: 'flac-16-44k', voice: 'B', seconds: 14 },
  { kind: 'aac-44k', voice: 'A', seconds: 14 },
];

function optionCases(): Case[] {
  const out: Case[] = [];
  for (const format of FORMATS)
    out.push({
      id: `trim each input -> ${format}`,
      inputs: trio(),
      format,
      trims: [
        { input: 0, start: 2.5, end: 9.75 },
        { input: 1, start: 1, end: 8 },
        { input: 2, start: 0.5, end: 5.25 },
      ],
      paths: [...pathsOf(['lame-cbr128', 'flac-16-44k', 'aac-44k'], format), 'trim'],
      engine: format === 'mp3' || format === 'm4b',
    });
  for (const format of ['mp3', 'm4b', 'flac'] as OutputFormat[])
    out.push({
      id: `gap 1.5 s -> ${format}`,
      inputs: trio(),
      format,
      gap: 1.5,
      paths: [...pathsOf(['lame-cbr128', 'flac-16-44k', 'aac-44k'], format), 'gap'],
    });
  for (const format of ['mp3', 'm4b', 'flac', 'opus'] as OutputFormat[])
    out.push({
      id: `crossfade 1 s of FLAC -> ${format}`,
      inputs: [
        { kind: 'flac-16-44k', voice: 'A', seconds: 14 },
        { kind: 'flac-16-44k', voice: 'B', seconds: 14 },
        { kind: 'flac-16-44k', voice: 'C', seconds: 14 },
      ],
      format,
      crossfade: 1,
      paths: [
        'crossfade',
        'direct-feed',
        format === 'mp3' ? 'mp3-encode' : format === 'm4b' ? 'aac-encode' : 'pcm-route',
      ],
      engine: format === 'm4b',
    });
  out.push({
    id: 'crossfade 1 s of copied MP3s -> mp3',
    inputs: pair('lame-cbr128'),
    format: 'mp3',
    crossfade: 1,
    paths: ['crossfade', 'mp3-copy'],
  });
  // Loudness: one quiet and one loud input of each kind, so the gains go both ways; the quiet one
  // swells once to -1 dBFS, so its gain needs the true-peak limiter.
  const levels = (kind: string): Recipe[] => [
    { kind, voice: 'A', seconds: 14, levelDb: -30, burstDb: -1 },
    { kind, voice: 'B', seconds: 14, levelDb: -3 },
  ];
  for (const [kind, format] of [
    ['lame-cbr128', 'mp3'],
    ['flac-16-44k', 'm4b'],
    ['aac-44k', 'm4a'],
    ['flac-16-44k', 'flac'],
    ['oggenc-q3-44k', 'ogg'],
  ] as [string, OutputFormat][])
    out.push({
      id: `loudness -16 of ${kind} -> ${format}`,
      inputs: levels(kind),
      format,
      loudness: -16,
      paths: [...pathsOf([kind], format), 'loudness'],
      engine: format === 'm4b',
    });
  for (const format of ['mp3', 'm4b', 'opus'] as OutputFormat[])
    out.push({
      id: `chapters file -> ${format}`,
      inputs: trio(),
      format,
      chaptersFile: [
        { start: 0, title: 'Opening' },
        { start: 10, title: 'Second' },
        { start: 30.5, title: 'Third' },
      ],
      paths: [...pathsOf(['lame-cbr128', 'flac-16-44k', 'aac-44k'], format), 'chapters-file'],
    });
  return out;
}

/**
 * Real lengths: FLAC books into M4B, far over where chunking starts (many chunks, each encoder
 * decoding its stretch of the FLAC itself), an hour of it; and copied MP3 beside a chunked encode.
 */
function longCases(): Case[] {
  return [
    {
      id: 'FLAC 5 min x2 -> m4b',
      inputs: pair('flac-16-44k', 300),
      format: 'm4b',
      paths: ['aac-encode-chunked', 'direct-feed', 'long'],
      engine: true,
    },
    {
      id: 'FLAC 60 min + 14 s -> m4b',
      inputs: [
        { kind: 'flac-16-44k', voice: 'A', seconds: 3600 },
        { kind: 'flac-16-44k', voice: 'B', seconds: 14 },
      ],
      format: 'm4b',
      paths: ['aac-encode-chunked', 'direct-feed', 'long'],
    },
    {
      id: 'MP3 5 min + FLAC 5 min -> mp3',
      inputs: [
        { kind: 'lame-cbr128', voice: 'A', seconds: 300 },
        { kind: 'flac-16-44k', voice: 'B', seconds: 300 },
      ],
      format: 'mp3',
      paths: ['mp3-copy', 'mp3-encode-chunked', 'direct-feed', 'long'],
    },
  ];
}

export function allCases(): Case[] {
  return [...aloneCases(), ...mixedCases(), ...optionCases(), ...longCases()];
}

/**
 * The cases of this run: CONFORMANCE=engine keeps the smaller set for the npm fallback ffmpeg;
 * CONFORMANCE_CASE=TEXT only those whose name holds TEXT (to run one again).
 */
export function selectedCases(): Case[] {
  const only = process.env.CONFORMANCE_CASE;
  return allCases()
    .filter((c) => process.env.CONFORMANCE !== 'engine' || c.engine)
    .filter((c) => !only || c.id.includes(only));
}

// --- What a case's output is expected to hold ---------------------------------------------

/** The span each input keeps, in seconds: [lo, hi] between its source's length and its reference decode's. */
export function spanOf(c: Case, i: number, file: CorpusFile): { lo: number; hi: number } {
  const trim = c.trims?.find((t) => t.input === i);
  if (trim) return { lo: trim.end - trim.start, hi: trim.end - trim.start };
  return { lo: Math.min(file.recipe.seconds, file.seconds), hi: Math.max(file.recipe.seconds, file.seconds) };
}

/** Whether input i is copied (not decoded) into the output, by the lossless-where-it-can-be rules. */
export function isCopied(c: Case, file: CorpusFile, rate: number, channels: number): boolean {
  const family = kindByName(file.recipe.kind).family;
  return (
    copies(family, c.format) &&
    file.rate === rate &&
    file.channels === channels &&
    c.crossfade === undefined &&
    c.trims === undefined
  );
}

/**
 * Whether the engine would cut an encoded run of `seconds` at `rate` into chunks: it takes one
 * chunk per core (MP3 from PCM parts three), each at least MIN_CHUNK_FRAMES frames.
 */
export function chunked(format: OutputFormat, rate: number, seconds: number): boolean {
  const frame = format === 'mp3' ? (rate >= 32000 ? 1152 : 576) : 1024;
  return os.availableParallelism() >= 2 && Math.ceil((seconds * rate) / frame) >= 2 * MIN_CHUNK_FRAMES;
}
