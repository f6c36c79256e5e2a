// The file storage port: where uploads and results live (DATA_DIR: disk/; a bucket: s3/), and a
// local scratch area for uploads in flight and merges in progress. Routes and jobs use only
// this; a file is named by a FileRef built from database rows, never from a client's path.
import { createHash } from 'node:crypto';
import type { Readable } from 'node:stream';
import type { ItemRow, ResultRow } from '../data/store.js';

export type FileArea = 'uploads' | 'results';

export interface FileRef {
  area: FileArea;
  sid: string;
  /** The stored name with its extension: `{newfilename}.{format}` or a result's `file`. */
  name: string;
}

export interface FileInfo {
  size: number;
  modifiedAt: Date;
}

/** Inclusive byte offsets, as in an HTTP Range. */
export interface ByteRange {
  start: number;
  end: number;
}

export interface OpenedFile extends FileInfo {
  stream: Readable;
}

export interface FileStorage {
  /** Move a finished local file (an upload's temp file, a merge's output) in under `ref`; the local file is gone after. */
  put(ref: FileRef, localPath: string): Promise<void>;
  /** Size and time of a stored file, or undefined when there is none. */
  stat(ref: FileRef): Promise<FileInfo | undefined>;
  /** The file's bytes, or only `range` of them. */
  read(ref: FileRef, range?: ByteRange): Promise<Readable>;
  /**
   * The whole file's bytes with the size and time of that very file (opened once, so a file
   * replaced meanwhile cannot give one file's length and another's bytes); undefined when none.
   */
  open(ref: FileRef): Promise<OpenedFile | undefined>;
  /** A local path with the file's bytes, for the engine: the file itself on disk; in `scratchDir` a link of a local copy or a download elsewhere. */
  localPath(ref: FileRef, scratchDir: string): Promise<string>;
  /** Remove a stored file; no error when it is not there. */
  remove(ref: FileRef): Promise<void>;
  /** The names of a session's stored files in `area` that start with `prefix` (a non-empty one). */
  storedNames(area: FileArea, sid: string, prefix: string): Promise<string[]>;
  /** Remove every file of a session (uploads and results). */
  removeSession(sid: string): Promise<void>;
  /** A path in this process's local scratch area (not created), named `name`. */
  scratchPath(name: string): string;
  /** Remove what is in the scratch area whose name starts with `prefix` (everything without one). */
  clearScratch(prefix?: string): Promise<void>;
}

export const uploadRef = (item: Pick<ItemRow, 'sid' | 'newfilename' | 'format'>): FileRef => ({
  area: 'uploads',
  sid: item.sid,
  name: `${item.newfilename}.${item.format}`,
});

/** An upload's waveform peaks, beside it (a name no upload's `{newfilename}.{format}` can take). */
export const peaksRef = (item: Pick<ItemRow, 'sid' | 'newfilename'>): FileRef => ({
  area: 'uploads',
  sid: item.sid,
  name: `${item.newfilename}-peaks.bin`,
});

/** The details an upload's tags give (uploads/tag-details.ts), beside it like its peaks. */
export const tagsRef = (item: Pick<ItemRow, 'sid' | 'newfilename'>): FileRef => ({
  area: 'uploads',
  sid: item.sid,
  name: `${item.newfilename}-tags.json`,
});

export const resultRef = (result: Pick<ResultRow, 'sid' | 'file'>): FileRef => ({
  area: 'results',
  sid: result.sid,
  name: result.file,
});

/**
 * The session's cover, beside its uploads (the upload route serves only items' names, so it is
 * reached only through GET /app/merge/cover, and goes with the session).
 */
export const coverRef = (sid: string): FileRef => ({ area: 'uploads', sid, name: 'session-cover.img' });

/** The person's saved choices for one appid (any appid text becomes a safe file name). */
export const choicesRef = (sid: string, appid: string): FileRef => ({
  area: 'uploads',
  sid,
  name: `choices-${createHash('sha256').update(appid).digest('hex').slice(0, 32)}.json`,
});
