// Pure: chapters found in silences. Each input's decode is folded into an envelope (the largest
// absolute sample of every 10 ms); the envelopes are laid on the book's timeline where the inputs
// play, silences are the runs of bins below a level, and chapters are placed inside them, thinned
// (--chapter-min), split where they run long (--chapter-max) and titled.
import type { Silence } from '../ffmpeg/silence-log.js';
import type { Chapter } from './chapters.js';

/** An envelope: per bin of `binSeconds`, the largest absolute sample of any channel, 0..65535 for 0..1. */
export interface Envelope {
  binSeconds: number;
  peaks: Uint16Array;
}

/** The book timeline's bins: fine enough for a 0.1 s silence, coarse enough for a 100-hour book. */
export const BOOK_BIN_SECONDS = 0.01;
/** A found chapter starts this long before the sound that ends its silence (at most; half a short one). */
export const LEAD_SECONDS = 0.5;
/** The silences --chapter-max splits a long chapter in: pauses between sentences. */
export const PAUSE_MIN_SECONDS = 0.3;
/** Nothing is placed closer than this to a chapter's ends. */
const EDGE = 0.05;

/** One input's envelope on the book's timeline: its seconds `from`..`to` play from `at`, with a gain. */
export interface PlacedEnvelope {
  envelope: Envelope;
  from: number;
  to: number;
  at: number;
  gainDb?: number;
}

/**
 * The book's envelope per BOOK_BIN_SECONDS, 0..65535 for 0..1 (two bytes a bin: 100 hours are 72
 * MB): each output bin the loudest input bin that overlaps it (so a bin is silent only when all it
 * covers is), gaps silent, overlapping inputs (crossfades) the louder of the two.
 */
export function bookEnvelope(
  pieces: readonly PlacedEnvelope[],
  total: number,
  bin = BOOK_BIN_SECONDS,
): Uint16Array {
  const out = new Uint16Array(Math.max(0, Math.ceil(total / bin - 1e-9)));
  for (const p of pieces) {
    const { binSeconds: ib, peaks } = p.envelope;
    const scale = 10 ** ((p.gainDb ?? 0) / 20);
    const first = Math.max(0, Math.floor(p.from / ib));
    const last = Math.min(peaks.length, Math.ceil(p.to / ib - 1e-9));
    for (let k = first; k < last; k++) {
      const s = p.at + Math.max(k * ib, p.from) - p.from;
      const e = p.at + Math.min((k + 1) * ib, p.to) - p.from;
      // Above full scale only loudness is told, never silence: clamped.
      const amp = Math.min(65535, Math.round(peaks[k] * scale));
      const j0 = Math.max(0, Math.floor(s / bin + 1e-9));
      const j1 = Math.min(out.length, Math.ceil(e / bin - 1e-9));
      for (let j = j0; j < j1; j++) if (amp > out[j]) out[j] = amp;
    }
  }
  return out;
}

/** The runs of bins below `db` dBFS lasting at least `minSeconds`, in seconds, clipped to `total`. */
export function silenceRuns(
  amps: Uint16Array,
  minSeconds: number,
  db: number,
  total: number,
  bin = BOOK_BIN_SECONDS,
): Silence[] {
  const level = 65535 * 10 ** (db / 20);
  const runs: Silence[] = [];
  let open = -1;
  const close = (j: number) => {
    const start = open * bin;
    const end = Math.min(total, j * bin);
    if (end - start >= minSeconds - 1e-6) runs.push({ start: round6(start), end: round6(end) });
    open = -1;
  };
  for (let j = 0; j < amps.length; j++) {
    if (amps[j] < level) {
      if (open < 0) open = j;
    } else if (open >= 0) close(j);
  }
  if (open >= 0) close(amps.length);
  return runs;
}

/** Where a chapter found in a silence starts: LEAD_SECONDS before the sound, or mid-way in a shorter one. */
export function placeInSilence(s: Silence): number {
  return round6(s.end - Math.min(LEAD_SECONDS, (s.end - s.start) / 2));
}

export interface SilenceChapterJob {
  mode: 'silences' | 'both';
  /** The book's silences of at least --silence-min, and its pauses (at least PAUSE_MIN_SECONDS). */
  silences: readonly Silence[];
  pauses: readonly Silence[];
  /** Where each input starts in the book, and its chapter title. */
  inputs: ReadonlyArray<{ start: number; title: string }>;
  /** With `both`: the chapters the inputs give (one each, or their own). */
  fileChapters: readonly Chapter[];
  total: number;
  /** --chapter-min and --chapter-max, seconds. */
  min?: number;
  max?: number;
  /** The format's chapter limit: beyond it, the chapters found in the shortest silences go. */
  limit: number;
}

/** A chapter start before titling: a title of its own (an input's), and the silence it was found in. */
interface Mark {
  start: number;
  title?: string;
  /** Found in a silence (or a split): --chapter-min may drop it; its silence's length ranks it. */
  found: boolean;
  silence: number;
}

