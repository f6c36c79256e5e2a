// A row's kept span as a person moves its handles: shown at once, saved with saveItem once the
// handle has rested (debounced), the latest span only. A merge, a reset or leaving the page sends
// what is still waiting first.
import { isExpired, reasonOf } from '../api/http.js';
import type { Container, WidgetEnv } from '../store/container.js';
import { t } from '../i18n/locale.js';
import { createDebouncedSaves } from '../store/debounced-saves.js';
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
  const saves = createDebouncedSaves(deps.env, deps.saveDelayMs ?? SAVE_DELAY_MS, (id, keepalive) => {
    const item = c.getState().items.find((i) => i.id === id);
    if (!item) return Promise.resolve();
    return deps.api
      .saveSpan(id, { start: item.start ?? null, end: item.end ?? null }, { keepalive })
      .catch((err: unknown) => {
        console.error('Error', err);
        if (isExpired(err)) c.dispatch({ type: 'expired' });
        else c.dispatch({ type: 'notice', text: t().spanNotSaved(item.filename, reasonOf(err)) });
      });
  });

  function setSpan(id: string, start: number | null, end: number | null): void {
    const before = c.getState().items;
    c.dispatch({ type: 'spanChanged', id, start, end });
    if (c.getState().items !== before) saves.schedule(id);
  }

  return {
    setSpan,
    resetSpan(id) {
      setSpan(id, null, null);
      void saves.now(id);
    },
    flushSpans: (opts) => saves.flush(opts),
  };
}
