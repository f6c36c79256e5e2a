// SQLite records (snake_case columns, JSON text for lists) to the Store's rows and back. The
// mapping itself is shared with PostgreSQL (records.ts); here the JSON text is decoded first.
import type { JobRow, ResultRow } from '../store.js';
import * as shared from '../records.js';

export type { ItemRecord, SessionRecord } from '../records.js';
export { toItem, toSession } from '../records.js';

/** A job as SQLite stores it: the item ids and the options as JSON text. */
export type JobRecord = Omit<shared.JobRecord, 'item_ids' | 'options'> & { item_ids: string; options: string };
/** A result as SQLite stores it: the sources and the chapters as JSON text. */
export type ResultRecord = Omit<shared.ResultRecord, 'sources' | 'chapters' | 'details'> & {
  sources: string;
  chapters: string;
  details: string;
};

export const toJob = (r: JobRecord): JobRow =>
  shared.toJob({ ...r, item_ids: JSON.parse(r.item_ids) as string[], options: JSON.parse(r.options) as Record<string, unknown> });

/** Named parameters for a job insert or update: lists and objects as JSON text. */
export function jobParams(job: Partial<JobRow>): Record<string, unknown> {
  return {
    ...job,
    itemIds: job.itemIds && JSON.stringify(job.itemIds),
    options: job.options && JSON.stringify(job.options),
  };
}

/** The columns updateJob may set, by JobRow field. */
export const JOB_COLUMNS: Record<string, string> = {
  status: 'status',
  error: 'error',
  errorCode: 'error_code',
  errorFile: 'error_file',
  resultId: 'result_id',
  createdAt: 'created_at',
  startedAt: 'started_at',
  finishedAt: 'finished_at',
  requestId: 'request_id',
  options: 'options',
  percent: 'percent',
  statusText: 'status_text',
  attempts: 'attempts',
};

export const toResult = (r: ResultRecord): ResultRow =>
  shared.toResult({
    ...r,
    sources: JSON.parse(r.sources) as string[],
    chapters: JSON.parse(r.chapters) as ResultRow['chapters'],
    details: JSON.parse(r.details) as Record<string, string>,
  });

export function resultParams(result: ResultRow): Record<string, unknown> {
  return {
    ...result,
    sources: JSON.stringify(result.sources),
    chapters: JSON.stringify(result.chapters),
    details: JSON.stringify(result.details),
  };
}
