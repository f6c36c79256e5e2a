// A row's kept span as a person moves its handles: shown at once, saved with saveItem once the
// handle has rested (debounced), the latest span only. A merge, a reset or leaving the page sends
// what is still waiting first.
import { isExpired, reasonOf } from '../api/http.js';
import type { Container, WidgetEnv } from '../store/container.js';
import { t } from '../i18n/locale.js';
import type { TrimApi } from './trim-api.js';

export const SAVE_DELAY_MS = 400;

export interface TrimActions {
  /** The row's span, null at the file's own ends. */
  setSpan(id: string, start: number | null, end: number | null): void;
  resetSpan(id: string): void;
  /** Send every waiting save now; resolves when they have been answered. */
  flushSpans(opts?: { keepalive?: boolean }): Promise<void>;
}

export interface TrimDeps {
  api: Pick<TrimApi, 'saveSpan'>;
  env: Pick<WidgetEnv, 'setTimeout' | 'clearTimeout'>;
  saveDelayMs?: number;
}

export function createTrimActions(c: Container, deps: TrimDeps): TrimActions {
  const waiting = new Map<string, unknown>();
  const inFlight = new Set<Promise<void>>();

  function send(id: string, keepalive: boolean): Promise<void> {
    deps.env.clearTimeout(waiting.get(id));
    waiting.delete(id);
    const item = c.getState().items.find((i) => i.id === id);
    if (!item) return Promise.resolve();
    const sent = deps.api
      .saveSpan(id, { start: item.start ?? null, end: item.end ?? null }, { keepalive })
      .catch((err: unknown) => {
        console.error('Error', err);
        if (isExpired(err)) c.dispatch({ type: 'expired' });
        else c.dispatch({ type: 'notice', text: t().spanNotSaved(item.filename, reasonOf(err)) });
      })
      .finally(() => inFlight.delete(sent));
    inFlight.add(sent);
    return sent;
  }

  function setSpan(id: string, start: number | null, end: number | null): void {
    const before = c.getState().items;
    c.dispatch({ type: 'spanChanged', id, start, end });
    if (c.getState().items === before) return;
    deps.env.clearTimeout(waiting.get(id));
    waiting.set(
      id,
      deps.env.setTimeout(() => void send(id, false), deps.saveDelayMs ?? SAVE_DELAY_MS),
    );
  }

  return {
    setSpan,
    resetSpan(id) {
      setSpan(id, null, null);
      void send(id, false);
    },
    async flushSpans({ keepalive = false } = {}) {
      for (const id of [...waiting.keys()]) void send(id, keepalive);
      await Promise.all([...inFlight]);
    },
  };
}
