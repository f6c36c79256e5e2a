// Pure: the option a person most likely meant by one the parser does not know.

/** Edits (insert, delete, change, swap two neighbours) that turn `a` into `b`. */
export function editDistance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => [
    i,
    ...Array<number>(b.length).fill(0),
  ]);
  for (let j = 1; j <= b.length; j++) d[0][j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const change = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + change);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
    }
  }
  return d[a.length][b.length];
}

/**
 * The known option nearest to `typed` (its `=value` left out), when it is near enough to be a
 * slip: one edit in four letters, at least one; or the one option that starts with what was typed.
 */
export function nearestOption(typed: string, known: readonly string[]): string | undefined {
  const name = typed.split('=')[0].toLowerCase();
  const longs = known.filter((k) => k.startsWith('--'));
  const starting = longs.filter((k) => name.length > 3 && k.startsWith(name));
  if (starting.length === 1) return starting[0];
  const allowed = Math.max(1, Math.floor((name.length - 2) / 4));
  let best: { name: string; distance: number } | undefined;
  for (const k of name.startsWith('--') ? longs : known) {
    const distance = editDistance(name, k);
    if (distance <= allowed && (!best || distance < best.distance)) best = { name: k, distance };
  }
  return best?.name;
}
