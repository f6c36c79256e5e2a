// The data layer's whole surface. SQLite (better-sqlite3) stands behind it today; it is kept this
// narrow so another database (Postgres) can stand behind it later.

export interface SessionRow {
  /** Public id: shown in the page, play paths and channel names. Never the cookie secret. */
  sid: string;
  csrfToken: string;
  createdAt: number;
  lastSeenAt: number;
}

export interface ItemRow {
  id: string;
  sid: string;
  appid: string;
  /** Random stored name (no extension). */
  newfilename: string;
  /** Real format from the probe, used as the extension. */
  format: string;
  /** Original file name, for display only. */
  filename: string;
  size: number;
  duration: number;
  codec: string;
  sampleRate: number;
  channels: number;
  createdAt: number;
}

export type JobStatus = 'queued' | 'running' | 'succeeded' | 'failed';

export interface JobRow {
  id: string;
  sid: string;
  appid: string;
  /** Item ids in merge order. */
  itemIds: string[];
  status: JobStatus;
  /** A message for a person when failed. */
  error: string | null;
  resultId: string | null;
  createdAt: number;
  startedAt: number | null;
  finishedAt: number | null;
}

export interface ResultRow {
  id: string;
  sid: string;
  jobId: string;
  /** Stored file name under the session's results folder. */
  file: string;
  /** Download name, e.g. merged-2026-11-21-1430.mp3 */
  downloadName: string;
  duration: number;
  size: number;
  /** Original names of the sources, in merge order. */
  sources: string[];
  createdAt: number;
}

export interface Store {
  // sessions
  createSession(secretHash: string, sid: string, csrfToken: string, now: number): SessionRow;
  sessionBySecretHash(secretHash: string): SessionRow | undefined;
  sessionBySid(sid: string): SessionRow | undefined;
  touchSession(sid: string, now: number): void;
  /** Sessions whose lastSeenAt is before `before` and that have no queued or running job. */
  idleSessions(before: number): SessionRow[];
  deleteSession(sid: string): void;

  // items
  addItem(item: ItemRow): void;
  /** This session's items for the appid, in upload order. */
  listItems(sid: string, appid: string): readonly ItemRow[];
  countItems(sid: string): number;
  /** The items with these ids that belong to `sid`, in the order of `ids` (missing ones left out). */
  itemsOwnedBy(sid: string, ids: string[]): ItemRow[];
  itemByStoredName(sid: string, newfilename: string): ItemRow | undefined;

  // jobs
  addJob(job: JobRow): void;
  getJob(id: string): JobRow | undefined;
  updateJob(id: string, patch: Partial<Omit<JobRow, 'id' | 'sid' | 'appid' | 'itemIds'>>): void;
  jobsWithStatus(status: JobStatus): JobRow[];

  // results
  addResult(result: ResultRow): void;
  /** Newest first. */
  listResults(sid: string): ResultRow[];
  getResult(sid: string, id: string): ResultRow | undefined;

  close(): void;
}
