// One merge, from a recorded job to a stored result. Everything in flight lives in the job's own
// temp folder (removed whatever happens); the result file is named after the job id so that a
// restart can tell a finished-but-unrecorded file from a recorded one.
import { copyFile, mkdir, rename, rm, unlink } from 'node:fs/promises';
import path from 'node:path';
import { AbortError, type MergeOptions, type MergeReport, type Tools } from '../../engine/index.js';
import type { Storage } from '../files/storage.js';
import type { ItemRow, JobRow, ResultRow, Store } from '../data/store.js';
import { downloadName, MISSING_MESSAGE } from './job-messages.js';

export type MergeFn = (inputs: string[], output: string, opts: MergeOptions) => Promise<MergeReport>;

export interface MergeJobDeps {
  store: Store;
  storage: Storage;
  tools: Tools;
  merge: MergeFn;
  now: () => Date;
  /** Parallel transcodes inside one merge. */
  engineConcurrency: number;
}

/** A failure already worded for a person; not an engine error. */
export class JobFailure extends Error {
  override name = 'JobFailure';
}

export function jobTempDir(storage: Pick<Storage, 'tmpDir'>, jobId: string): string {
  return path.join(storage.tmpDir, `job-${jobId}`);
}

export const resultFileName = (jobId: string) => `${jobId}.mp3`;

/** The job's items in merge order, duplicates kept; throws when one is gone. */
export function orderedItems(store: Store, job: JobRow): ItemRow[] {
  const owned = new Map(store.itemsOwnedBy(job.sid, [...new Set(job.itemIds)]).map((i) => [i.id, i]));
  return job.itemIds.map((id) => {
    const item = owned.get(id);
    if (!item) throw new JobFailure(MISSING_MESSAGE);
    return item;
  });
}

async function moveFile(from: string, to: string): Promise<void> {
  try {
    await rename(from, to);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EXDEV') throw err;
    await copyFile(from, to);
    await unlink(from);
  }
}

export async function runMergeJob(
  job: JobRow,
  items: ItemRow[],
  deps: MergeJobDeps,
  run: { onProgress: (percent: number) => void; signal: AbortSignal },
): Promise<ResultRow> {
  const work = jobTempDir(deps.storage, job.id);
  const names = items.map((i) => i.filename);
  try {
    await mkdir(work, { recursive: true });
    if (run.signal.aborted) throw new AbortError();
    const output = path.join(work, 'merged.mp3');
    const report = await deps.merge(
      items.map((i) => deps.storage.uploadPath(i)),
      output,
      {
        onProgress: run.onProgress,
        signal: run.signal,
        tmpDir: work,
        displayNames: names,
        tools: deps.tools,
        concurrency: deps.engineConcurrency,
      },
    );
    const dir = deps.storage.resultsDir(job.sid);
    await mkdir(dir, { recursive: true });
    const file = resultFileName(job.id);
    const finalPath = path.join(dir, file);
    await moveFile(output, finalPath);
    const at = deps.now();
    const result: ResultRow = {
      id: job.id,
      sid: job.sid,
      jobId: job.id,
      file,
      downloadName: downloadName(at),
      duration: report.durationSeconds,
      size: report.bytes,
      sources: names,
      createdAt: at.getTime(),
    };
    try {
      deps.store.addResult(result);
    } catch (err) {
      await rm(finalPath, { force: true });
      throw err;
    }
    return result;
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}
