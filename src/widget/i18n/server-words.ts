// The server's refusals and failures in the person's language: chosen by the code the server
// sends with them (error bodies, status events); a code the widget does not know shows the
// server's own sentence, so a newer server is never silenced.
import { activeLocale, t } from './locale.js';
import { en, type ServerMessageCode } from './en.js';

/** Codes about one input file: the server's sentence names the file, the table's does not. */
const FILE_CODES: readonly string[] = [
  'empty',
  'unreadable',
  'not-audio',
  'bad-mp3',
  'free-format',
  'format-change',
  'bad-mp4',
  'reencode-failed',
  'measure-failed',
  'not-image',
  'same-as-output',
  'bad-trim',
];

const known = (code: string | undefined): code is ServerMessageCode =>
  code !== undefined && Object.hasOwn(t().serverMessages, code);

/**
 * Whether to put the table's words for `code` in place of the server's. The server speaks
 * English, and its sentence may say more (the file, the reason): an English reader gets it as
 * it is, unless the host gave words of its own for that code.
 */
function ours(code: string | undefined, fallback: string): code is ServerMessageCode {
  if (!known(code)) return false;
  if (fallback.trim() === '' || activeLocale() !== 'en') return true;
  return t().serverMessages[code] !== en.serverMessages[code];
}

/** The words for `code`, else `fallback` (the server's sentence). */
export function serverMessage(code: string | undefined, fallback: string): string {
  return ours(code, fallback) ? t().serverMessages[code] : fallback;
}

/**
 * A merge's failure: in the person's language, except where the server's sentence names the file
 * at fault and the widget could not (it does not know which one).
 */
export function mergeFailure(code: string | undefined, fallback: string): string {
  if (code !== undefined && FILE_CODES.includes(code) && fallback.trim() !== '') return fallback;
  return serverMessage(code, fallback);
}

/** One file's refusal, naming it (the upload list, where the widget knows which file it sent). */
export function fileRefusal(filename: string, code: string | undefined, fallback: string): string {
  return ours(code, fallback) ? `${filename}: ${t().serverMessages[code]}` : fallback;
}
