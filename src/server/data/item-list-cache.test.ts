import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ItemRow } from './store.js';
import { withItemListCache } from './item-list-cache.js';
import { openSqliteStore } from './sqlite-store.js';

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));

function open() {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'am-cache-'));
  dirs.push(dir);
  const store = withItemListCache(openSqliteStore(path.join(dir, 'db.sqlite')));
  store.createSession('h1', 's1', 'c1', 1);
  store.createSession('h2', 's2', 'c2', 1);
  return store;
}

const item = (id: string, sid = 's1', appid = 'app'): ItemRow => ({
  id, sid, appid, newfilename: `n-${id}`, format: 'mp3', filename: `${id}.mp3`,
  size: 1, duration: 1, codec: 'mp3', sampleRate: 44100, channels: 2, createdAt: 1,
});

describe('the item list cache in front of the store', () => {
  it('shows a newly uploaded item at once, in upload order', () => {
    const store = open();
    store.addItem(item('a'));
    expect(store.listItems('s1', 'app').map((i) => i.id)).toEqual(['a']);
    store.addItem(item('b'));
    expect(store.listItems('s1', 'app').map((i) => i.id)).toEqual(['a', 'b']);
  });

  it('answers a repeated read from the kept list, which callers cannot change', () => {
    const store = open();
    store.addItem(item('a'));
    const first = store.listItems('s1', 'app');
    expect(store.listItems('s1', 'app')).toBe(first);
    expect(() => ((first[0] as ItemRow).filename = 'x')).toThrow();
  });

  it('keeps sessions and appids apart, and forgets a deleted session', () => {
    const store = open();
    store.addItem(item('a', 's1', 'app'));
    store.addItem(item('b', 's2', 'app'));
    store.addItem(item('c', 's1', 'other'));
    expect(store.listItems('s1', 'app').map((i) => i.id)).toEqual(['a']);
    expect(store.listItems('s2', 'app').map((i) => i.id)).toEqual(['b']);
    expect(store.listItems('s1', 'other').map((i) => i.id)).toEqual(['c']);
    store.deleteSession('s1');
    expect(store.listItems('s1', 'app')).toEqual([]);
    expect(store.listItems('s2', 'app').map((i) => i.id)).toEqual(['b']);
  });
});
