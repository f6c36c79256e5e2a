// The engine's public shapes. The server and the CLI program against these only.
import type { Chapter, ChapterTitleSource } from './plan/chapters.js';
import type { OutputFormat } from './plan/formats.js';
import type { OnProgress } from './plan/progress.js';
import type { LoudnessEntry } from './plan/sound-plan.js';
import type { SoundOptions } from '../shared/sound-options.js';
import type { Details } from '../shared/details.js';
import type { ChapterOptions } from '../shared/chapter-options.js';
import type { WrittenTags } from './plan/tags-plan.js';
import type { Tools } from './ffmpeg/tools.js';
import type { TrimRequest, TrimSpan } from '../shared/trim-span.js';
import type { Fallback } from './plan/fallback.js';

export type { Tools };

export interface ProbeResult {
  path: string;
  /** Container/extension to store and serve the file as: mp3, wav, flac, ogg, opus, m4a, ... */
  format: string;
  /** Audio codec name as ffprobe spells it (mp3, pcm_s16le, flac, vorbis, opus, aac, ...). */
  codec: string;
  sampleRate: number;
  channels: number;
  durationSeconds: number;
  /** Bits per second (average for VBR). */
  bitRate: number;
  tags: Record<string, string>;
  /** Bits per sample of a lossless or PCM stream, when ffprobe states it. */
  bitsPerSample?: number;
  /**
   * How many chapters the file carries of its own (MP4 chapter track or chpl, ID3 CHAP, Vorbis
   * CHAPTERnnn): probeFile counts them. A merge keeps them in place of the input's one chapter.
   */
  chapterCount?: number;
  /** Present when the file was read by the in-process MP3 frame parser. */
  mp3?: {
    /** 1, 2 or 2.5 */
    mpegVersion: number;
    layer: number;
    frames: number;
    audioBytes: number;
    vbr: boolean;
    samplesPerFrame: number;
    /** Encoder delay and padding its LAME (or Lavc) tag states, in samples; absent without one. */
    gapless?: { delay: number; padding: number };
  };
}

/** A chapter of a chapters file: where it starts in the output and its title; `line` names it in messages. */
export interface ChapterMark {
  start: number;
  title: string;
  line?: number;
}

/**
 * The book's details (title, artist, albumArtist, album, narrator, genre, year, description,
 * comment): each given one is written in the format's own field; title, artist, album, album
 * artist, narrator, genre and year otherwise come from the first input that has them, and the
 * title from the album the inputs share, else the first input's title.
 */
export interface MergeOptions extends SoundOptions, Details, ChapterOptions {
  /** Output format; defaults to the output's extension, else MP3. */
  format?: OutputFormat;
  /** Bit rate of lossy encodes, kb/s; each format has its default (plan/formats.ts). */
  bitRateKbps?: number;
  /** The output's highest sample rate, Hz: inputs above it are resampled down (a server's cap). */
  maxSampleRate?: number;
  /** The output's most channels: inputs with more are mixed down (a server's cap). */
  maxChannels?: number;
  /** One chapter per input (default true); false writes none. */
  chapters?: boolean;
  /** Chapter titles: each input's title tag, else its file name ('tags', the default); 'files' forces file names. */
  chapterTitles?: ChapterTitleSource;
  /** Per input, a chapter title that wins over the rule above (null or '' for the rule's). */
  inputChapterTitles?: (string | null | undefined)[];
  /** 'keep' (default): an input's own chapters, moved to where it starts; 'flatten': one chapter per input. */
  inputChapters?: 'keep' | 'flatten';
  /** Chapters that replace all others (a chapters file), in order; a start past the end is refused. */
  chapterList?: ChapterMark[];
  /** The output's place in a set (a book in parts): written as `track` N/M. */
  track?: { number: number; of: number };
  /** A JPEG or PNG file for the cover (at most 10 MB, 4096 x 4096); defaults to the first input's embedded picture. */
  cover?: string;
  /**
   * Where to write a copy of the cover embedded (the given one or an input's), for a caller that
   * shows it beside the result; nothing is written when no cover is embedded.
   */
  coverCopy?: string;
  /** The output's channels (1 or 2) and sample rate; by default what most inputs have. */
  channels?: 1 | 2;
  sampleRate?: number;
  /**
   * Whole-number percentage 0..100, never decreasing; 100 only when the output is complete. With
   * it, where the work stands (stage, input being worked on); called again with the same
   * percentage when only that changes.
   */
  onProgress?: OnProgress;
  signal?: AbortSignal;
  /** Parallel transcodes; defaults to the number of CPU cores. */
  concurrency?: number;
  tools?: Tools;
  /** Folder for temporary files; defaults to the output's folder. */
  tmpDir?: string;
  /** Names to use in error messages instead of the paths (index-aligned with inputs). */
  displayNames?: string[];
  /**
   * Spans of inputs to keep (seconds of the decoded input, either end optional), at most one per
   * input; each cut is exact to the sample, copied MP3s staying copied but for the frames at the cuts.
   */
  trims?: TrimRequest[];
}

/** One part of a book in parts: its file, its span of the book (seconds), and its own chapters. */
export interface PartReport {
  output: string;
  start: number;
  end: number;
  durationSeconds: number;
  chapters: Chapter[];
}

export interface MergeReport {
  output: string;
  format: OutputFormat;
  durationSeconds: number;
  inputs: number;
  /** Indexes of the inputs that were re-encoded. */
  transcoded: number[];
  /** The chapters written, in seconds of the decoded output (empty with chapters off). */
  chapters: Chapter[];
  bytes: number;
  sampleRate: number;
  channels: number;
  /** With loudness matching: per input, what was measured and the gain applied. */
  loudness?: LoudnessEntry[];
  /** With trims: each trimmed input's kept span, both ends in seconds, in input order. */
  trims?: TrimSpan[];
  /** The details written, by the names ffprobe reads them under (title, artist, album_artist, composer, date, ...). */
  tags: WrittenTags;
  /** Whether a cover was embedded. */
  cover: boolean;
  /** With --split: the parts written, in order (`output` is then the name they are made from). */
  parts?: (PartReport & { bytes: number })[];
  /** Lines for a person about what the sound options could not do as asked (shortened fades, limited gains). */
  notes?: string[];
  /**
   * Each fast path that failed its check (or failed inside) and was made again the plain way:
   * its stage (`mp3-join`, `mp3-splice`, `mp3-gain`, `aac-copy`, `aac-splice`, `chunked-encode`)
   * and why. Empty when none did.
   */
  fallbacks: Fallback[];
}
