// SQLite records (snake_case columns, JSON text for lists) to the Store's rows and back.
import type { ItemRow, JobRow, JobStatus, ResultRow, SessionRow } from './store.js';

export interface SessionRecord {
  sid: string;
  csrf_token: string;
  created_at: number;
  last_seen_at: number;
}
export interface ItemRecord {
  id: string;
  sid: string;
  appid: string;
  newfilename: string;
  format: string;
  filename: string;
  size: number;
  duration: number;
  codec: string;
  sample_rate: number;
  channels: number;
  created_at: number;
}
export interface JobRecord {
  id: string;
  sid: string;
  appid: string;
  item_ids: string;
  status: JobStatus;
  error: string | null;
  result_id: string | null;
  created_at: number;
  started_at: number | null;
  finished_at: number | null;
  request_id: string | null;
  options: string;
  percent: number | null;
  status_text: string | null;
  attempts: number;
}
export interface ResultRecord {
  id: string;
  sid: string;
  job_id: string;
  file: string;
  download_name: string;
  format: string;
  duration: number;
  size: number;
  sources: string;
  chapters: string;
  created_at: number;
}

export const toSession = (r: SessionRecord): SessionRow => ({
  sid: r.sid,
  csrfToken: r.csrf_token,
  createdAt: r.created_at,
  lastSeenAt: r.last_seen_at,
});

export const toItem = (r: ItemRecord): ItemRow => ({
  id: r.id,
  sid: r.sid,
  appid: r.appid,
  newfilename: r.newfilename,
  format: r.format,
  filename: r.filename,
  size: r.size,
  duration: r.duration,
  codec: r.codec,
  sampleRate: r.sample_rate,
  channels: r.channels,
  createdAt: r.created_at,
});

export const toJob = (r: JobRecord): JobRow => ({
  id: r.id,
  sid: r.sid,
  appid: r.appid,
  itemIds: JSON.parse(r.item_ids) as string[],
  status: r.status,
  error: r.error,
  resultId: r.result_id,
  createdAt: r.created_at,
  startedAt: r.started_at,
  finishedAt: r.finished_at,
  requestId: r.request_id,
  options: JSON.parse(r.options) as Record<string, unknown>,
  percent: r.percent,
  statusText: r.status_text,
  attempts: r.attempts,
});

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

export const toResult = (r: ResultRecord): ResultRow => ({
  id: r.id,
  sid: r.sid,
  jobId: r.job_id,
  file: r.file,
  downloadName: r.download_name,
  format: r.format,
  duration: r.duration,
  size: r.size,
  sources: JSON.parse(r.sources) as string[],
  chapters: JSON.parse(r.chapters) as ResultRow['chapters'],
  createdAt: r.created_at,
});

export function resultParams(result: ResultRow): Record<string, unknown> {
  return { ...result, sources: JSON.stringify(result.sources), chapters: JSON.stringify(result.chapters) };
}
