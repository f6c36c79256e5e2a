// What a person reads about a job: the queue and progress texts, failure messages (from the one
// error table, ../errors.ts), the download name.
import { InputError } from '../../engine/index.js';
import { ERRORS } from '../errors.js';

export function waitingText(ahead: number): string {
  return `Waiting: ${ahead} merge${ahead === 1 ? '' : 's'} ahead of yours`;
}

export const QUEUED_TEXT = 'Waiting to start';
export const runningText = (percent: number) => `Merging: ${percent}%`;
export const DONE_TEXT = 'Done';

const INPUT_PREFIX = 'Could not merge: ';
export const INTERRUPTED_MESSAGE = ERRORS.interrupted.message;
export const SHUTDOWN_MESSAGE = ERRORS.mergeStopped.message;
export const INTERNAL_MESSAGE = ERRORS.mergeFailed.message;
export const MISSING_MESSAGE = ERRORS.itemGone.message;
export const CANCELLED_MESSAGE = ERRORS.cancelled.message;

/** Engine reasons are fragments ("not audio (...)", "no decodable audio", "cannot be read"): make a sentence. */
export function describeReason(name: string, reason: string): string {
  if (/^(not|empty)\b/.test(reason)) return `${name} is ${reason.startsWith('empty') ? 'an ' : ''}${reason}`;
  if (/^no\b/.test(reason)) return `${name} has ${reason}`;
  if (/^(cannot|could|can't|is|has|was)\b/.test(reason)) return `${name} ${reason}`;
  return `${name}: ${reason}`;
}

/**
 * A message naming the original file and the reason, e.g.
 * "Could not merge: notes.txt is not audio (no audio stream)".
 */
export function inputFailureMessage(err: InputError, originalNames: string[]): string {
  const name = originalNames[err.index] ?? err.file;
  return INPUT_PREFIX + describeReason(name, err.reason);
}

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
    .replace(/[\u0000-\u001f\u007f/\\:*?"<>|]+/g, ' ')
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