/**
 * The chapters: one at the book's start (the first input's), one in each silence that sound ends
 * (with `both`, the inputs' own too, a silence holding an input's start giving none of its own);
 * those found less than `min` after the one before dropped; any longer than `max` split in pauses;
 * titled `Chapter N` by place, but one starting where an input starts, which keeps that input's title.
 */
export function chaptersAtSilences(job: SilenceChapterJob): Chapter[] {
  const found = foundMarks(job);
  const base: Mark[] =
    job.mode === 'both'
      ? job.fileChapters.map((c) => ({ start: c.start, title: c.title, found: false, silence: Infinity }))
      : [{ start: 0, title: job.inputs[0]?.title, found: false, silence: Infinity }];
  const kept = job.mode === 'both' ? found.filter((m) => m.title === undefined) : found;
  let marks = thin(
    [...base, ...kept].sort((a, b) => a.start - b.start),
    job.min ?? 0,
  );
  if (job.max !== undefined) marks = splitLong(marks, job.pauses, job.max, job.total);
  marks = withinLimit(marks, job.limit);
  return marks.map((m, k) => ({
    title: m.title ?? `Chapter ${k + 1}`,
    start: round6(m.start),
    end: round6(k + 1 < marks.length ? marks[k + 1].start : job.total),
  }));
}

/**
 * A mark in each silence that starts after the book does and that sound ends. An input starting in
 * the silence's last second (its sound ends it) gives the mark its start and title.
 */
function foundMarks(job: SilenceChapterJob): Mark[] {
  return job.silences
    .filter((s) => s.start > EDGE && s.end < job.total - EDGE)
    .map((s) => {
      const input = job.inputs.findLast((p) => p.start >= s.start - 0.001 && p.start <= s.end + 0.001);
      const silence = s.end - s.start;
      if (input && input.start >= s.end - 1 && input.start > EDGE)
        return { start: Math.min(input.start, s.end), title: input.title, found: true, silence };
      return { start: placeInSilence(s), title: input?.title, found: true, silence };
    });
}

/** Drops each found mark that starts less than `min` after the mark kept before it. */
function thin(marks: Mark[], min: number): Mark[] {
  const kept: Mark[] = [];
  for (const m of marks) {
    const prev = kept.at(-1);
    if (prev && (m.start - prev.start < EDGE || (m.found && m.start - prev.start < min))) continue;
    kept.push(m);
  }
  return kept;
}

/** Every chapter longer than `max` split in the best pause, again until none is (at `max` where none is). */
function splitLong(marks: Mark[], pauses: readonly Silence[], max: number, total: number): Mark[] {
  const out: Mark[] = [];
  marks.forEach((m, k) => {
    const end = k + 1 < marks.length ? marks[k + 1].start : total;
    out.push(m, ...splitSpan(m.start, end, pauses, max));
  });
  return out;
}

/** The marks that split `a`..`b` into chapters of at most `max`. */
function splitSpan(a: number, b: number, pauses: readonly Silence[], max: number): Mark[] {
  if (b - a <= max + 1e-6) return [];
  const at = splitPoint(a, b, pauses);
  const mark = at
    ? { start: at.start, found: true, silence: at.silence }
    : { start: a + max, found: true, silence: 0 };
  return [...splitSpan(a, mark.start, pauses, max), mark, ...splitSpan(mark.start, b, pauses, max)];
}

/**
 * The pause to split `a`..`b` in: the longest of those in its middle half (the nearest the middle
 * among equals), else the nearest the middle; none when no pause lies inside.
 */
export function splitPoint(
  a: number,
  b: number,
  pauses: readonly Silence[],
): { start: number; silence: number } | undefined {
  const mid = (a + b) / 2;
  const inside = pauses
    .map((p) => ({ start: placeInSilence(p), silence: p.end - p.start }))
    .filter((p) => p.start > a + EDGE && p.start < b - EDGE);
  if (inside.length === 0) return undefined;
  const quarter = (b - a) / 4;
  const middle = inside.filter((p) => Math.abs(p.start - mid) <= quarter);
  const pool = middle.length > 0 ? middle : inside;
  return pool.reduce((best, p) => {
    const longer = middle.length > 0 ? p.silence - best.silence : 0;
    if (longer > 0.005) return p;
    if (longer < -0.005) return best;
    return Math.abs(p.start - mid) < Math.abs(best.start - mid) ? p : best;
  });
}

/** At most `limit` marks: beyond it, the found marks of the shortest silences go (the first mark stays). */
function withinLimit(marks: Mark[], limit: number): Mark[] {
  if (marks.length <= limit) return marks;
  const droppable = marks
    .map((m, k) => ({ m, k }))
    .filter(({ m, k }) => k > 0 && m.found)
    .sort((x, y) => x.m.silence - y.m.silence || y.k - x.k);
  const gone = new Set(droppable.slice(0, marks.length - limit).map(({ k }) => k));
  return marks.filter((_, k) => !gone.has(k)).slice(0, limit);
}

const round6 = (x: number) => Math.round(x * 1e6) / 1e6;
