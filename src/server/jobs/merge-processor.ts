// The merge processor: one job's data in, one stored result out. It reads the items from the
// store and their files from storage itself, so the data it is given stays plain JSON. All
// that is in flight lives in the job's own scratch folder (removed whatever happens); the result
// file is named after the job id, so a restart can tell a finished-but-unrecorded file apart.
import { randomBytes } from 'node:crypto';
import { mkdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import {
  AbortError,
  COVER_LIMITS,
  imageShape,
  InputError,
  readAtMost,
  TrimError,
} from '../../engine/index.js';
import type { MergeOptions, MergeReport, Tools, TrimRequest } from '../../engine/index.js';
import { systemClock, type Clock } from '../../shared/clock.js';
import { OUTPUT_FORMATS } from '../../shared/output-formats.js';
import type { ItemRow, ResultRow, Store } from '../data/store.js';
import { coverRef, resultRef, uploadRef, type FileStorage } from '../files/storage.js';
import { DiskFullError, estimateMergeBytes, type DiskBudget } from '../files/disk-budget.js';
import { inputFailure } from './job-errors.js';
import {
  describedDownloadName,
  diskFullMessage,
  inputFailureMessage,
  refusedName,
  trimFailureMessage,
} from './job-messages.js';
import { engineOptions, type MergeOptionsData } from './merge-options.js';
import type { MergeJobData, Processor } from './queue.js';

export type MergeFn = (inputs: string[], output: string, opts: MergeOptions) => Promise<MergeReport>;

export interface MergeProcessorDeps {
  store: Store;
  files: FileStorage;
  tools: Tools;
  /** The engine's mergeFiles unless a test injects its own. */
  merge?: MergeFn;
  clock?: Clock;
  /** Parallel transcodes inside one merge. */
  engineConcurrency: number;
  /** The output's rate and channels at most (MAX_SAMPLE_RATE, MAX_CHANNELS). */
  outputCaps?: Pick<MergeOptions, 'maxSampleRate' | 'maxChannels'>;
  /** The disk the scratch folder is on: a merge reserves what it will write there before it starts. */
  disk?: DiskBudget;
  /** With a bucket, inputs are copied into scratch before a merge. */
  copiesInputs?: boolean;
  /**
   * Each run gets its own scratch folder and result file name (a merge may run twice, even at
   * once on two workers when one lost touch): the first run to record its result wins; the
   * other deletes its file and reports that result.
   */
  freshPerRun?: boolean;
}

/** The server's caps on what a merge writes. */
export const outputCapsOf = (c: { maxSampleRate: number; maxChannels: number }) => ({
  maxSampleRate: c.maxSampleRate,
  maxChannels: c.maxChannels,
});

/** Merges share the cores: with `workers` merges at once, each may run this many transcodes. */
export const engineConcurrencyFor = (workers: number) =>
  Math.max(1, Math.floor(os.availableParallelism() / Math.max(1, workers)));

export const jobScratchName = (jobId: string) => `job-${jobId}`;
export const resultFileName = (jobId: string, format = 'mp3') => `${jobId}.${format}`;
/** The result's own copy of its cover, beside its file (a name no result file can take). */
export const resultCoverName = (jobId: string, mime: string) =>
  `${jobId}-cover.${mime === 'image/png' ? 'png' : 'jpg'}`;
/** Every name a run of `jobId` (without a per-run suffix) may have stored: its file in any format, its cover. */
export const resultFileNames = (jobId: string): string[] => [
  ...OUTPUT_FORMATS.map((f) => resultFileName(jobId, f)),
  ...['image/jpeg', 'image/png'].map((mime) => resultCoverName(jobId, mime)),
];

/**
 * Remove what runs of a job stored in its session's results that its result row does not name:
 * a run that died between storing its file and cover and recording them left them there (each
 * run of a scaled merge stores under a name of its own). With no row, everything of the job goes.
 * Called once the job's end is recorded: a run that stores later finds the row taken and removes
 * its own.
 */
export async function removeUnrecordedRuns(
  store: Pick<Store, 'getResult'>,
  files: FileStorage,
  job: Pick<MergeJobData, 'sid' | 'jobId'>,
): Promise<void> {
  const recorded = await store.getResult(job.sid, job.jobId);
  const keep = new Set([recorded?.file, recorded?.cover]);
  for (const file of await files.storedNames('results', job.sid, `${job.jobId}-`))
    if (!keep.has(file)) await files.remove(resultRef({ sid: job.sid, file }));
}

/** removeUnrecordedRuns where there is storage to clean, a failure logged: the job's end stands. */
export async function forgetDeadRuns(
  deps: {
    store: Pick<Store, 'getResult'>;
    files?: FileStorage;
    log: { warn(obj: object, msg: string): void };
  },
  job: Pick<MergeJobData, 'sid' | 'jobId'>,
): Promise<void> {
  if (!deps.files) return;
  await removeUnrecordedRuns(deps.store, deps.files, job).catch((err: unknown) =>
    deps.log.warn({ err, job: job.jobId }, "could not remove a dead run's stored files"),
  );
}

/** The job's items in merge order, duplicates kept; a JobFailure when one is gone. */
export async function orderedItems(
  store: Store,
  data: Pick<MergeJobData, 'sid' | 'itemIds'>,
): Promise<ItemRow[]> {
  const owned = new Map(
    (await store.itemsOwnedBy(data.sid, [...new Set(data.itemIds)])).map((i) => [i.id, i]),
  );
  return data.itemIds.map((id) => {
    const item = owned.get(id);
    if (!item) throw inputFailure('itemGone');
    return item;
  });
}

/** Each item's saved span, as the engine's trims (an item used twice is trimmed alike both times). */
export function savedTrims(items: readonly ItemRow[]): TrimRequest[] {
  return items.flatMap((item, input) =>
    item.start == null && item.end == null
      ? []
      : [
          {
            input,
            ...(item.start != null ? { start: item.start } : {}),
            ...(item.end != null ? { end: item.end } : {}),
          },
        ],
  );
}

/** What the engine made: the output file, its report, and a copy of the cover it embedded (a local path). */
interface Made {
  output: string;
  report: MergeReport;
  cover: string | undefined;
}

export function createMergeProcessor(deps: MergeProcessorDeps): Processor {
  const { store, files } = deps;
  // Loaded on first use, so the server (and its tests) do not pull in the whole engine up front.
  const merge: MergeFn =
    deps.merge ??
    (async (inputs, output, opts) =>
      (await import('../../engine/index.js')).mergeFiles(inputs, output, opts));
  const clock = deps.clock ?? systemClock;

  /** The session's cover as a local file for the engine (which checks it again), if it has one. */
  async function sessionCover(sid: string, work: string): Promise<string | undefined> {
    const ref = coverRef(sid);
    return (await files.stat(ref)) ? files.localPath(ref, work) : undefined;
  }

  async function runEngine(
    data: MergeJobData,
    items: ItemRow[],
    work: string,
    progress: (p: number) => void,
    signal: AbortSignal,
  ) {
    const names = items.map((i) => i.filename);
    const inputs = await Promise.all(items.map((i) => files.localPath(uploadRef(i), work)));
    const options = data.options as MergeOptionsData;
    const chosen = engineOptions(options);
    const output = path.join(work, `merged.${chosen.format}`);
    const cover = options.cover === false ? undefined : await sessionCover(data.sid, work);
    const coverCopy = path.join(work, 'result-cover.img');
    try {
      const report = await merge(inputs, output, {
        ...chosen,
        cover,
        coverCopy,
        inputChapterTitles: items.map((i) => i.chapterTitle ?? null),
        onProgress: progress,
        signal,
        tmpDir: work,
        displayNames: names,
        trims: savedTrims(items),
        tools: deps.tools,
        concurrency: deps.engineConcurrency,
        ...deps.outputCaps,
      });
      return { output, report, cover: report.cover ? coverCopy : undefined };
    } catch (err) {
      // The same inputs would fail again: worded for a person, and never retried.
      if (err instanceof InputError)
        throw inputFailure(err.code, inputFailureMessage(err, names), refusedName(err, names));
      if (err instanceof TrimError)
        throw inputFailure(err.code, trimFailureMessage(err, names), names[err.input]);
      throw err;
    }
  }

  /**
   * What the download is called: the title when given, else the first chapter's, plus the date.
   * Two merges of one session may end in the same minute, on two workers: the store makes the
   * name unique in the session when it records the result ("name (2).ext").
   */
  function nameFor(data: MergeJobData, report: MergeReport, at: Date): string {
    const title = (data.options as MergeOptionsData).title ?? report.chapters[0]?.title;
    return Object.keys(data.options).length > 0
      ? describedDownloadName(title, at, report.format)
      : describedDownloadName(undefined, at, report.format);
  }

  /**
   * Move the output into storage, then record it; a result is listed only once its file is in
   * place. The scratch folder is not needed once the object is complete: it is removed while the
   * row is written (unlinking ~30 MB took 2-12 ms under load), not before the answer.
   */
  async function storeResult(
    data: MergeJobData,
    items: ItemRow[],
    made: Made,
    scratch: { run: string; clear: () => Promise<void> },
  ): Promise<ResultRow> {
    const { output, report } = made;
    const at = new Date(clock.now());
    const cover = await keptCover(made.cover, `${data.jobId}${scratch.run}`);
    const result: ResultRow = {
      id: data.jobId,
      sid: data.sid,
      jobId: data.jobId,
      file: resultFileName(`${data.jobId}${scratch.run}`, report.format),
      downloadName: nameFor(data, report, at),
      format: report.format,
      duration: report.durationSeconds,
      size: report.bytes,
      sources: items.map((i) => i.filename),
      chapters: report.chapters,
      details: { ...report.tags },
      cover: cover?.name ?? null,
      createdAt: at.getTime(),
    };
    const coverStored = cover && resultRef({ sid: data.sid, file: cover.name });
    const removeCover = async () => {
      if (coverStored) await files.remove(coverStored);
    };
    if (coverStored) await files.put(coverStored, cover.local);
    // A file that cannot be stored takes its cover with it: no object is left that no row names.
    await files.put(resultRef(result), output).catch(async (err: unknown) => {
      await removeCover();
      throw err;
    });
    const cleared = scratch.clear();
    let recorded: ResultRow | undefined;
    try {
      recorded = await store.addResult(result);
      return recorded;
    } catch (err) {
      await files.remove(resultRef(result));
      await removeCover();
      const first = deps.freshPerRun ? await store.resultById(data.jobId) : undefined;
      if (first?.jobId !== data.jobId) throw err;
      recorded = first;
      return first;
    } finally {
      // An earlier run of this merge that died after storing left its objects: they go once a
      // row says which are the result's (a failed store or the queue's end handles the rest).
      if (deps.freshPerRun && recorded) await removeUnrecordedRuns(store, files, data).catch(() => undefined);
      await cleared;
    }
  }

  /**
   * The engine's copy of the cover it embedded (the session's or an input's), to be stored with the
   * result: the result's card keeps showing it after the session's cover changes or goes.
   * Undefined when none was embedded, or when the copy is missing or no image (an injected merge).
   */
  async function keptCover(
    copy: string | undefined,
    base: string,
  ): Promise<{ name: string; local: string } | undefined> {
    if (!copy) return undefined;
    const data = await readAtMost(copy, COVER_LIMITS.bytes).catch(() => undefined);
    const shape = data && imageShape(data);
    return shape ? { name: resultCoverName(base, shape.mime), local: copy } : undefined;
  }

  /** Room on the disk for everything the merge writes, or a refusal that says so (never retried). */
  async function reserveDisk(data: MergeJobData, items: ItemRow[], signal: AbortSignal) {
    if (!deps.disk) return () => {};
    const options = data.options as MergeOptionsData;
    const bytes = estimateMergeBytes({
      inputs: items,
      format: options.format ?? 'mp3',
      mixed: (options.crossfade ?? 0) > 0 || options.gapless === true,
      gapSeconds: options.gap ?? 0,
      maxSampleRate: deps.outputCaps?.maxSampleRate ?? Number.POSITIVE_INFINITY,
      maxChannels: deps.outputCaps?.maxChannels ?? Number.POSITIVE_INFINITY,
      copiesInputs: deps.copiesInputs ?? false,
    });
    try {
      return await deps.disk.reserve(bytes, signal);
    } catch (err) {
      if (!(err instanceof DiskFullError)) throw err;
      throw inputFailure('disk-full', diskFullMessage(bytes));
    }
  }

  return async (data, progress, signal) => {
    const items = await orderedItems(store, data);
    const release = await reserveDisk(data, items, signal);
    const run = deps.freshPerRun ? `-${randomBytes(4).toString('hex')}` : '';
    const work = files.scratchPath(`${jobScratchName(data.jobId)}${run}`);
    const clearScratch = () => rm(work, { recursive: true, force: true }).finally(release);
    try {
      await mkdir(work, { recursive: true });
      if (signal.aborted) throw new AbortError();
      const made = await runEngine(data, items, work, (p) => progress(p), signal);
      const result = await storeResult(data, items, made, { run, clear: clearScratch });
      // The queue's end-of-merge log says which fast paths fell back (nothing more is stored).
      const fallbacks = made.report.fallbacks ?? [];
      return { resultId: result.id, durationSeconds: result.duration, inputs: items.length, fallbacks };
    } finally {
      // Already gone after a stored result (a no-op then); a failed or cancelled run's is removed here.
      await clearScratch();
    }
  };
}
