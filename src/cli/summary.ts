// Pure: the one line a finished run prints on stderr (without --json or --quiet): what was
// written (the output, or its parts), its length, its size and its chapter count.
import type { MergeReport } from '../engine/index.js';
import { formatDuration, formatSize } from '../shared/format.js';

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** The line; `shown` gives a path as the person should read it (relative to where they are). */
export function summaryLine(report: MergeReport, shown: (file: string) => string = (f) => f): string {
  const rest = `${formatDuration(report.durationSeconds)}, ${formatSize(report.bytes)}, ${plural(report.chapters.length, 'chapter')}`;
  const parts = report.parts;
  if (!parts || parts.length === 0) return `audio-merge: wrote ${shown(report.output)} (${rest})`;
  const span =
    parts.length === 1
      ? shown(parts[0].output)
      : `${shown(parts[0].output)} to ${shown(parts.at(-1)!.output)}`;
  return `audio-merge: wrote ${plural(parts.length, 'part')}, ${span} (${rest})`;
}
