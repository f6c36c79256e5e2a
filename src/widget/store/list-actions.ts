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
  /**
   * While true (the person is on the undo lines: pointer over them or focus in them) no undo
   * window runs out; false gives each waiting removal its whole window again.
   */
  holdRemovals(held: boolean): void;
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
  let held = false;

  function startWindow(id: string): void {
    env.clearTimeout(timers.get(id));
    timers.set(id, held ? undefined : env.setTimeout(() => commitRemoval(id, false), undoMs));
  }

  function forget(id: string): void {
    env.clearTimeout(timers.get(id));
    timers.delete(id);
    // The lines are gone with the last removal, so no leave will come to end the hold.
    if (timers.size === 0) held = false;
  }

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
    forget(id);
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
      startWindow(id);
    },
    undo(id) {
      if (!timers.has(id)) return;
      forget(id);
      c.dispatch({ type: 'removalUndone', id });
      // A drop while the row was away saved an order without it.
      void saveOrder();
    },
    holdRemovals(hold) {
      if (hold === held || (hold && timers.size === 0)) return;
      held = hold;
      for (const id of [...timers.keys()]) startWindow(id);
    },
    flushRemovals({ keepalive = false } = {}) {
      for (const id of [...timers.keys()]) commitRemoval(id, keepalive);
    },
    dismissNotice() {
      c.dispatch({ type: 'notice', text: null });
    },
  };
}
