// The widget's state as a plain reducer, so its rules are tested without a browser (docs/api.md section 4).
import type { AudioItem } from '../../shared/types.js';

export interface WidgetState {
  /** true selects the progress view; there is no way back short of a reload. */
  showSpinner: boolean;
  items: AudioItem[];
  /** The status text: starts at "0", replaced by each NewStatus payload. */
  progress: string;
  /** Where the bar stands, 0-100; moved only by whole-number statuses. */
  percent: number;
}

export type WidgetAction =
  | { type: 'loaded'; items: AudioItem[] }
  | { type: 'reordered'; activeId: string; overId: string }
  | { type: 'makePressed' }
  | { type: 'status'; data: string };

export const initialState: WidgetState = { showSpinner: false, items: [], progress: '0', percent: 0 };

const WHOLE_NUMBER = /^\s*\d+\s*$/;

/** The bar position a status text stands for, or null when it is a message for a person. */
export function percentOf(text: string): number | null {
  if (!WHOLE_NUMBER.test(text)) return null;
  return Math.min(100, Math.max(0, Number.parseInt(text, 10)));
}

/** What the status line shows: a whole number as "N%", anything else as it came. */
export function statusLabel(progress: string): string {
  const p = percentOf(progress);
  return p === null ? progress : `${p}%`;
}

/** The list with the item `activeId` moved to where `overId` stands. */
export function moveItem(items: AudioItem[], activeId: string, overId: string): AudioItem[] {
  const from = items.findIndex((i) => i.id === activeId);
  const to = items.findIndex((i) => i.id === overId);
  if (from < 0 || to < 0 || from === to) return items;
  const next = items.slice();
  const [moved] = next.splice(from, 1);
  next.splice(to, 0, moved);
  return next;
}

/**
 * The list from a fresh load, keeping the order the person has already chosen: known items stay
 * where they were (with the fresh data), new ones join the end in the order loaded, gone ones go.
 */
export function keepOrder(current: AudioItem[], loaded: AudioItem[]): AudioItem[] {
  const fresh = new Map(loaded.map((i) => [i.id, i]));
  const kept = current.flatMap((i) => fresh.get(i.id) ?? []);
  const known = new Set(current.map((i) => i.id));
  return [...kept, ...loaded.filter((i) => !known.has(i.id))];
}

/**
 * Where the row at `index` lands if the drag in progress (activeIndex -> overIndex) is dropped now,
 * so the numbers follow the order on screen while dragging; -1 means no drag.
 */
export function livePosition(index: number, activeIndex: number, overIndex: number): number {
  if (activeIndex < 0 || overIndex < 0) return index;
  if (index === activeIndex) return overIndex;
  if (activeIndex < overIndex && index > activeIndex && index <= overIndex) return index - 1;
  if (overIndex < activeIndex && index >= overIndex && index < activeIndex) return index + 1;
  return index;
}

export function widgetReducer(state: WidgetState, action: WidgetAction): WidgetState {
  switch (action.type) {
    case 'loaded':
      return { ...state, items: keepOrder(state.items, action.items) };
    case 'reordered': {
      // The order is frozen once the merge has been asked for.
      if (state.showSpinner) return state;
      const items = moveItem(state.items, action.activeId, action.overId);
      return items === state.items ? state : { ...state, items };
    }
    case 'makePressed':
      return { ...state, showSpinner: true };
    case 'status': {
      const p = percentOf(action.data);
      return { ...state, progress: action.data, percent: p ?? state.percent };
    }
  }
}

/**
 * Items from the getDataJson answer: the JSON text of the item list. A body that is itself a
 * JSON string holding the list is accepted too.
 */
export function parseItems(text: string): AudioItem[] {
  let value: unknown = JSON.parse(text);
  if (typeof value === 'string') value = JSON.parse(value);
  if (!Array.isArray(value)) throw new Error('getDataJson: expected a list of items');
  return value.filter(
    (v): v is AudioItem =>
      typeof v === 'object' && v !== null && ['id', 'sid', 'newfilename', 'format', 'filename'].every((k) => k in v),
  ).map((v) => ({ ...v, id: String(v.id) }));
}
