// What a person does to the list: load it, reorder it (saved on the server after each drop),
// remove a row (the delete is sent once the undo window has passed) and undo that.
import { ApiError, isExpired, reasonOf, type WidgetApi } from '../api/http.js';
import { t } from '../i18n/locale.js';
import type { Container, WidgetEnv } from './container.js';
import { inList } from './state.js';

export interface ListActions {
  load(): Promise<void>;
  setUploading(busy: boolean): void;
  reorder(activeId: string, overId: string): void;
  remove(id: string): void;
  undo(id: string): void;
  /** Send every waiting delete now (make is pressed, or the page is left). */
  flushRemovals(opts?: { keepalive?: boolean }): void;
  dismissNotice(): void;
}

export interface ListDeps {
  appid: string;
  api: Pick<WidgetApi, 'fetchItems' | 'saveOrder' | 'deleteItem'>;
  env: WidgetEnv;
  /** How long a removed row can be brought back before its delete is sent. */
  undoMs: number;
}

export function createListActions(c: Container, { appid, api, env, undoMs }: ListDeps): ListActions {
  const timers = new Map<string, unknown>();

  function refused(err: unknown, otherwise: () => void): void {
    console.error('Error', err);
    if (isExpired(err)) c.dispatch({ type: 'expired' });
    else otherwise();
  }

  // One save at a time, and only the latest order: a later drop never loses to an earlier one.
  let saving = false;
  let again = false;
  async function saveOrder(): Promise<void> {
    if (saving) {
      again = true;
      return;
    }
    saving = true;
    try {
      do {
        again = false;
        const ids = c.getState().items.map((i) => i.id);
        if (ids.length > 0) await api.saveOrder(appid, ids);
      } while (again);
    } catch (err) {
      refused(err, () => c.dispatch({ type: 'notice', text: t().orderNotSaved(reasonOf(err)) }));
    } finally {
      saving = false;
    }
  }

  function commitRemoval(id: string, keepalive: boolean): void {
    env.clearTimeout(timers.get(id));
    timers.delete(id);
    api.deleteItem(id, { keepalive }).then(
      () => c.dispatch({ type: 'removalDone', id }),
      (err: unknown) => {
        // Already gone (another tab removed it): what the person wanted.
        if (err instanceof ApiError && err.status === 404) return c.dispatch({ type: 'removalDone', id });
        refused(err, () => c.dispatch({ type: 'removalFailed', id, reason: reasonOf(err) }));
      },
    );
  }

  return {
    async load() {
      try {
        c.dispatch({ type: 'loaded', items: await api.fetchItems(appid) });
      } catch (err) {
        refused(err, () => c.dispatch({ type: 'loadFailed', reason: reasonOf(err) }));
      }
    },
    setUploading(busy) {
      c.dispatch({ type: 'uploading', busy });
    },
    reorder(activeId, overId) {
      const before = c.getState().items;
      c.dispatch({ type: 'reordered', activeId, overId });
      if (c.getState().items !== before) void saveOrder();
    },
    remove(id) {
      if (!inList(c.getState()) || timers.has(id)) return;
      c.dispatch({ type: 'removed', id });
      timers.set(
        id,
        env.setTimeout(() => commitRemoval(id, false), undoMs),
      );
    },
    undo(id) {
      if (!timers.has(id)) return;
      env.clearTimeout(timers.get(id));
      timers.delete(id);
      c.dispatch({ type: 'removalUndone', id });
      // A drop while the row was away saved an order without it.
      void saveOrder();
    },
    flushRemovals({ keepalive = false } = {}) {
      for (const id of [...timers.keys()]) commitRemoval(id, keepalive);
    },
    dismissNotice() {
      c.dispatch({ type: 'notice', text: null });
    },
  };
}
