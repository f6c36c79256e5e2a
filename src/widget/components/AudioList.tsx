// The sortable list: vertical drags by pointer, touch or keyboard, spoken by file name; the page
// scrolls while a row is dragged near the window's edges.
import {
  DndContext,
  KeyboardSensor,
  PointerSensor,
  closestCenter,
  useSensor,
  useSensors,
  type Announcements,
  type AutoScrollOptions,
  type DragEndEvent,
  type UniqueIdentifier,
} from '@dnd-kit/core';
import { restrictToParentElement, restrictToVerticalAxis } from '@dnd-kit/modifiers';
import { SortableContext, verticalListSortingStrategy } from '@dnd-kit/sortable';
import { useMemo, useRef } from 'react';
import type { AudioItem } from '../../shared/types.js';
import { t } from '../i18n/locale.js';
import { listKeyboardCoordinates } from './keyboard-moves.js';
import type { ListenHandler } from './RowPlayer.js';
import { SortableRow, type RowTitle, type RowTrim } from './SortableRow.js';

export interface AudioListProps {
  items: AudioItem[];
  titleId: string;
  hintId?: string;
  onReorder: (activeId: string, overId: string) => void;
  /** `byPointer`: a mouse or touch click, not a key. */
  onRemove: (id: string, byPointer?: boolean) => void;
  /** Trimming each row on its waveform; without it rows show no handles. */
  trim?: RowTrim;
  /** Each row's chapter title field; without it rows show none. */
  title?: RowTitle;
  onListen?: ListenHandler;
  listenInterval?: number;
}

const MODIFIERS = [restrictToVerticalAxis, restrictToParentElement];
/**
 * Scrolling starts when the dragged row comes within the outer fifth of the window and speeds up
 * towards the edge, up to 1,600 px a second (8 px every 5 ms): a 100-row list is crossed in a few seconds, and a
 * row can still be placed precisely near the edge.
 */
const AUTO_SCROLL: AutoScrollOptions = { threshold: { x: 0, y: 0.2 }, acceleration: 8, interval: 5 };

function useAnnouncements(items: AudioItem[]) {
  // At the start of a drag the row is over its own place; saying so would cut "Picked up" short.
  const lastOver = useRef<UniqueIdentifier | null>(null);
  return useMemo(() => {
    const name = (id: UniqueIdentifier) => items.find((i) => i.id === id)?.filename ?? t().someFile;
    const pos = (id: UniqueIdentifier | undefined) => items.findIndex((i) => i.id === id) + 1;
    const n = items.length;
    const announcements: Announcements = {
      onDragStart: ({ active }) => {
        lastOver.current = active.id;
        return t().pickedUp(name(active.id), pos(active.id), n);
      },
      onDragOver: ({ active, over }) => {
        if ((over?.id ?? null) === lastOver.current) return undefined;
        lastOver.current = over?.id ?? null;
        return over ? t().movedTo(name(active.id), pos(over.id), n) : t().offList(name(active.id));
      },
      onDragEnd: ({ active, over }) =>
        over ? t().droppedAt(name(active.id), pos(over.id), n) : t().dropped(name(active.id)),
      onDragCancel: ({ active }) => t().dragCancelled(name(active.id), pos(active.id), n),
    };
    return { announcements, screenReaderInstructions: { draggable: t().dragInstructions } };
  }, [items]);
}

/** Within this of a remove click, a click on another × is taken for the second half of a double click. */
export const SECOND_CLICK_MS = 500;

export function AudioList({
  items,
  titleId,
  hintId,
  onReorder,
  onRemove,
  trim,
  title,
  onListen,
  listenInterval,
}: AudioListProps) {
  const sensors = useSensors(
    // A few pixels of travel before a drag starts, so a click on the row or the player still works.
    useSensor(PointerSensor, { activationConstraint: { distance: 5 } }),
    useSensor(KeyboardSensor, { coordinateGetter: listKeyboardCoordinates }),
  );
  const accessibility = useAnnouncements(items);
  const listRef = useRef<HTMLOListElement>(null);

  const onDragEnd = ({ active, over }: DragEndEvent) => {
    if (over && active.id !== over.id) onReorder(String(active.id), String(over.id));
  };

  // The next row's × slides under the pointer: the second click of a double click on one × must
  // not remove that row too. Keys and clicks further apart still remove.
  const lastClick = useRef(-Infinity);
  // The button that had focus is gone with its row: focus the row that takes its place.
  const removeRow = (id: string, byPointer = false) => {
    if (byPointer) {
      const at = performance.now();
      const tooSoon = at - lastClick.current < SECOND_CLICK_MS;
      lastClick.current = at;
      if (tooSoon) return;
    }
    const index = items.findIndex((i) => i.id === id);
    const neighbour = items[index + 1] ?? items[index - 1];
    onRemove(id);
    const list = listRef.current;
    const root = list?.closest('.audio-merge-tool-view');
    setTimeout(() => {
      const row =
        neighbour &&
        Array.from(list?.children ?? []).find((r) => (r as HTMLElement).dataset.id === neighbour.id);
      const fallback = root?.querySelector<HTMLElement>('.audio-merge-removal:last-child button');
      ((row as HTMLElement | undefined) ?? fallback)?.focus();
    }, 0);
  };

  return (
    <DndContext
      sensors={sensors}
      collisionDetection={closestCenter}
      modifiers={MODIFIERS}
      accessibility={accessibility}
      autoScroll={AUTO_SCROLL}
      onDragEnd={onDragEnd}
    >
      <SortableContext items={items.map((i) => i.id)} strategy={verticalListSortingStrategy}>
        <ol ref={listRef} className="audio-merge-list" aria-labelledby={titleId}>
          {items.map((item, index) => (
            <SortableRow
              key={item.id}
              item={item}
              index={index}
              count={items.length}
              hintId={hintId}
              onRemove={removeRow}
              onListen={onListen}
              listenInterval={listenInterval}
              trim={trim}
              title={title}
            />
          ))}
        </ol>
      </SortableContext>
    </DndContext>
  );
}
