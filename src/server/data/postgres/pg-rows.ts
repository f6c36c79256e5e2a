// Rows as PostgreSQL returns them, and their conversion to the Store's rows. BIGINT columns come
// back as numbers (see PG_TYPES): milliseconds and byte counts stay far below 2^53.
import pg from 'pg';

export const PG_TYPES = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    if (oid === pg.types.builtins.INT8) return (v: string) => Number(v);
    return pg.types.getTypeParser(oid, format as 'text');
  },
} as pg.CustomTypesConfig;

export type { ItemRecord, JobRecord, ResultRecord, SessionRecord } from '../records.js';
export { toItem, toJob, toResult, toSession } from '../records.js';

/** updateJob's patchable fields and their columns; JSON ones are sent as text. */
export const JOB_COLUMNS: Record<string, { column: string; json?: boolean }> = {
  status: { column: 'status' },
  error: { column: 'error' },
  errorCode: { column: 'error_code' },
  errorFile: { column: 'error_file' },
  resultId: { column: 'result_id' },
  requestId: { column: 'request_id' },
  options: { column: 'options', json: true },
  percent: { column: 'percent' },
  statusText: { column: 'status_text' },
  attempts: { column: 'attempts' },
  createdAt: { column: 'created_at' },
  startedAt: { column: 'started_at' },
  finishedAt: { column: 'finished_at' },
};
