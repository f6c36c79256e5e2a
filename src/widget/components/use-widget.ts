// React's view of the headless store.
import { useSyncExternalStore } from 'react';
import type { WidgetState } from '../store/state.js';
import type { WidgetStore } from '../store/widget-store.js';

export function useWidgetState(store: WidgetStore): WidgetState {
  return useSyncExternalStore(store.subscribe, store.getState, store.getState);
}
