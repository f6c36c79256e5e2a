// Pure: chapter titles by the rule, chapters from the counted start of each part, the per-format
// limits, and the text forms players read (Vorbis CHAPTERnnn comments).
import path from 'node:path';
import { CHAPTER_TITLE, CHAPTER_TITLE_MAX } from '../../shared/chapters-file.js';
import { cutToCodePoints, refusedCharacters } from '../../shared/typed-text.js';
import type { OutputFormat } from './formats.js';

export interface Chapter {
  title: string;
  /** Seconds from the start of the decoded output. */
  start: number;
  end: number;
}

export type ChapterTitleSource = 'tags' | 'files';

/**
 * At most this many chapters: an ID3 CTOC and a Nero chpl box count their entries in one byte,
 * CHAPTERnnn has three digits. More inputs than that are grouped (see chaptersFromStarts).
 */
export const CHAPTER_LIMIT: Record<OutputFormat, number> = {
  mp3: 255,
  m4b: 255,
  m4a: 255,
  opus: 999,
  ogg: 999,
  flac: 999,
  wav: 999,
};

export function fileTitle(name: string): string {
  const base = path.basename(name);
  return base.replace(/\.[^.]+$/, '') || base;
}

/**
 * A tag's text (a title, an artist...) as one line a person can read, at most CHAPTER_TITLE_MAX
 * characters (never cut inside one): line breaks and tabs become spaces, other control characters
 * and bidirectional embeddings, overrides and isolates go (they would hide or reorder what it
 * says; the invisible direction marks right-to-left text uses are kept).
 */
export function oneLineTag(tag: string): string {
  const line = tag
    .replace(/[\t\n\v\f\r]+/g, ' ')
    .replace(refusedCharacters(CHAPTER_TITLE), '')
    .trim();
  return cutToCodePoints(line, CHAPTER_TITLE_MAX).trim();
}

/** An input's chapter title when none is given for it: its title tag, else its file name without the extension. */
export function defaultChapterTitle(name: string, tag: string | null | undefined): string {
  return (tag && oneLineTag(tag)) || fileTitle(name);
}

/**
 * Each input's chapter title: the one given for it (`given[i]`, when not empty), else its default
 * (defaultChapterTitle); `source` 'files' forces file names.
 */
export function chapterTitles(
  names: string[],
  titles: (string | undefined)[],
  source?: ChapterTitleSource,
  given: (string | null | undefined)[] = [],
): string[] {
  return names.map((n, i) => {
    const own = given[i]?.trim();
    if (own) return own;
    return source === 'files' ? fileTitle(n) : defaultChapterTitle(n, titles[i]);
  });
}

/** An input's own chapter: seconds from the start of its audio. */
export interface OwnChapter {
  start: number;
  title: string;
}

/**
 * An input's own chapters (sorted by start) as seen from `from` seconds into it (a trim's start):
 * the one `from` falls inside and those after, counted from there. Each lasts until the next
 * begins; the end a file gives is not trusted (some say a chapter ends before it starts).
 */
export function ownChaptersFrom<T extends OwnChapter & { end: number }>(own: T[], from: number): T[] {
  const inside = own.filter((c) => c.start <= from + 0.001).at(-1);
  const after = own.filter((c) => c.start > from + 0.001);
  return [...(inside ? [inside] : []), ...after].map((c) => ({
    ...c,
    start: c.start - from,
    end: c.end - from,
  }));
}

/**
 * An input's own chapters that hold some of its audio: those starting before its end, less any
 * that starts where the next one does (within a millisecond), which would last no time at all.
 */
function heldChapters(own: OwnChapter[], length: number): OwnChapter[] {
  const within = own.filter((c) => c.start < length - 0.001);
  return within.filter((c, k) => k + 1 === within.length || within[k + 1].start - c.start > 0.001);
}

/**
 * The inputs' chapters in the output: an input that carries chapters of its own gives them, moved
 * to where it starts (those starting past its length or lasting no time dropped; titles made one
 * readable line as tags are, one without a title named by the input's title and its place); any
 * other input gives one chapter titled `titles[i]`. Over `limit` in all, one chapter per input
 * (grouped as chaptersFromStarts does).
 */
export function chaptersWithOwn(
  titles: string[],
  own: (OwnChapter[] | undefined)[],
  placed: { starts: number[]; lengths: number[]; total: number },
  limit: number,
): Chapter[] {
  const { starts, lengths, total } = placed;
  const marks: { start: number; title: string }[] = [];
  starts.forEach((at, i) => {
    const kept = heldChapters(own[i] ?? [], lengths[i]);
    if (kept.length === 0) return void marks.push({ start: at, title: titles[i] });
    // Audio ahead of an input's first chapter still belongs to it: the first chapter starts with the input.
    kept.forEach((c, k) =>
      marks.push({
        start: k === 0 ? at : at + c.start,
        title: oneLineTag(c.title) || `${titles[i]} ${k + 1}`,
      }),
    );
  });
  if (marks.length > limit) return chaptersFromStarts(titles, starts, total, limit);
  return marks.map((m, k) => ({
    title: m.title,
    start: round6(Math.max(0, m.start)),
    end: round6(k + 1 < marks.length ? marks[k + 1].start : total),
  }));
}

/**
 * Chapters given as a list (a chapters file): each ends where the next begins, the last at
 * `total`. The index of the first that starts at or past the end is returned instead.
 */
export function chaptersFromList(
  list: { start: number; title: string }[],
  total: number,
): Chapter[] | { pastEnd: number } {
  const past = list.findIndex((c) => c.start >= total);
  if (past >= 0) return { pastEnd: past };
  return list.map((c, k) => ({
    title: c.title,
    start: round6(c.start),
    end: round6(k + 1 < list.length ? list[k + 1].start : total),
  }));
}

/**
 * One chapter per input, starting at `starts[i]` seconds, each ending where the next begins and
 * the last at `total`. Above `limit` inputs, consecutive inputs are grouped evenly into `limit`
 * chapters, each starting at its first input and titled by it.
 */
export function chaptersFromStarts(
  titles: string[],
  starts: number[],
  total: number,
  limit: number,
): Chapter[] {
  const n = starts.length;
  const per = Math.ceil(n / Math.max(1, limit));
  const firsts: number[] = [];
  for (let i = 0; i < n; i += per) firsts.push(i);
  return firsts.map((i, k) => ({
    title: titles[i],
    start: round6(Math.max(0, starts[i])),
    end: round6(k + 1 < firsts.length ? starts[firsts[k + 1]] : total),
  }));
}

const round6 = (x: number) => Math.round(x * 1e6) / 1e6;

/** HH:MM:SS.mmm, as Vorbis CHAPTERnnn comments spell time. */
export function vorbisTime(seconds: number): string {
  const ms = Math.round(seconds * 1000);
  const h = Math.floor(ms / 3600000);
  const m = Math.floor(ms / 60000) % 60;
  const s = Math.floor(ms / 1000) % 60;
  const pad = (v: number, w = 2) => String(v).padStart(w, '0');
  return `${pad(h)}:${pad(m)}:${pad(s)}.${pad(ms % 1000, 3)}`;
}

/** CHAPTER001=..., CHAPTER001NAME=... pairs (numbered from 001, as players expect). */
export function vorbisChapterComments(chapters: Chapter[]): [string, string][] {
  return chapters.flatMap((c, i) => {
    const key = `CHAPTER${String(i + 1).padStart(3, '0')}`;
    return [
      [key, vorbisTime(c.start)],
      [`${key}NAME`, c.title],
    ] as [string, string][];
  });
}
