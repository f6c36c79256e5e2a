// The server's refusals and failures in the person's language: chosen by the code the server
// sends with them (error bodies, status events); a code the widget does not know shows the
// server's own sentence, so a newer server is never silenced.
import { activeLocale, t } from './locale.js';
import { en, type Locale, type ServerMessageCode } from './en.js';

type InputFailureCode = keyof Locale['inputFailures'];

/** Codes about one input file, which the locale's inputFailures word with that file's name. */
const isInputCode = (code: string | undefined): code is InputFailureCode =>
  code !== undefined && Object.hasOwn(en.inputFailures, code);

/** Bidirectional controls: a name's own must not reach the sentence around it. */
const BIDI_CONTROLS = /[\u200e\u200f\u061c\u202a-\u202e\u2066-\u2069]/g;

/**
 * A file name set apart from the sentence it sits in (first-strong isolate): a Latin name in an
 * Arabic sentence, or a Hebrew one in a German sentence, keeps its own direction and leaves the
 * sentence's alone.
 */
export const isolatedName = (name: string) => `\u2068${name.replace(BIDI_CONTROLS, '')}\u2069`;

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
 * A merge's failure in the person's language. One about an input names it: `file` is the name the
 * server sent with the code; without it the widget cannot tell which file, and the server's
 * sentence (which names it) stays. English reads the server's sentence, the same words.
 */
export function mergeFailure(code: string | undefined, fallback: string, file?: string): string {
  if (!isInputCode(code)) return serverMessage(code, fallback);
  const said = fallback.trim() !== '';
  if (file === undefined || file === '') return said ? fallback : serverMessage(code, fallback);
  const words = t().inputFailures[code];
  if (said && activeLocale() === 'en' && words === en.inputFailures[code]) return fallback;
  return words(isolatedName(file));
}

/** One file's refusal, naming it (the upload list, where the widget knows which file it sent). */
export function fileRefusal(filename: string, code: string | undefined, fallback: string): string {
  return ours(code, fallback) ? `${filename}: ${t().serverMessages[code]}` : fallback;
}
