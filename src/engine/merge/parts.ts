// A book in parts (--split): the whole book merged once into a scratch file, then each part cut
// from it by a merge of that one file trimmed to the part's span. The trim's cut is exact to the
// sample and keeps copies copied (MP3 frames, AAC packets) but for the frames at the cuts, so the
// parts end to end are the book, and each part is a whole file: its chapters, the details and
// cover the book file carries, and its place in the set.
import { mkdtemp, rm } from 'node:fs/promises';
import path from 'node:path';
import type { MergeOptions, MergeReport, PartReport } from '../types.js';
import type { OnProgress, ProgressWhere } from '../plan/progress.js';
import type { Runner } from '../ffmpeg/runner.js';
import { outputError } from '../output/output-file.js';
import { TEMP_PREFIX } from '../io/leftovers.js';
import { locateTools } from '../ffmpeg/tools.js';
import { decodeEnvelope } from '../inputs/envelope.js';
import { CHAPTER_DEFAULTS } from '../../shared/chapter-options.js';
import { DETAIL_NAMES, type Details } from '../../shared/details.js';
import { partChapters, partPath, planParts, type PartSpan } from '../plan/parts.js';
import { bookEnvelope, PAUSE_MIN_SECONDS, silenceRuns } from '../plan/silence-chapters.js';
import type { Silence } from '../ffmpeg/silence-log.js';

type MergeDeps = { runner?: Runner };
type Merge = (inputs: string[], output: string, opts: MergeOptions & MergeDeps) => Promise<MergeReport>;

/** The merge of the whole book weighs this share of the progress; the parts the rest. */
const BOOK_SHARE = 0.8;

/** Merges `inputs` into parts named after `output` (book-01.m4b, ...); the report lists them. */
export async function mergeInParts(
  merge: Merge,
  inputs: string[],
  output: string,
  opts: MergeOptions & MergeDeps,
): Promise<MergeReport> {
  const split = opts.split!;
  const workDir = opts.tmpDir ?? path.dirname(path.resolve(output));
  const scratch = await mkdtemp(path.join(workDir, TEMP_PREFIX)).catch((err: unknown) => {
    throw outputError(`cannot make a temporary folder in ${workDir}`, err);
  });
  const progress = shares(opts.onProgress);
  try {
    const whole = path.join(scratch, `book${path.extname(output) || '.' + (opts.format ?? 'mp3')}`);
    const book = await merge(inputs, whole, {
      ...opts,
      split: undefined,
      coverCopy: opts.coverCopy,
      onProgress: progress(0, BOOK_SHARE),
    });
    const silences = typeof split === 'number' ? await longChapterSilences(book, whole, split, opts) : [];
    const spans = planParts(book.chapters, book.durationSeconds, split, silences);
    const parts = await writeParts(merge, { book, whole, spans, output, opts, progress });
    opts.onProgress?.(100, { stage: 'writing', file: inputs.length, files: inputs.length });
    return {
      ...book,
      output: path.resolve(output),
      bytes: parts.reduce((sum, p) => sum + p.bytes, 0),
      parts,
    };
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

/** Progress in shares: the book's merge, then each part's, never going back. */
/**
 * The whole's progress from its steps': step k of the work spans [from, from + width] of it. Where
 * the work stands is the step's own (the book's inputs), or `where` for a step that writes a part.
 */
function shares(onProgress: OnProgress | undefined) {
  let last = -1;
  let lastPlace = '';
  return (from: number, width: number, where?: ProgressWhere) =>
    onProgress &&
    ((p: number, own: ProgressWhere) => {
      const at = Math.min(99, Math.floor(100 * (from + (width * p) / 100)));
      const place = where ?? own;
      const key = `${place.stage}:${place.file}`;
      if (at < last || (at === last && key === lastPlace)) return;
      last = at;
      lastPlace = key;
      onProgress(at, place);
    });
}

/**
 * The book's silences where a part by seconds must cut a chapter longer than itself: one more
 * decode of the book, only then.
 */
async function longChapterSilences(
  book: MergeReport,
  whole: string,
  limit: number,
  opts: MergeOptions & MergeDeps,
): Promise<Silence[]> {
  const long = book.chapters.length === 0 || book.chapters.some((c) => c.end - c.start > limit);
  if (!long) return [];
  const envelope = await decodeEnvelope(whole, {
    tools: opts.tools ?? (await locateTools()),
    runner: opts.runner,
    signal: opts.signal,
    channels: book.channels,
    sampleRate: book.sampleRate,
    durationSeconds: book.durationSeconds,
  });
  const amps = bookEnvelope([{ envelope, from: 0, to: book.durationSeconds, at: 0 }], book.durationSeconds);
  return silenceRuns(
    amps,
    PAUSE_MIN_SECONDS,
    opts.silenceDb ?? CHAPTER_DEFAULTS.silenceDb,
    book.durationSeconds,
  );
}

interface PartsJob {
  book: MergeReport;
  whole: string;
  spans: PartSpan[];
  output: string;
  opts: MergeOptions & MergeDeps;
  progress: ReturnType<typeof shares>;
}

/** The details given (a description and comment are not taken from the book file, so they are passed on). */
const detailsOf = (opts: MergeOptions): Details =>
  Object.fromEntries(DETAIL_NAMES.flatMap((n) => (opts[n] !== undefined ? [[n, opts[n]]] : [])));

/** Each part in turn from the book file; on a failure the parts written so far go too. */
async function writeParts(merge: Merge, j: PartsJob): Promise<(PartReport & { bytes: number })[]> {
  const { book, spans, opts } = j;
  const done: (PartReport & { bytes: number })[] = [];
  try {
    for (const [k, span] of spans.entries()) {
      const chapters = partChapters(book.chapters, span);
      const target = partPath(j.output, k, spans.length);
      const whole = span.start <= 0 && span.end >= book.durationSeconds;
      const r = await merge([j.whole], target, {
        tools: opts.tools,
        runner: opts.runner,
        signal: opts.signal,
        concurrency: opts.concurrency,
        tmpDir: opts.tmpDir,
        format: book.format,
        bitRateKbps: opts.bitRateKbps,
        channels: book.channels === 1 || book.channels === 2 ? book.channels : undefined,
        sampleRate: book.sampleRate,
        ...detailsOf(opts),
        cover: opts.cover,
        track: { number: k + 1, of: spans.length },
        trims: whole ? undefined : [{ input: 0, start: span.start, end: span.end }],
        chapters: opts.chapters,
        chapterList:
          chapters.length > 0 ? chapters.map((c) => ({ start: c.start, title: c.title })) : undefined,
        onProgress: j.progress(
          BOOK_SHARE + ((1 - BOOK_SHARE) * k) / spans.length,
          (1 - BOOK_SHARE) / spans.length,
          { stage: 'writing', file: j.book.inputs, files: j.book.inputs },
        ),
      });
      done.push({
        output: r.output,
        start: span.start,
        end: span.end,
        durationSeconds: r.durationSeconds,
        chapters: r.chapters,
        bytes: r.bytes,
      });
    }
  } catch (err) {
    await Promise.all(done.map((p) => rm(p.output, { force: true })));
    throw err;
  }
  return done;
}
