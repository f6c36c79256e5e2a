// Pure: chapter titles by the rule, chapters from the counted start of each part, the per-format
// limits, and the text forms players read (Vorbis CHAPTERnnn comments).
import path from 'node:path';
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
 * The inputs' title tags when every input has a distinct non-empty one (or `source` is 'tags'),
 * else each input's file name without its extension. A forced 'tags' falls back to the file
 * name for an input with no title.
 */
export function chapterTitles(
  names: string[],
  titles: (string | undefined)[],
  source?: ChapterTitleSource,
): string[] {
  const tags = titles.map((t) => t?.trim() ?? '');
  const usable = tags.every((t) => t !== '') && new Set(tags).size === tags.length;
  const useTags = source === 'tags' || (source === undefined && usable);
  return names.map((n, i) => (useTags && tags[i] ? tags[i] : fileTitle(n)));
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
