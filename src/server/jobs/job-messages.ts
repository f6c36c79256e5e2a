// What a person reads about a job: the queue text, failure messages, the download name.
// The merge route maps a failed job to an HTTP status by its kind (jobFailureKind).
import { AbortError, InputError } from '../../engine/errors.js';
import { isDiskFull } from '../files/disk-space.js';
import { ERRORS } from '../http/errors.js';

export function waitingText(ahead: number): string {
  return `Waiting: ${ahead} merge${ahead === 1 ? '' : 's'} ahead of yours`;
}

const INPUT_PREFIX = 'Could not merge: ';
export const INTERRUPTED_MESSAGE = 'The server restarted while this merge was running; please press make again';
export const SHUTDOWN_MESSAGE = 'The server is shutting down and stopped this merge; please press make again shortly';
export const INTERNAL_MESSAGE = 'The merge failed on the server; please try again';
export const MISSING_MESSAGE = `${INPUT_PREFIX}a file in the list was deleted before the merge started`;
export const DISK_FULL_MESSAGE: string = ERRORS.diskFull.message;

export type FailureKind = 'input' | 'unavailable' | 'diskFull' | 'internal';

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
export function failureMessage(err: unknown, originalNames: string[], shuttingDown: boolean): string {
  if (err instanceof InputError) {
    const name = originalNames[err.index] ?? err.file;
    return INPUT_PREFIX + describeReason(name, err.reason);
  }
  if (err instanceof AbortError || shuttingDown) return SHUTDOWN_MESSAGE;
  if (isDiskFull(err)) return DISK_FULL_MESSAGE;
  return INTERNAL_MESSAGE;
}

export function jobFailureKind(message: string | null): FailureKind {
  if (message?.startsWith(INPUT_PREFIX)) return 'input';
  if (message === SHUTDOWN_MESSAGE || message === INTERRUPTED_MESSAGE) return 'unavailable';
  if (message === DISK_FULL_MESSAGE) return 'diskFull';
  return 'internal';
}

const pad = (n: number) => String(n).padStart(2, '0');

/** merged-2026-11-21-1430.mp3, from local time. */
export function downloadName(at: Date): string {
  return `merged-${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}-${pad(at.getHours())}${pad(at.getMinutes())}.mp3`;
}
