// The one table of what can go wrong, by code: the HTTP status it answers with and the message a
// person reads. The engine's codes (InputError, OutputError, ToolError, AbortError) are here
// too, so a merge that fails for a full disk says so, with its own status, wherever it is told.
import type { EngineErrorCode } from '../engine/index.js';

interface ErrorEntry {
  status: number;
  message: string;
}

const REQUEST_ERRORS = {
  badRequest: { status: 400, message: 'The request is not valid' },
  csrf: { status: 403, message: 'The request has no valid X-CSRF-TOKEN header' },
  noSession: { status: 403, message: 'No session: load the page first' },
  foreignItem: { status: 403, message: 'An item does not belong to this session' },
  foreignFile: { status: 403, message: 'That file does not belong to this session' },
  foreignChannel: { status: 403, message: 'That channel does not belong to this session' },
  notFound: { status: 404, message: 'Not found' },
  noMerge: { status: 404, message: 'No merge of this session is waiting or running' },
  itemInMerge: {
    status: 409,
    message: 'That file is in a merge under way; remove it when the merge has ended',
  },
  tooLarge: { status: 413, message: 'The file is too large' },
  bodyTooLarge: { status: 413, message: 'The request is too large' },
  unsupportedMediaType: { status: 415, message: 'The request body must be JSON or multipart/form-data' },
  rangeNotSatisfiable: { status: 416, message: 'Range not satisfiable' },
  tusRefused: { status: 400, message: 'The resumable upload request was refused' },
  notReady: { status: 503, message: 'The server is not ready' },
  tooManyFiles: { status: 409, message: 'Too many files in this session' },
  noItems: { status: 400, message: 'There is nothing to merge' },
  rateLimited: { status: 429, message: 'Too many requests; wait a moment' },
  unavailable: { status: 503, message: 'The server is shutting down; try again shortly' },
  internal: { status: 500, message: 'Something went wrong on the server' },
} as const satisfies Record<string, ErrorEntry>;

/** How a merge job can end without a result, besides the engine's own codes. */
const JOB_ERRORS = {
  mergeFailed: { status: 500, message: 'The merge failed on the server; please try again' },
  mergeStopped: {
    status: 503,
    message: 'The server is shutting down and stopped this merge; please press make again shortly',
  },
  interrupted: {
    status: 503,
    message: 'The server restarted while this merge was running; please press make again',
  },
  'merge-too-long': {
    status: 413,
    message: 'The merge is too long: its files last longer in all than this server merges at once',
  },
  'too-many-merges': {
    status: 429,
    message: 'This session already has 3 merges waiting or running; wait for one to end',
  },
  itemGone: {
    status: 422,
    message: 'Could not merge: a file in the list was deleted before the merge started',
  },
} as const satisfies Record<string, ErrorEntry>;

/** Input codes answer 422; the message a person reads then names the file (see job-messages.ts). */
const ENGINE_ERRORS = {
  empty: { status: 422, message: 'The file is empty' },
  unreadable: { status: 422, message: 'The file cannot be read' },
  'not-audio': { status: 422, message: 'The file is not usable audio' },
  'bad-mp3': { status: 422, message: 'The MP3 file is damaged' },
  'free-format': { status: 422, message: 'The MP3 file uses a free-format bit rate, which cannot be joined' },
  'reencode-failed': { status: 422, message: 'The file could not be re-encoded' },
  'same-as-output': { status: 422, message: 'The file is also the output' },
  'output-unwritable': { status: 500, message: 'The server could not write the merged file' },
  'disk-full': { status: 507, message: "The server's disk is full" },
  'tool-missing': { status: 500, message: 'The server cannot run its audio tools' },
  cancelled: { status: 409, message: 'The merge was cancelled' },
} as const satisfies Record<EngineErrorCode, ErrorEntry>;

export const ERRORS = { ...REQUEST_ERRORS, ...JOB_ERRORS, ...ENGINE_ERRORS } as const;

export type ErrorCode = keyof typeof ERRORS;

export const isErrorCode = (code: unknown): code is ErrorCode =>
  typeof code === 'string' && Object.hasOwn(ERRORS, code);

/** The file system's and SQLite's codes for a full disk (or a spent quota), and the engine's. */
const DISK_FULL_CODES = new Set(['ENOSPC', 'EDQUOT', 'SQLITE_FULL', 'disk-full']);

/** A full disk, known by its code anywhere along the `cause` chain (wrappers keep what they wrap). */
export function isDiskFull(err: unknown): boolean {
  for (let e = err, depth = 0; e && depth < 8; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && DISK_FULL_CODES.has(code)) return true;
  }
  return false;
}

/** The code of any error the server meets: its own code, the engine's, or a full disk's. */
export function errorCodeOf(err: unknown): ErrorCode | undefined {
  if (isDiskFull(err)) return 'disk-full';
  const code = (err as { code?: unknown } | null)?.code;
  // Node's own codes (ENOENT, FST_...) are not ours: only codes this table knows count.
  return isErrorCode(code) ? code : undefined;
}
