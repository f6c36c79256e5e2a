// The one way a test waits for something that happens on its own time (a process, a queue, a
// file): check a condition until it holds, failing after a deadline that names what never came,
// so no test hangs or sleeps longer than the thing takes. A test that waits to see that nothing
// happens uses fake timers instead (vi.useFakeTimers): waiting for nothing has no condition.

/** The timers as loaded, so a test that fakes them (vi.useFakeTimers) can still wait for real work. */
const realSetTimeout = globalThis.setTimeout;
const realSetImmediate = globalThis.setImmediate;
const realNow = performance.now.bind(performance);

export interface UntilOptions {
  /** Give up after this long: reject with an error naming `what`. */
  timeoutMs: number;
  /** Pause between checks; 0 checks again on the next turn of the event loop (in-process work). */
  intervalMs?: number;
  /** What is awaited, for the error. */
  what?: string;
}

/** Resolves once `condition` holds (checked at once, then after each pause). */
export async function until(
  condition: () => boolean | Promise<boolean>,
  { timeoutMs, intervalMs = 10, what = 'the awaited condition' }: UntilOptions,
): Promise<void> {
  const deadline = realNow() + timeoutMs;
  for (;;) {
    if (await condition()) return;
    if (realNow() > deadline) throw new Error(`${what} did not happen within ${timeoutMs} ms`);
    await new Promise<void>((resolve) =>
      intervalMs > 0 ? realSetTimeout(resolve, intervalMs) : realSetImmediate(resolve),
    );
  }
}
