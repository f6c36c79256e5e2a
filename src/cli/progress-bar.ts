// The progress bar drawn on stderr: the share done, and once the rate is known, the time left.

/**
 * Seconds left, from the rate so far: what is left at the average pace since the start. Unknown
 * (undefined) in the first second and below 1 %, where one early step would say anything.
 */
export function secondsLeft(elapsedMs: number, percent: number): number | undefined {
  if (elapsedMs < 1000 || percent < 1 || percent >= 100) return undefined;
  return ((elapsedMs / 1000) * (100 - percent)) / percent;
}

/** `0:07`, `12:05`, `1:02:03`: whole seconds, rounded up (a bar never says 0:00 before the end). */
export function clock(seconds: number): string {
  const s = Math.max(0, Math.ceil(seconds));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const ss = String(s % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${ss}` : `${m}:${ss}`;
}

const WIDTH = 30;

/** One redraw of the bar (starting with a carriage return, ending with a clear to the line's end). */
export function progressBar(percent: number, left?: number): string {
  const full = Math.round((percent / 100) * WIDTH);
  const eta = left === undefined ? '' : `  ${clock(left)} left`;
  return `\r[${'#'.repeat(full)}${'.'.repeat(WIDTH - full)}] ${String(percent).padStart(3)}%${eta}\x1b[K`;
}
