// Pure: the one line a finished job prints on stderr (without --json or --quiet): what was
// written, how long it plays, its size and its chapter count.
import type { MergeReport } from '../engine/index.js';

/** The report's fields the line reads; `parts` when the output was written in parts. */
export type SummaryReport = Pick<MergeReport, 'output' | 'durationSeconds' | 'bytes' | 'chapters'> & {
  parts?: readonly { output: string; bytes?: number }[];
};

/** `h:mm:ss` (or `m:ss` under an hour), rounded to the second. */
export function clockTime(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const ss = String(s % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${ss}` : `${m}:${ss}`;
}

/** Bytes as a person reads them: `812 KB`, `4.7 MB`, `1.20 GB` (powers of 1000, as file managers show). */
export function byteSize(bytes: number): string {
  if (bytes < 1000) return `${bytes} B`;
  if (bytes < 1e6) return `${Math.round(bytes / 1e3)} KB`;
  if (bytes < 1e9) return `${(bytes / 1e6).toFixed(bytes < 1e8 ? 1 : 0)} MB`;
  return `${(bytes / 1e9).toFixed(2)} GB`;
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** The line; `shown` gives a path as the person should read it (relative to where they are). */
export function summaryLine(report: SummaryReport, shown: (file: string) => string = (f) => f): string {
  const parts = report.parts ?? [];
  const what =
    parts.length > 1
      ? `${shown(parts[0].output)} ... ${shown(parts.at(-1)!.output)} (${plural(parts.length, 'part')})`
      : shown(report.output);
  const bytes =
    parts.length > 1 ? parts.reduce((n, p) => n + (p.bytes ?? 0), 0) || report.bytes : report.bytes;
  const facts = [
    clockTime(report.durationSeconds),
    byteSize(bytes),
    plural(report.chapters.length, 'chapter'),
  ];
  return `audio-merge: wrote ${what}: ${facts.join(', ')}`;
}
