// The headless store's core, in the shape of uppy's: state, dispatch, subscribe. Views read it
// with useSyncExternalStore; actions (list-actions.ts, merge-actions.ts) dispatch to it.
import type { Clock } from '../../shared/clock.js';
import { initialState, widgetReducer, type WidgetAction, type WidgetState } from './state.js';

export interface Container {
  getState(): WidgetState;
  dispatch(action: WidgetAction): void;
  /** Called after every change; returns the unsubscribe. */
  subscribe(listener: () => void): () => void;
}

export function createContainer(start: WidgetState = initialState): Container {
  let state = start;
  const listeners = new Set<() => void>();
  return {
    getState: () => state,
    dispatch(action) {
      const next = widgetReducer(state, action);
      if (next === state) return;
      state = next;
      for (const listener of [...listeners]) listener();
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

/** What actions need from the page: timers, reload, scrolling, ids, and the page being left. */
export interface WidgetEnv extends Pick<Clock, 'setTimeout' | 'clearTimeout'> {
  reload(): void;
  scrollToTop(): void;
  newRequestId(): string;
  /** Run `fn` when the person leaves the page; returns the unregister. */
  onLeave(fn: () => void): () => void;
  /** Marks kept for this tab's next page (the reload after a cancel): `take` reads one and forgets it. */
  carryOver: { mark(key: string): void; take(key: string): boolean };
}

function randomId(): string {
  // randomUUID exists only in secure contexts; a page served over plain http on a LAN is not one.
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, '0')).join(
    '',
  );
}

// Storage can be refused (a private window, a sandboxed frame): the mark is a nicety, never a failure.
function tabStorage(): Storage | null {
  try {
    return window.sessionStorage;
  } catch {
    return null;
  }
}

export const browserEnv: WidgetEnv = {
  reload: () => window.location.reload(),
  scrollToTop: () => window.scrollTo(0, 0),
  newRequestId: randomId,
  setTimeout: (fn, ms) => window.setTimeout(fn, ms),
  clearTimeout: (handle) => window.clearTimeout(handle as number),
  onLeave(fn) {
    window.addEventListener('pagehide', fn);
    return () => window.removeEventListener('pagehide', fn);
  },
  carryOver: {
    mark(key) {
      try {
        tabStorage()?.setItem(`audio-merge:${key}`, '1');
      } catch {
        // Full or refused: the next page just does not say it.
      }
    },
    take(key) {
      const storage = tabStorage();
      const marked = storage?.getItem(`audio-merge:${key}`) === '1';
      if (marked) storage?.removeItem(`audio-merge:${key}`);
      return marked;
    },
  },
};
