// A reading shared for a short while: a scrape (or several at once, from two Prometheus servers)
// costs the source one call at most every `ms`, never one each.

/** `read` at most once per `ms`; callers in between (or while it runs) share its answer. A failure is not kept. */
export function cachedFor<T>(
  ms: number,
  read: () => Promise<T>,
  now: () => number = Date.now,
): () => Promise<T> {
  let last: { at: number; value: Promise<T> } | undefined;
  return () => {
    const t = now();
    if (last && t - last.at < ms) return last.value;
    const value = read();
    const entry = { at: t, value };
    last = entry;
    value.catch(() => {
      if (last === entry) last = undefined;
    });
    return value;
  };
}
