// The data layer's whole surface. Every method answers with a Promise so that a database on the
// network (PostgreSQL, postgres/) can stand behind it as well as SQLite (better-sqlite3, sqlite/).
// The contract suite (store.contract.ts) runs the same cases against every implementation.

export interface SessionRow {
  /** Public id: shown in the page, play paths and channel names. Never the cookie secret. */
  sid: string;
  csrfToken: string;
  createdAt: number;
  lastSeenAt: number;
  /**
   * PostgreSQL only: the session's items_version when this row was read. getDataJson hands it
   * back to listItems, which then checks its kept list without reading the version again.
   */
  itemsVersion?: number;
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
  /** The kept span, seconds of the decoded file; null (or absent) for the file's own start or end. */
  start?: number | null;
  end?: number | null;
  /** The chapter title a person gave the item; null (or absent) for the default. */
  chapterTitle?: string | null;
  /** The file's own title tag, read at upload; null (or absent) when it has none. */
  titleTag?: string | null;
  /**
   * How many chapters the file carries of its own, counted at upload (0: none); null (or absent)
   * for an item stored before they were counted.
   */
  chapterCount?: number | null;
}

/** What saveItem sets, all three at once (the caller merges a partial edit with the row first). */
export interface ItemEdit {
  start: number | null;
  end: number | null;
  chapterTitle: string | null;
}

export type JobStatus = 'queued' | 'running' | 'succeeded' | 'failed' | 'cancelled';

export interface JobRow {
  id: string;
  sid: string;
  appid: string;
  /** Item ids in merge order. */
  itemIds: string[];
  status: JobStatus;
  /** A message for a person when failed or cancelled. */
  error: string | null;
  /** How it ended without a result, as a code of the error table (a client words it itself). */
  errorCode: string | null;
  /** A failure about one input: the person's name of that file, which the code's sentence names. */
  errorFile: string | null;
  resultId: string | null;
  createdAt: number;
  startedAt: number | null;
  finishedAt: number | null;
  /** The client's own name for this merge, echoed in its status events. */
  requestId: string | null;
  /** The merge options as the client gave them. */
  options: Record<string, unknown>;
  /** Whole-number progress while running (100 when done); null while waiting. */
  percent: number | null;
  /** Where the merge stands, for a person ("Waiting: 1 merge ahead of yours", "Merging: 40%"). */
  statusText: string | null;
  /** How many times a worker has started it. */
  attempts: number;
}

export type JobPatch = Partial<Omit<JobRow, 'id' | 'sid' | 'appid' | 'itemIds'>>;

export interface Chapter {
  title: string;
  /** Seconds from the start of the result. */
  start: number;
  end: number;
}

export interface ResultRow {
  id: string;
  sid: string;
  jobId: string;
  /** Stored file name under the session's results folder. */
  file: string;
  /** Download name, e.g. merged-2026-11-21-1430.mp3 */
  downloadName: string;
  /** The file's extension ('mp3'). */
  format: string;
  duration: number;
  size: number;
  /** Original names of the sources, in merge order. */
  sources: string[];
  chapters: Chapter[];
  /** The book's details written into the file, by the names ffprobe reads them under (title, artist, composer...). */
  details: Record<string, string>;
  /**
   * Stored name of the result's own copy of its cover, beside its file (null: none embedded). A
   * copy, so a later change of the session's cover leaves this result as it was made.
   */
  cover: string | null;
  createdAt: number;
}

export interface Store {
  // sessions
  createSession(secretHash: string, sid: string, csrfToken: string, now: number): Promise<SessionRow>;
  sessionBySecretHash(secretHash: string): Promise<SessionRow | undefined>;
  sessionBySid(sid: string): Promise<SessionRow | undefined>;
  touchSession(sid: string, now: number): Promise<void>;
  /** Sessions whose lastSeenAt is before `before` and that have no queued or running job. */
  idleSessions(before: number): Promise<SessionRow[]>;
  /** The session and everything it owns: items, jobs, results. */
  deleteSession(sid: string): Promise<void>;

  // items
  /**
   * Record the item unless its session already holds `limit` items: one atomic step, so uploads
   * at once cannot pass the limit together. False when refused.
   */
  addItemIfUnder(item: ItemRow, limit: number): Promise<boolean>;
  /**
   * This session's items for the appid: in the order last saved with saveOrder, then the ones it
   * did not name, in upload order. The list may be shared between callers: do not change it.
   */
  listItems(sid: string, appid: string, seenVersion?: number): Promise<readonly ItemRow[]>;
  countItems(sid: string): Promise<number>;
  /** The items with these ids that belong to `sid`, in the order of `ids` (missing ones left out). */
  itemsOwnedBy(sid: string, ids: string[]): Promise<ItemRow[]>;
  /** Any session's item: the caller tells "not yours" from "not there". */
  itemById(id: string): Promise<ItemRow | undefined>;
  itemByStoredName(sid: string, newfilename: string): Promise<ItemRow | undefined>;
  /** The deleted row, or undefined when `id` is not one of this session's items. */
  deleteItem(sid: string, id: string): Promise<ItemRow | undefined>;
  /** Set the item's kept span and chapter title; false when `id` is not one of this session's items. */
  saveItem(sid: string, id: string, edit: ItemEdit): Promise<boolean>;
  /**
   * Set the item's length (its decoded one, measured again for an item stored before lengths were
   * the decoded ones); a kept end at or past it becomes the end itself (null). False when `id` is
   * not one of this session's items.
   */
  fixItemLength(sid: string, id: string, duration: number): Promise<boolean>;
  /** Remember this order for the session's items of `appid`; ids that are not those items are ignored. */
  saveOrder(sid: string, appid: string, ids: string[]): Promise<void>;

  // jobs
  addJob(job: JobRow): Promise<void>;
  /**
   * Record the job unless its session already has `limit` jobs queued or running: one atomic
   * step, so merges posted at once cannot pass the limit together. False when refused.
   */
  addJobIfUnder(job: JobRow, limit: number): Promise<boolean>;
  getJob(id: string): Promise<JobRow | undefined>;
  updateJob(id: string, patch: JobPatch): Promise<void>;
  /**
   * Apply `patch` (a job's end) only while the job is queued or running, in one step: true when
   * this call changed it, false when it had ended already (or is not there). Of processes that
   * settle one job at once, exactly one wins and tells it.
   */
  endJob(id: string, patch: JobPatch): Promise<boolean>;
  /** Oldest first. */
  jobsWithStatus(status: JobStatus): Promise<JobRow[]>;
  /** The session's most recently created job. */
  latestJob(sid: string): Promise<JobRow | undefined>;

  // results
  /**
   * Record a result and answer with the row as stored: its downloadName is unique in the session
   * (a taken one becomes "name (2).ext", "name (3).ext"...), whichever process records it.
   * Throws when a result with this id exists.
   */
  addResult(result: ResultRow): Promise<ResultRow>;
  /** Newest first. */
  listResults(sid: string): Promise<ResultRow[]>;
  getResult(sid: string, id: string): Promise<ResultRow | undefined>;
  /** Any session's result: the caller tells "not yours" from "not there". */
  resultById(id: string): Promise<ResultRow | undefined>;
  /** The deleted row, or undefined when `id` is not one of this session's results. */
  deleteResult(sid: string, id: string): Promise<ResultRow | undefined>;

  close(): Promise<void>;
}
