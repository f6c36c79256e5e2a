// Pure: a chapters file as m4b-tool and mp4chaps users write it: one chapter a line, `START TITLE`,
// START in seconds (`12.5`) or `[h:]m:ss[.mmm]`; empty lines and lines starting with `#` skipped.

import { typedTextProblem, type TypedTextRule } from './typed-text.js';

export interface ChapterLine {
  start: number;
  title: string;
  /** 1-based line of the file, for messages. */
  line: number;
}

export type ChaptersFileResult =
  { ok: true; chapters: ChapterLine[] } | { ok: false; line: number; message: string };

/** Seconds from `12.5`, `1:02`, `1:02:03.5`; undefined when the text is none of these. */
export function parseTimestamp(text: string): number | undefined {
  const m = /^(?:(\d+):)?(?:(\d+):)?(\d+(?:\.\d+)?)$/.exec(text.trim());
  if (!m) return undefined;
  const [, a, b, c] = m;
  const parts = [a, b].filter((v) => v !== undefined).map(Number);
  const seconds = Number(c);
  if (parts.length > 0 && seconds >= 60) return undefined;
  if (parts.length === 2 && parts[1] >= 60) return undefined;
  const [h, min] = parts.length === 2 ? parts : [0, parts[0] ?? 0];
  return h * 3600 + min * 60 + seconds;
}

/**
 * The longest chapter title in characters, however it comes (a chapters file, a person, an
 * input's title tag): players show a chapter title as one short line.
 */
export const CHAPTER_TITLE_MAX = 500;
/** A chapter title a person gives (saveItem, the widget's field, a chapters file). */
export const CHAPTER_TITLE: TypedTextRule = { max: CHAPTER_TITLE_MAX, lines: false };
const MAX_CHAPTERS = 999;
/**
 * The most of a chapters file that is read: 999 chapters of 500 characters (4 bytes each at most)
 * take under 2 MB, so anything past 4 MB is not a chapters file (and /dev/zero ends here).
 */
export const CHAPTERS_FILE_MAX_BYTES = 4 * 1024 * 1024;

/**
 * A chapters file's bytes as text (its byte order mark dropped), when they are UTF-8; else the first
 * line that is not, named: a file saved as Latin-1 would otherwise give titles with U+FFFD in them.
 */
export function chaptersFileText(
  bytes: Uint8Array,
): { ok: true; text: string } | { ok: false; line: number; message: string } {
  try {
    return { ok: true, text: new TextDecoder('utf-8', { fatal: true }).decode(bytes) };
  } catch {
    const lines = new TextDecoder('utf-8').decode(bytes).split(/\r?\n/);
    const line = lines.findIndex((l) => l.includes('\uFFFD')) + 1;
    return { ok: false, line: Math.max(1, line), message: 'is not UTF-8 text (save the file as UTF-8)' };
  }
}

/** Read a chapters file's text; the first line that cannot be read is named. */
export function parseChaptersFile(text: string): ChaptersFileResult {
  const chapters: ChapterLine[] = [];
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    const raw = lines[i].trim();
    if (raw === '' || raw.startsWith('#')) continue;
    const line = i + 1;
    const m = /^(\S+)\s+(.+)$/.exec(raw);
    const start = m ? parseTimestamp(m[1]) : parseTimestamp(raw);
    if (start === undefined)
      return { ok: false, line, message: 'must be START TITLE, START as 12.5 or [h:]m:ss[.mmm]' };
    const title = m?.[2].trim() ?? '';
    if (title === '') return { ok: false, line, message: 'has no title after its start' };
    if (typedTextProblem(title, CHAPTER_TITLE))
      return {
        ok: false,
        line,
        message: `title must be one line of at most ${CHAPTER_TITLE_MAX} characters, without control characters`,
      };
    const before = chapters[chapters.length - 1];
    if (before && start <= before.start)
      return { ok: false, line, message: `starts at or before the chapter of line ${before.line}` };
    if (chapters.length >= MAX_CHAPTERS)
      return { ok: false, line, message: `more than ${MAX_CHAPTERS} chapters` };
    chapters.push({ start, title, line });
  }
  if (chapters.length === 0) return { ok: false, line: lines.length, message: 'holds no chapters' };
  return { ok: true, chapters };
}
