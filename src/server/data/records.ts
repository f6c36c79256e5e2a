// The Store's rows as both databases hold them: snake_case columns, lists and objects already
// decoded (PostgreSQL returns JSONB and arrays decoded; sqlite-rows.ts decodes its JSON text first).
import type { ItemRow, JobRow, ResultRow, SessionRow } from './store.js';

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
  trim_start?: number | null;
  trim_end?: number | null;
  chapter_title?: string | null;
  title_tag?: string | null;
  chapter_count?: number | null;
}
export interface JobRecord {
  id: string;
  sid: string;
  appid: string;
  item_ids: string[];
  status: JobRow['status'];
  error: string | null;
  error_code?: string | null;
  error_file?: string | null;
  result_id: string | null;
  request_id: string | null;
  options: Record<string, unknown>;
  percent: number | null;
  status_text: string | null;
  attempts: number;
  created_at: number;
  started_at: number | null;
  finished_at: number | null;
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
  sources: string[];
  chapters: ResultRow['chapters'];
  details?: Record<string, string> | null;
  cover?: string | null;
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
  start: r.trim_start ?? null,
  end: r.trim_end ?? null,
  chapterTitle: r.chapter_title ?? null,
  titleTag: r.title_tag ?? null,
  chapterCount: r.chapter_count ?? null,
});

export const toJob = (r: JobRecord): JobRow => ({
  id: r.id,
  sid: r.sid,
  appid: r.appid,
  itemIds: r.item_ids,
  status: r.status,
  error: r.error,
  errorCode: r.error_code ?? null,
  errorFile: r.error_file ?? null,
  resultId: r.result_id,
  requestId: r.request_id,
  options: r.options,
  percent: r.percent,
  statusText: r.status_text,
  attempts: r.attempts,
  createdAt: r.created_at,
  startedAt: r.started_at,
  finishedAt: r.finished_at,
});

export const toResult = (r: ResultRecord): ResultRow => ({
  id: r.id,
  sid: r.sid,
  jobId: r.job_id,
  file: r.file,
  downloadName: r.download_name,
  format: r.format,
  duration: r.duration,
  size: r.size,
  sources: r.sources,
  chapters: r.chapters,
  details: r.details ?? {},
  cover: r.cover ?? null,
  createdAt: r.created_at,
});
