// The one table of what can go wrong, by code: the HTTP status it answers with and the message a
// person reads. The engine's codes (every EngineError's) are here too, so a merge that fails for
// a full disk says so, with its own status, wherever it is told; an input's code also has the
// sentence naming the file. A new code is one more entry in one of the groups below.
import { DISK_FULL_ERRNOS, type EngineErrorCode, type InputErrorCode } from '../engine/index.js';

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
  badSpan: { status: 400, message: 'The kept span does not fit the file' },
  badChapterTitle: {
    status: 400,
    message:
      'A chapter title is one line of at most 500 characters, without control or bidirectional control characters',
  },
  tooLarge: { status: 413, message: 'The file is too large' },
  badCover: {
    status: 400,
    message: 'The cover must be a JPEG or PNG image of at most 10 MB and 4096 x 4096 pixels',
  },
  choicesTooLarge: { status: 413, message: 'The choices are more than 16,384 characters' },
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
  endNotRecorded: {
    status: 503,
    message:
      'The merge has ended, but the server could not record how; reload the page in a moment to see it',
  },
  itemGone: {
    status: 422,
    message: 'Could not merge: a file in the list was deleted before the merge started',
  },
} as const satisfies Record<string, ErrorEntry>;

/** A code whose message names a file: `named` is the sentence for a person, given the file's name. */
interface InputEntry extends ErrorEntry {
  named: (name: string) => string;
}

/** Input codes answer 422; `message` is for when no file can be named. */
const INPUT_ERRORS = {
  empty: { status: 422, message: 'A file is empty', named: (name) => `${name} is empty` },
  unreadable: { status: 422, message: 'A file cannot be read', named: (name) => `${name} cannot be read` },
  'not-audio': {
    status: 422,
    message: 'A file is not usable audio',
    named: (name) => `${name} is not usable audio`,
  },
  'bad-rate': {
    status: 422,
    message: 'A file claims a sample rate no real audio has',
    named: (name) => `${name} claims a sample rate no real audio has (below 1,000 or above 768,000 Hz)`,
  },
  'bad-mp3': {
    status: 422,
    message: 'An MP3 file is damaged',
    named: (name) => `${name} is a damaged MP3 file`,
  },
  'free-format': {
    status: 422,
    message: 'An MP3 file uses a free-format bit rate, which cannot be joined',
    named: (name) => `${name} uses a free-format MP3 bit rate, which cannot be joined`,
  },
  'format-change': {
    status: 422,
    message: 'An MP3 file changes format part-way and cannot be joined',
    named: (name) => `${name} changes its MP3 format part-way and cannot be joined`,
  },
  'bad-mp4': {
    status: 422,
    message: 'An MP4 file is damaged',
    named: (name) => `${name} is a damaged MP4 file`,
  },
  'reencode-failed': {
    status: 422,
    message: 'A file could not be re-encoded',
    named: (name) => `${name} could not be re-encoded`,
  },
  'measure-failed': {
    status: 422,
    message: 'The loudness of a file could not be measured',
    named: (name) => `${name} could not be measured for loudness`,
  },
  'not-image': {
    status: 422,
    message: 'The cover is not a JPEG or PNG image',
    named: (name) => `${name} is not a JPEG or PNG image`,
  },
  'same-as-output': {
    status: 422,
    message: 'A file is also the output',
    named: (name) => `${name} is also the output`,
  },
} as const satisfies Record<InputErrorCode, InputEntry>;

/** The engine's codes about the machine or the job rather than an input. */
const ENGINE_ERRORS = {
  'output-unwritable': { status: 500, message: 'The server could not write the merged file' },
  'disk-full': { status: 507, message: "The server's disk is full" },
  'tool-missing': { status: 500, message: 'The server cannot run its audio tools' },
  'bad-trim': {
    status: 400,
    message: "A file's kept span does not fit the file",
    named: (name: string) => `the kept span of ${name} does not fit the file`,
  },
  cancelled: { status: 409, message: 'The merge was cancelled' },
  'chapter-past-end': { status: 400, message: 'A chapter starts past the end of the merged file' },
  'too-many-chapters': { status: 400, message: 'There are more chapters than the format holds' },
} as const satisfies Record<Exclude<EngineErrorCode, InputErrorCode>, ErrorEntry & Partial<InputEntry>>;

/** Why the server refuses to start (a request never meets them; the table keeps every code in one place). */
const START_ERRORS = {
  'redis-policy': {
    status: 503,
    message: 'The merge queue is not set up safely; the server will not start until it is',
  },
  'database-damaged': {
    status: 503,
    message: "The server's database is damaged; the server will not start until it is restored",
  },
} as const satisfies Record<string, ErrorEntry>;

export const ERRORS = {
  ...REQUEST_ERRORS,
  ...JOB_ERRORS,
  ...INPUT_ERRORS,
  ...ENGINE_ERRORS,
  ...START_ERRORS,
} as const;

export type ErrorCode = keyof typeof ERRORS;

export const isErrorCode = (code: unknown): code is ErrorCode =>
  typeof code === 'string' && Object.hasOwn(ERRORS, code);

/** The sentence a person reads about an input that cannot be used, naming it: chosen by code alone. */
export const inputSentence = (code: InputErrorCode, name: string): string => INPUT_ERRORS[code].named(name);

/** The sentence about a trim that does not fit its input, naming the input. */
export const trimSentence = (name: string): string => ENGINE_ERRORS['bad-trim'].named(name);

/** The file system's and SQLite's codes for a full disk (or a spent quota), and the engine's. */
const DISK_FULL_CODES = new Set([...DISK_FULL_ERRNOS, 'SQLITE_FULL', 'disk-full']);

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
