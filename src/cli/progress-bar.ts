// The progress bar drawn on stderr: the share done, the stage and the file being worked on, and
// once the pace is known, the time left (src/shared/eta.ts).
import type { ProgressWhere } from '../engine/index.js';

/** `0:07`, `12:05`, `1:02:03`: whole seconds, rounded up (a bar never says 0:00 before the end). */
export function clock(seconds: number): string {
  const s = Math.max(0, Math.ceil(seconds));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const ss = String(s % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${ss}` : `${m}:${ss}`;
}

const WIDTH = 30;

/** `encoding file 37 of 500`; `writing`: the stage, and the file where there is more than one. */
export function whereWords(where: ProgressWhere | undefined): string {
  if (!where) return '';
  return where.files > 1 && where.stage !== 'writing'
    ? `  ${where.stage} file ${where.file} of ${where.files}`
    : `  ${where.stage}`;
}

/** One redraw of the bar (starting with a carriage return, ending with a clear to the line's end). */
export function progressBar(percent: number, left?: number | null, where?: ProgressWhere): string {
  const full = Math.round((percent / 100) * WIDTH);
  const eta = left === undefined || left === null ? '' : `  ${clock(left)} left`;
  const bar = `[${'#'.repeat(full)}${'.'.repeat(WIDTH - full)}] ${String(percent).padStart(3)}%`;
  return `\r${bar}${whereWords(where)}${eta}\x1b[K`;
}
