// What a person reads about a job: the queue and progress texts, failure messages (from the one
// error table, ../errors.ts), the download name.
import type { InputErrorCode } from '../../engine/index.js';
import { ERRORS, inputSentence, trimSentence } from '../errors.js';

export function waitingText(ahead: number): string {
  return `Waiting: ${ahead} merge${ahead === 1 ? '' : 's'} ahead of yours`;
}

export const QUEUED_TEXT = 'Waiting to start';
export const runningText = (percent: number) => `Merging: ${percent}%`;
export const DONE_TEXT = 'Done';

const INPUT_PREFIX = 'Could not merge: ';
export const INTERRUPTED_MESSAGE = ERRORS.interrupted.message;
export const SHUTDOWN_MESSAGE = ERRORS.mergeStopped.message;
export const CANCELLED_MESSAGE = ERRORS.cancelled.message;

/** An input the engine refused: its kind, and which input (`index`; `file` when it is none of them). */
export interface RefusedInput {
  code: InputErrorCode;
  index: number;
  file: string;
}

/**
 * A message naming the original file, chosen by the refusal's code, e.g.
 * "Could not merge: notes.txt is not usable audio".
 */
export function inputFailureMessage(err: RefusedInput, originalNames: string[]): string {
  return INPUT_PREFIX + inputSentence(err.code, refusedName(err, originalNames) ?? unlistedName(err.code));
}

/** A kept span the engine found outside its input (`input`, its position), naming that input. */
export function trimFailureMessage(err: { input: number }, originalNames: string[]): string {
  return INPUT_PREFIX + trimSentence(originalNames[err.input] ?? `file ${err.input + 1}`);
}

/**
 * The person's own name of the refused input; undefined when it is none of the person's files
 * (the cover, a file the merge made in its scratch folder): the engine's `file` is then a path
 * on the server, which never reaches a person.
 */
export const refusedName = (err: RefusedInput, originalNames: string[]): string | undefined =>
  originalNames[err.index];

/** What a refused file that is not one of the list is called in a person's sentence. */
const unlistedName = (code: InputErrorCode): string =>
  code === 'not-image' ? 'the cover' : 'a file made during the merge';

/** A merge that cannot fit on the server's disk, even once the others have ended. */
export function diskFullMessage(bytes: number): string {
  const mb = Math.ceil(bytes / (1024 * 1024));
  return `Could not merge: the server's disk has no room for this merge (it needs about ${mb} MB)`;
}

const pad = (n: number) => String(n).padStart(2, '0');

/** merged-2026-11-21-1430.mp3, from local time. */
export function downloadName(at: Date, format = 'mp3'): string {
  return `merged-${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}-${pad(at.getHours())}${pad(at.getMinutes())}.${format}`;
}

/**
 * Bidirectional controls (embeddings, overrides, isolates, marks): in a file name they make
 * "gpj.exe" read as "exe.jpg".
 */
export const BIDI_CONTROLS = /[\u200e\u200f\u061c\u202a-\u202e\u2066-\u2069]/g;

/** A title made safe as a file name: no path separators, reserved, control or bidi characters, at most 80 characters. */
export function safeFileTitle(title: string): string {
  const clean = title
    .replace(BIDI_CONTROLS, '')
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u001f\u007f-\u009f/\\:*?"<>|]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/^\.+/, '');
  return [...clean].slice(0, 80).join('').trim();
}

/** "Title 2026-11-21 1430.m4b": what the result is, then when; today's name when there is no title. */
export function describedDownloadName(title: string | undefined, at: Date, format: string): string {
  const safe = title ? safeFileTitle(title) : '';
  if (!safe) return downloadName(at, format);
  return `${safe} ${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())} ${pad(at.getHours())}${pad(at.getMinutes())}.${format}`;
}
