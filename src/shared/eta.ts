// Time left, from the pace measured so far: pure arithmetic over (time, percentage) readings, so
// the server, the command line and their tests all say the same thing for the same readings.

/** Readings younger than this carry too little of the work to say anything. */
const MIN_ELAPSED_MS = 1000;
const MIN_PERCENT = 1;

/**
 * Seconds left at the average pace since the start: what is left of the work at the rate the done
 * part took. Null in the first second and below 1 %, where one early step would say anything, and
 * once the work is done.
 */
export function secondsLeft(elapsedMs: number, percent: number): number | null {
  if (!(elapsedMs >= MIN_ELAPSED_MS) || !(percent >= MIN_PERCENT) || percent >= 100) return null;
  return ((elapsedMs / 1000) * (100 - percent)) / percent;
}

/**
 * Follows one merge's readings from its first: each gives the time left at the average pace since
 * that first reading, in whole seconds rounded up (0 once done). At a steady pace it falls by a
 * second each second.
 */
export class TimeLeft {
  private startedAt: number | null = null;

  constructor(private readonly now: () => number) {}

  /** The time left at `percent` done, now. */
  at(percent: number): number | null {
    const now = this.now();
    this.startedAt ??= now;
    if (percent >= 100) return 0;
    const raw = secondsLeft(now - this.startedAt, percent);
    return raw === null ? null : Math.ceil(raw);
  }
}
