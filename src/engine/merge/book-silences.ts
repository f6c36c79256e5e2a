// Chapters found in silences, for a merge: each input decoded once into an envelope (a few at a
// time), then, once the route knows where each input starts, the envelopes laid on the book's
// timeline (kept spans, gains, gaps and fades as they play) and the chapters placed in its silences.
import type { Tools } from '../types.js';
import type { Runner } from '../ffmpeg/runner.js';
import type { Probed } from '../inputs/probe.js';
import { decodeEnvelope } from '../inputs/envelope.js';
import { runPool } from '../io/pool.js';
import type { SoundPlan } from '../plan/sound-plan.js';
import type { KeepRange } from '../plan/trim-silence.js';
import { DECODER_DELAY } from '../plan/fade-splice.js';
import type { Chapter } from '../plan/chapters.js';
import {
  bookEnvelope,
  chaptersAtSilences,
  PAUSE_MIN_SECONDS,
  silenceRuns,
  type Envelope,
  type PlacedEnvelope,
} from '../plan/silence-chapters.js';
import { CHAPTER_DEFAULTS, type ChapterOptions } from '../../shared/chapter-options.js';

export interface EnvelopeDecodes {
  inputs: readonly string[];
  names: readonly string[];
  probed: readonly Probed[];
  /** Per input, its kept span (a trim): the decode stops at its end. */
  trims: ReadonlyArray<KeepRange | undefined>;
  tools: Tools;
  runner?: Runner;
  signal: AbortSignal;
  abort: () => void;
  concurrency: number;
  /** `fraction` (0..1) of input `i`'s decode is done (for the progress). */
  onProgress?: (i: number, fraction: number) => void;
}

/** Every input's envelope, in input order, `concurrency` decodes at a time. */
export async function decodeEnvelopes(d: EnvelopeDecodes): Promise<Envelope[]> {
  const all = d.inputs.map((_, i) => i);
  const done = await runPool(
    all,
    d.concurrency,
    async (i) => {
      const envelope = await decodeEnvelope(d.inputs[i], {
        tools: d.tools,
        runner: d.runner,
        signal: d.signal,
        channels: d.probed[i].result.channels,
        sampleRate: d.probed[i].result.sampleRate,
        durationSeconds: d.probed[i].result.durationSeconds,
        untilSeconds: d.trims[i]?.end,
        displayName: d.names[i],
        onFraction: (f) => d.onProgress?.(i, f),
      });
      d.onProgress?.(i, 1);
      return envelope;
    },
    d.abort,
  );
  return all.map((i) => done.get(i)!);
}

/** Where input `i`'s kept audio starts in its own seconds (a trim, --trim-silence's span or frames). */
function keptFrom(
  i: number,
  probed: Probed,
  trim: KeepRange | undefined,
  sound: SoundPlan | undefined,
): number {
  const s = sound?.inputs[i];
  if (s?.keep) return s.keep.start;
  const scan = probed.scan;
  if (s?.keepFrames && scan)
    return Math.max(0, (s.keepFrames.first * scan.samplesPerFrame - DECODER_DELAY) / scan.sampleRate);
  return trim?.start ?? 0;
}

export interface SilenceChapterContext {
  envelopes: Envelope[];
  probed: readonly Probed[];
  trims: ReadonlyArray<KeepRange | undefined>;
  sound: SoundPlan | undefined;
  options: ChapterOptions;
  /** Each input's chapter title, and the chapters the inputs give by themselves (for `both`). */
  titles: string[];
  fileChapters: (starts: number[], total: number) => Chapter[];
  limit: number;
}

/** Whether the chapter options need the inputs' silences. */
export function findsSilences(o: ChapterOptions): boolean {
  return o.chaptersAt === 'silences' || o.chaptersAt === 'both' || o.chapterMax !== undefined;
}

/** The chapters at the silences of the book whose inputs start at `starts` and which lasts `total`. */
export function silenceChapters(c: SilenceChapterContext, starts: number[], total: number): Chapter[] {
  const pieces: PlacedEnvelope[] = c.envelopes.map((envelope, i) => {
    const from = keptFrom(i, c.probed[i], c.trims[i], c.sound);
    const t = c.trims[i];
    const length =
      c.sound?.inputs[i].durationSeconds ?? (t ? t.end - t.start : c.probed[i].result.durationSeconds);
    return {
      envelope,
      from,
      to: from + length,
      at: starts[i],
      gainDb: c.sound?.loudness?.find((l) => l.input === i)?.gainDb,
    };
  });
  const amps = bookEnvelope(pieces, total);
  const o = c.options;
  const db = o.silenceDb ?? CHAPTER_DEFAULTS.silenceDb;
  const finding = o.chaptersAt === 'silences' || o.chaptersAt === 'both';
  // With chapters at the files, only --chapter-max asks for silences: the files' chapters are split.
  return chaptersAtSilences({
    mode: o.chaptersAt === 'silences' ? 'silences' : 'both',
    silences: finding ? silenceRuns(amps, o.silenceMin ?? CHAPTER_DEFAULTS.silenceMin, db, total) : [],
    pauses: o.chapterMax !== undefined ? silenceRuns(amps, PAUSE_MIN_SECONDS, db, total) : [],
    inputs: starts.map((start, i) => ({ start, title: c.titles[i] })),
    fileChapters: o.chaptersAt === 'silences' ? [] : c.fileChapters(starts, total),
    total,
    min: o.chapterMin,
    max: o.chapterMax,
    limit: c.limit,
  });
}
