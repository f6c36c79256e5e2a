// Keyboard moves of a lifted row: the arrows as dnd-kit's sortable list has them, plus Home and
// End to the top and the bottom of the list.
import type { KeyboardCoordinateGetter } from '@dnd-kit/core';
import { sortableKeyboardCoordinates } from '@dnd-kit/sortable';

export const listKeyboardCoordinates: KeyboardCoordinateGetter = (event, args) => {
  if (event.code !== 'Home' && event.code !== 'End') return sortableKeyboardCoordinates(event, args);
  event.preventDefault();
  const { collisionRect, droppableRects, droppableContainers } = args.context;
  if (!args.active || !collisionRect) return undefined;
  const rects = droppableContainers.getEnabled().flatMap((c) => droppableRects.get(c.id) ?? []);
  if (rects.length === 0) return undefined;
  if (event.code === 'Home') {
    const top = Math.min(...rects.map((r) => r.top));
    return { x: collisionRect.left, y: top };
  }
  const last = rects.reduce((a, b) => (b.top > a.top ? b : a));
  // Aligned by its bottom edge, so a taller or shorter row still lands over the last place.
  return { x: collisionRect.left, y: last.top + last.height - collisionRect.height };
};
