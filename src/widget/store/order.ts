// The order of the list: moves by drag, by keyboard, and merging a fresh load into the order chosen.
import type { AudioItem } from '../../shared/types.js';

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
 * Items in `hidden` (removed, waiting for their undo window to pass) stay out.
 */
export function keepOrder(
  current: AudioItem[],
  loaded: AudioItem[],
  hidden: ReadonlySet<string> = new Set(),
): AudioItem[] {
  const visible = loaded.filter((i) => !hidden.has(i.id));
  const fresh = new Map(visible.map((i) => [i.id, i]));
  const kept = current.flatMap((i) => fresh.get(i.id) ?? []);
  const known = new Set(current.map((i) => i.id));
  return [...kept, ...visible.filter((i) => !known.has(i.id))];
}

/** `item` put back at `index` (or at the end when the list has shrunk below it). */
export function insertAt(items: AudioItem[], item: AudioItem, index: number): AudioItem[] {
  if (items.some((i) => i.id === item.id)) return items;
  const next = items.slice();
  next.splice(Math.min(Math.max(0, index), next.length), 0, item);
  return next;
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
