// Pure: a book in parts (--split). Where each part starts and ends on the book's timeline, its
// chapters counted from its start, and its file name.
import path from 'node:path';
import type { Silence } from '../ffmpeg/silence-log.js';
import type { Chapter } from './chapters.js';

export interface PartSpan {
  start: number;
  end: number;
}

/** A chapter longer than a part is cut in a silence in this last share before the limit. */
const LAST_SHARE = 0.1;
/** No part shorter than this is made of what is left of a chapter (a rounding's crumb). */
const CRUMB = 0.05;

/**
 * The parts: one per chapter (`'chapters'`; the whole book when it has none), or as many whole
 * chapters as fit in `split` seconds, a longer chapter cut inside a silence in the last tenth
 * before the limit (the longest stretch of silence there, at its middle), else at the limit.
 */
export function planParts(
  chapters: readonly Chapter[],
  total: number,
  split: 'chapters' | number,
  silences: readonly Silence[] = [],
): PartSpan[] {
  if (chapters.length === 0)
    return split === 'chapters' ? [{ start: 0, end: total }] : bySeconds([0], total, split, silences);
  const starts = chapters.map((c, k) => (k === 0 ? 0 : c.start));
  if (split === 'chapters')
    return starts.map((start, k) => ({ start, end: k + 1 < starts.length ? starts[k + 1] : total }));
  return bySeconds(starts, total, split, silences);
}

function bySeconds(starts: number[], total: number, limit: number, silences: readonly Silence[]): PartSpan[] {
  const parts: PartSpan[] = [];
  const bounds = [...starts.slice(1), total];
  let from = 0;
  let k = 0; // the first chapter boundary after `from`
  while (from < total - CRUMB) {
    // Whole chapters while they fit.
    let end = from;
    while (k < bounds.length && bounds[k] - from <= limit + 1e-6) end = bounds[k++];
    if (end === from) end = cutInside(from, limit, silences);
    if (total - end < CRUMB) end = total;
    parts.push({ start: round6(from), end: round6(end) });
    from = end;
    while (k < bounds.length && bounds[k] <= from + 1e-6) k++;
  }
  return parts;
}

/** Where a chapter too long for a part starting at `from` is cut: in a silence in the last tenth, else at the limit. */
export function cutInside(from: number, limit: number, silences: readonly Silence[]): number {
  const a = from + limit * (1 - LAST_SHARE);
  const b = from + limit;
  let best: { at: number; length: number } | undefined;
  for (const s of silences) {
    const lo = Math.max(a, s.start);
    const hi = Math.min(b, s.end);
    if (hi - lo > (best?.length ?? 0)) best = { at: (lo + hi) / 2, length: hi - lo };
  }
  return best ? best.at : b;
}

/** The book's chapters within a part, counted from its start (one it starts inside begins at 0). */
export function partChapters(chapters: readonly Chapter[], part: PartSpan): Chapter[] {
  return chapters
    .filter((c) => c.end > part.start + 1e-6 && c.start < part.end - 1e-6)
    .map((c) => ({
      title: c.title,
      start: round6(Math.max(0, c.start - part.start)),
      end: round6(Math.min(c.end, part.end) - part.start),
    }));
}

/** OUT with -01, -02... before its extension (as many digits as the count needs, at least two). */
export function partPath(output: string, index: number, count: number): string {
  const { dir, name, ext } = path.parse(output);
  const digits = Math.max(2, String(count).length);
  return path.join(dir, `${name}-${String(index + 1).padStart(digits, '0')}${ext}`);
}

const round6 = (x: number) => Math.round(x * 1e6) / 1e6;
