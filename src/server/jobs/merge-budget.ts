// Pure: how long a merge's output lasts, from what it will read (each use of each item as kept
// once trimmed, the gaps between them, the crossfades taken off), and whether that fits the
// server's MAX_MERGE_HOURS. Checked when the merge is asked for and again when it starts: the
// spans it reads then may have changed while it waited.
import { keptSeconds } from '../../shared/trim-span.js';

/** What decides the length besides the items: the gap or crossfade between consecutive uses. */
export interface BudgetOptions {
  gap?: number | null;
  crossfade?: number | null;
}

/**
 * Seconds of output: every kept length, a gap between each two, less each crossfade (shortened,
 * as the engine shortens it, to half the shorter of its pair).
 */
export function mergeSeconds(kept: readonly number[], opts: BudgetOptions = {}): number {
  const gap = Math.max(0, opts.gap ?? 0);
  const crossfade = Math.max(0, opts.crossfade ?? 0);
  let total = 0;
  for (const [i, seconds] of kept.entries()) {
    total += seconds;
    if (i === 0) continue;
    total += gap;
    total -= Math.min(crossfade, kept[i - 1] / 2, seconds / 2);
  }
  return total;
}

const hoursText = (seconds: number) => {
  const minutes = Math.ceil(seconds / 60);
  return minutes < 60 ? `${minutes} min` : `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
};

/**
 * The person's sentence when the items (in merge order, each use listed) with these options last
 * longer than `maxHours`; undefined when they fit.
 */
export function budgetProblem(
  items: ReadonlyArray<{ duration: number; start?: number | null; end?: number | null }>,
  opts: BudgetOptions,
  maxHours: number,
): string | undefined {
  const total = mergeSeconds(items.map(keptSeconds), opts);
  if (total <= maxHours * 3600) return undefined;
  return `The merge is too long: it would last ${hoursText(total)}, and this server merges at most ${maxHours} hours at once`;
}
