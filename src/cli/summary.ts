// Pure: the one line a finished run prints on stderr (without --json or --quiet): what was
// written (the output, or its parts), its length, its size and its chapter count.
import type { MergeReport } from '../engine/index.js';
import { formatDuration, formatSize } from '../shared/format.js';

export function summaryLine(report: MergeReport): string {
  const chapters = `${report.chapters.length} chapter${report.chapters.length === 1 ? '' : 's'}`;
  const rest = `${formatDuration(report.durationSeconds)}, ${formatSize(report.bytes)}, ${chapters}`;
  const parts = report.parts;
  if (!parts || parts.length === 0) return `audio-merge: wrote ${report.output} (${rest})`;
  const span = parts.length === 1 ? parts[0].output : `${parts[0].output} to ${parts.at(-1)!.output}`;
  return `audio-merge: wrote ${parts.length} part${parts.length === 1 ? '' : 's'}, ${span} (${rest})`;
}
