import { describe, expect, it } from 'vitest';
import type { AudioItem } from '../../shared/types.js';
import { insertAt, keepOrder, livePosition, moveItem } from './order.js';

const item = (id: string, filename = `${id}.mp3`): AudioItem => ({
  id,
  sid: 's1',
  newfilename: `n${id}`,
  format: 'mp3',
  filename,
});
const abc = [item('a'), item('b'), item('c')];
const ids = (items: AudioItem[]) => items.map((i) => i.id);

describe('the order of the list', () => {
  it('moves the dragged item to where it was dropped', () => {
    expect(ids(moveItem(abc, 'c', 'a'))).toEqual(['c', 'a', 'b']);
    expect(ids(moveItem(moveItem(abc, 'c', 'a'), 'c', 'b'))).toEqual(['a', 'b', 'c']);
  });

  it('an unknown id or a drop in place leaves the order alone', () => {
    expect(moveItem(abc, 'a', 'zz')).toBe(abc);
    expect(moveItem(abc, 'b', 'b')).toBe(abc);
  });

  it('a reload keeps the order chosen: new items join the end, gone items leave', () => {
    const renamed = { ...item('a'), filename: 'fresh.mp3' };
    const next = keepOrder([item('c'), item('a'), item('b')], [renamed, item('c'), item('d'), item('e')]);
    expect(ids(next)).toEqual(['c', 'a', 'd', 'e']);
    expect(next[1].filename).toBe('fresh.mp3');
    expect(keepOrder([], abc)).toEqual(abc);
  });

  it('a removed row waiting for its undo window stays out of a reload', () => {
    expect(ids(keepOrder([item('a'), item('c')], abc, new Set(['b'])))).toEqual(['a', 'c']);
  });

  it('an undone removal comes back where it was, or at the end when the list has shrunk', () => {
    expect(ids(insertAt([item('a'), item('c')], item('b'), 1))).toEqual(['a', 'b', 'c']);
    expect(ids(insertAt([item('a')], item('b'), 5))).toEqual(['a', 'b']);
    expect(ids(insertAt(abc, item('b'), 0))).toEqual(['a', 'b', 'c']);
  });

  it('while dragging, the numbers follow where the rows would land', () => {
    // Dragging the last of four to the top: it becomes 0, the others shift down by one.
    expect([0, 1, 2, 3].map((i) => livePosition(i, 3, 0))).toEqual([1, 2, 3, 0]);
    // Dragging the first to the third place.
    expect([0, 1, 2, 3].map((i) => livePosition(i, 0, 2))).toEqual([2, 0, 1, 3]);
    // No drag: as they stand.
    expect([0, 1, 2].map((i) => livePosition(i, -1, -1))).toEqual([0, 1, 2]);
  });
});
