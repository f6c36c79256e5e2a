// Run indexed tasks with at most `limit` in flight; on the first failure start no more, let the
// running ones settle (the caller aborts them), and throw the most telling error.
import { AbortError } from '../errors.js';

export async function runPool<T>(
  indexes: readonly number[],
  limit: number,
  task: (index: number) => Promise<T>,
  onFirstFailure?: (err: unknown) => void,
): Promise<Map<number, T>> {
  const results = new Map<number, T>();
  const errors: Array<{ index: number; err: unknown }> = [];
  let next = 0;
  let failed = false;
  const worker = async () => {
    while (!failed && next < indexes.length) {
      const index = indexes[next++];
      try {
        results.set(index, await task(index));
      } catch (err) {
        errors.push({ index, err });
        if (!failed) {
          failed = true;
          onFirstFailure?.(err);
        }
      }
    }
  };
  const width = Math.max(1, Math.min(Math.floor(limit) || 1, indexes.length));
  await Promise.all(Array.from({ length: width }, worker));
  if (errors.length > 0) {
    // Tasks stopped because of another's failure report AbortError; the cause is the real news.
    const real = errors.filter((e) => !(e.err instanceof AbortError)).sort((a, b) => a.index - b.index);
    throw (real[0] ?? errors[0]).err;
  }
  return results;
}
