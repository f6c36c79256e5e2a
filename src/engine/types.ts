// The engine's public shapes. The server and the CLI program against these only.
import type { Chapter, ChapterTitleSource } from './plan/chapters.js';
import type { OutputFormat } from './plan/formats.js';
import type { LoudnessEntry } from './plan/sound-plan.js';
import type { SoundOptions } from '../shared/sound-options.js';
import type { Tools } from './ffmpeg/tools.js';
import type { TrimRequest, TrimSpan } from '../shared/trim-span.js';

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
  /** Present when the file was read by the in-process MP3 frame parser. */
  mp3?: {
    /** 1, 2 or 2.5 */
    mpegVersion: number;
    layer: number;
    frames: number;
    audioBytes: number;
    vbr: boolean;
    samplesPerFrame: number;
  };
}

export interface MergeOptions extends SoundOptions {
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
  /** Chapter titles from the inputs' title tags or their file names; by default tags when every input has a distinct one. */
  chapterTitles?: ChapterTitleSource;
  /** Output tags; each defaults to the first input that has it (the title then to the first file's name). */
  title?: string;
  artist?: string;
  album?: string;
  /** A JPEG or PNG file for the cover; defaults to the first input's embedded picture. */
  cover?: string;
  /** Whole-number percentage 0..100, never decreasing; 100 only when the output is complete. */
  onProgress?: (percent: number) => void;
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
  /** Lines for a person about what the sound options could not do as asked (shortened fades, limited gains). */
  notes?: string[];
}
