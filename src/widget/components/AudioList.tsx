// The sortable list: vertical drags by pointer, touch or keyboard, spoken by file name.
import {
  DndContext,
  KeyboardSensor,
  PointerSensor,
  closestCenter,
  useSensor,
  useSensors,
  type Announcements,
  type DragEndEvent,
  type UniqueIdentifier,
} from '@dnd-kit/core';
import { restrictToParentElement, restrictToVerticalAxis } from '@dnd-kit/modifiers';
import { SortableContext, sortableKeyboardCoordinates, verticalListSortingStrategy } from '@dnd-kit/sortable';
import { useMemo, useRef } from 'react';
import type { AudioItem } from '../../shared/types.js';
import type { ListenHandler } from './RowPlayer.js';
import { SortableRow } from './SortableRow.js';

export interface AudioListProps {
  items: AudioItem[];
  titleId: string;
  onReorder: (activeId: string, overId: string) => void;
  onListen?: ListenHandler;
  listenInterval?: number;
}

const MODIFIERS = [restrictToVerticalAxis, restrictToParentElement];

export function AudioList({ items, titleId, onReorder, onListen, listenInterval }: AudioListProps) {
  const sensors = useSensors(
    // A few pixels of travel before a drag starts, so a tap on the handle or play still works.
    useSensor(PointerSensor, { activationConstraint: { distance: 5 } }),
    useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }),
  );

  // At the start of a drag the row is over its own place; saying so would cut "Picked up" short.
  const lastOver = useRef<UniqueIdentifier | null>(null);
  const accessibility = useMemo(() => {
    const name = (id: UniqueIdentifier) => items.find((i) => i.id === id)?.filename ?? 'The file';
    const pos = (id: UniqueIdentifier | undefined) => items.findIndex((i) => i.id === id) + 1;
    const n = items.length;
    const announcements: Announcements = {
      onDragStart: ({ active }) => {
        lastOver.current = active.id;
        return `Picked up ${name(active.id)}. It is at position ${pos(active.id)} of ${n}.`;
      },
      onDragOver: ({ active, over }) => {
        if ((over?.id ?? null) === lastOver.current) return undefined;
        lastOver.current = over?.id ?? null;
        return over ? `${name(active.id)} was moved to position ${pos(over.id)} of ${n}.` : `${name(active.id)} is no longer over the list.`;
      },
      onDragEnd: ({ active, over }) =>
        over ? `${name(active.id)} was dropped at position ${pos(over.id)} of ${n}.` : `${name(active.id)} was dropped.`,
      onDragCancel: ({ active }) => `Moving was cancelled. ${name(active.id)} stays at position ${pos(active.id)} of ${n}.`,
    };
    return {
      announcements,
      screenReaderInstructions: {
        draggable:
          'To move this file, press Space. Use the up and down arrow keys to change its position, ' +
          'Space again to drop it, or Escape to cancel.',
      },
    };
  }, [items]);

  const onDragEnd = ({ active, over }: DragEndEvent) => {
    if (over && active.id !== over.id) onReorder(String(active.id), String(over.id));
  };

  return (
    <DndContext
      sensors={sensors}
      collisionDetection={closestCenter}
      modifiers={MODIFIERS}
      accessibility={accessibility}
      onDragEnd={onDragEnd}
    >
      <SortableContext items={items.map((i) => i.id)} strategy={verticalListSortingStrategy}>
        <ol className="audio-merge-list" aria-labelledby={titleId}>
          {items.map((item, index) => (
            <SortableRow
              key={item.id}
              item={item}
              index={index}
              count={items.length}
              onListen={onListen}
              listenInterval={listenInterval}
            />
          ))}
        </ol>
      </SortableContext>
    </DndContext>
  );
}
