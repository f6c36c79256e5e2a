import { describe, expect, it } from 'vitest';
import type { AudioItem } from '../../shared/types.js';
import { initialState, keepOrder, livePosition, moveItem, parseItems, percentOf, statusLabel, widgetReducer } from './state.js';

const item = (id: string, filename = `${id}.mp3`): AudioItem => ({ id, sid: 's1', newfilename: `n${id}`, format: 'mp3', filename });
const abc = [item('a'), item('b'), item('c')];

describe('widget state', () => {
  it('starts in the list view with progress text "0"', () => {
    expect(initialState).toEqual({ showSpinner: false, items: [], progress: '0', percent: 0 });
  });

  it('loaded replaces the items in the order given', () => {
    const s = widgetReducer(initialState, { type: 'loaded', items: abc });
    expect(s.items.map((i) => i.id)).toEqual(['a', 'b', 'c']);
  });

  it('a reload keeps the order chosen: new items join the end, gone items leave', () => {
    const chosen = widgetReducer({ ...initialState, items: abc }, { type: 'reordered', activeId: 'c', overId: 'a' });
    const renamed = { ...item('a'), filename: 'fresh.mp3' };
    const s = widgetReducer(chosen, { type: 'loaded', items: [renamed, item('c'), item('d'), item('e')] });
    expect(s.items.map((i) => i.id)).toEqual(['c', 'a', 'd', 'e']);
    expect(s.items[1].filename).toBe('fresh.mp3');
    expect(keepOrder([], abc)).toEqual(abc);
  });

  it('reordering moves the dragged item to where it was dropped', () => {
    const s = widgetReducer({ ...initialState, items: abc }, { type: 'reordered', activeId: 'c', overId: 'a' });
    expect(s.items.map((i) => i.id)).toEqual(['c', 'a', 'b']);
    const t = widgetReducer(s, { type: 'reordered', activeId: 'c', overId: 'b' });
    expect(t.items.map((i) => i.id)).toEqual(['a', 'b', 'c']);
  });

  it('an unknown id or a drop in place leaves the order alone', () => {
    expect(moveItem(abc, 'a', 'zz')).toBe(abc);
    expect(moveItem(abc, 'b', 'b')).toBe(abc);
  });

  it('make moves to the progress view and freezes the order', () => {
    const s = widgetReducer({ ...initialState, items: abc }, { type: 'makePressed' });
    expect(s.showSpinner).toBe(true);
    expect(s.progress).toBe('0');
    const t = widgetReducer(s, { type: 'reordered', activeId: 'c', overId: 'a' });
    expect(t.items.map((i) => i.id)).toEqual(['a', 'b', 'c']);
  });

  it('a whole-number status moves the bar; a message is shown and leaves the bar', () => {
    let s = widgetReducer({ ...initialState, showSpinner: true }, { type: 'status', data: '42' });
    expect(s).toMatchObject({ progress: '42', percent: 42 });
    s = widgetReducer(s, { type: 'status', data: 'Joining chapter.mp3' });
    expect(s).toMatchObject({ progress: 'Joining chapter.mp3', percent: 42 });
    s = widgetReducer(s, { type: 'status', data: '12.5' });
    expect(s).toMatchObject({ progress: '12.5', percent: 42 });
    s = widgetReducer(s, { type: 'status', data: '100' });
    expect(s).toMatchObject({ progress: '100', percent: 100 });
  });

  it('the status line shows a whole number as a percentage', () => {
    expect(statusLabel('0')).toBe('0%');
    expect(statusLabel('73')).toBe('73%');
    expect(statusLabel('bad.wav is not audio')).toBe('bad.wav is not audio');
    expect(percentOf('250')).toBe(100);
    expect(percentOf('-3')).toBeNull();
  });

  it('parses the item list from the JSON text, also when it is a JSON string', () => {
    const text = JSON.stringify(abc);
    expect(parseItems(text)).toEqual(abc);
    expect(parseItems(JSON.stringify(text))).toEqual(abc);
    expect(() => parseItems('{"error":"x"}')).toThrow(/list/);
    expect(parseItems('[{"id":7,"sid":"s","newfilename":"n","format":"wav","filename":"f.wav"},{"x":1}]')).toEqual([
      { id: '7', sid: 's', newfilename: 'n', format: 'wav', filename: 'f.wav' },
    ]);
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
