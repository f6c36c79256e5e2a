// Saves of a row's edits (its span, its chapter title) as a person makes them: each row's save is
// sent once the edits have rested for a moment, the latest only; a flush sends what is still
// waiting at once (before a merge, or when the page is left) and waits for every answer.
import type { WidgetEnv } from './container.js';

export interface DebouncedSaves {
  /** Send the row's save after the delay, replacing one already waiting. */
  schedule(id: string): void;
  /** Send the row's save now. */
  now(id: string, keepalive?: boolean): Promise<void>;
  /** Send every waiting save now; resolves when every save sent has been answered. */
  flush(opts?: { keepalive?: boolean }): Promise<void>;
}

export function createDebouncedSaves(
  env: Pick<WidgetEnv, 'setTimeout' | 'clearTimeout'>,
  delayMs: number,
  send: (id: string, keepalive: boolean) => Promise<void>,
): DebouncedSaves {
  const waiting = new Map<string, unknown>();
  const inFlight = new Set<Promise<void>>();

  function now(id: string, keepalive = false): Promise<void> {
    env.clearTimeout(waiting.get(id));
    waiting.delete(id);
    const sent = send(id, keepalive).finally(() => inFlight.delete(sent));
    inFlight.add(sent);
    return sent;
  }

  return {
    schedule(id) {
      env.clearTimeout(waiting.get(id));
      waiting.set(
        id,
        env.setTimeout(() => void now(id), delayMs),
      );
    },
    now,
    async flush({ keepalive = false } = {}) {
      for (const id of [...waiting.keys()]) void now(id, keepalive);
      await Promise.all([...inFlight]);
    },
  };
}
