// One row of the list (320x120 px): drag handle, position, file name, duration/format, player.
import { useSortable } from '@dnd-kit/sortable';
import { CSS } from '@dnd-kit/utilities';
import type { KeyboardEvent, PointerEvent } from 'react';
import type { AudioItem } from '../../shared/types.js';
import { itemMeta } from '../../shared/format.js';
import { RowPlayer, type ListenHandler } from './RowPlayer.js';
import { livePosition } from '../store/state.js';

export interface SortableRowProps {
  item: AudioItem;
  index: number;
  count: number;
  onListen?: ListenHandler;
  listenInterval?: number;
}

export function SortableRow({ item, index, count, onListen, listenInterval }: SortableRowProps) {
  const { attributes, listeners, setNodeRef, transform, transition, isDragging, activeIndex, overIndex } = useSortable({
    id: item.id,
    attributes: { role: 'listitem', roleDescription: 'sortable row' },
  });
  const meta = itemMeta(item);
  const position = livePosition(index, activeIndex, overIndex) + 1;

  // Space on the focused row lifts it; Space inside the player must still play and pause.
  const onKeyDown = (e: KeyboardEvent<HTMLLIElement>) => {
    if (e.target === e.currentTarget) listeners?.onKeyDown?.(e);
  };

  return (
    <li
      ref={setNodeRef}
      {...attributes}
      aria-label={`${item.filename}, position ${position} of ${count}`}
      className={isDragging ? 'audio-merge-row audio-merge-row--lifted' : 'audio-merge-row'}
      style={{ transform: CSS.Translate.toString(transform), transition }}
      onKeyDown={onKeyDown}
      data-id={item.id}
    >
      {/* Pointer drags start only on the handle, so seeking in the player never drags the row. */}
      <span className="audio-merge-handle" aria-hidden="true" title="Drag to reorder" onPointerDown={(e: PointerEvent<HTMLSpanElement>) => listeners?.onPointerDown?.(e)}>
        <svg viewBox="0 0 10 16" width="10" height="16" focusable="false">
          <circle cx="2" cy="2" r="1.5" /><circle cx="8" cy="2" r="1.5" />
          <circle cx="2" cy="8" r="1.5" /><circle cx="8" cy="8" r="1.5" />
          <circle cx="2" cy="14" r="1.5" /><circle cx="8" cy="14" r="1.5" />
        </svg>
      </span>
      <div className="audio-merge-row-body">
        <div className="audio-merge-row-head">
          <span className="audio-merge-position">{position}</span>
          <span className="audio-merge-filename" title={item.filename}>{item.filename}</span>
        </div>
        {meta && <span className="audio-merge-meta">{meta}</span>}
        <RowPlayer item={item} onListen={onListen} listenInterval={listenInterval} />
      </div>
    </li>
  );
}
