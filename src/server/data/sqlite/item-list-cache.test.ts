import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ItemRow, Store } from '../store.js';
import { withItemListCache } from './item-list-cache.js';
import { openSqliteStore } from './sqlite-store.js';
import { MemoryStore } from '../../../../test/support/memory-store.js';

const dirs: string[] = [];
const stores: Store[] = [];
afterEach(async () => {
  for (const s of stores.splice(0)) await s.close();
  dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true }));
});

async function open() {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'am-cache-'));
  dirs.push(dir);
  const store = withItemListCache(openSqliteStore(path.join(dir, 'db.sqlite')));
  stores.push(store);
  await store.createSession('h1', 's1', 'c1', 1);
  await store.createSession('h2', 's2', 'c2', 1);
  return store;
}

const item = (id: string, sid = 's1', appid = 'app'): ItemRow => ({
  id, sid, appid, newfilename: `n-${id}`, format: 'mp3', filename: `${id}.mp3`,
  size: 1, duration: 1, codec: 'mp3', sampleRate: 44100, channels: 2, createdAt: 1,
});
const ids = async (store: Store, sid = 's1', appid = 'app') => (await store.listItems(sid, appid)).map((i) => i.id);

describe('the item list cache in front of the store', () => {
  it('shows a newly uploaded item at once, in upload order', async () => {
    const store = await open();
    await store.addItemIfUnder(item('a'), 10);
    expect(await ids(store)).toEqual(['a']);
    await store.addItemIfUnder(item('b'), 10);
    expect(await ids(store)).toEqual(['a', 'b']);
  });

  it('answers a repeated read from the kept list, which callers cannot change', async () => {
    const store = await open();
    await store.addItemIfUnder(item('a'), 10);
    const first = await store.listItems('s1', 'app');
    expect(await store.listItems('s1', 'app')).toBe(first);
    expect(() => ((first[0] as ItemRow).filename = 'x')).toThrow();
  });

  it('keeps sessions and appids apart, and forgets a deleted session', async () => {
    const store = await open();
    await store.addItemIfUnder(item('a', 's1', 'app'), 10);
    await store.addItemIfUnder(item('b', 's2', 'app'), 10);
    await store.addItemIfUnder(item('c', 's1', 'other'), 10);
    expect(await ids(store, 's1', 'app')).toEqual(['a']);
    expect(await ids(store, 's2', 'app')).toEqual(['b']);
    expect(await ids(store, 's1', 'other')).toEqual(['c']);
    await store.deleteSession('s1');
    expect(await ids(store, 's1', 'app')).toEqual([]);
    expect(await ids(store, 's2', 'app')).toEqual(['b']);
  });

  it('shows a deleted item gone and a saved order at once', async () => {
    const store = await open();
    for (const id of ['a', 'b', 'c']) await store.addItemIfUnder(item(id), 10);
    expect(await ids(store)).toEqual(['a', 'b', 'c']);
    await store.saveOrder('s1', 'app', ['c', 'a', 'b']);
    expect(await ids(store)).toEqual(['c', 'a', 'b']);
    await store.deleteItem('s1', 'a');
    expect(await ids(store)).toEqual(['c', 'b']);
  });

  it('does not keep a list read while a write was under way', async () => {
    // A store whose reads answer late (as a database on the network may): the read sees the
    // table before the write, but answers after it.
    let release!: () => void;
    const late = new Promise<void>((r) => (release = r));
    const slow = new MemoryStore();
    const read = slow.listItems.bind(slow);
    slow.listItems = async (sid, appid) => {
      const rows = await read(sid, appid);
      await late;
      return rows;
    };
    const store = withItemListCache(slow);
    await store.createSession('h1', 's1', 'c1', 1);
    await store.addItemIfUnder(item('a'), 10);
    const reading = store.listItems('s1', 'app');
    await store.addItemIfUnder(item('b'), 10);
    release();
    expect((await reading).map((i) => i.id)).toEqual(['a']);
    expect(await ids(store)).toEqual(['a', 'b']);
  });

  it('a refused item leaves the kept list as it was', async () => {
    const store = await open();
    await store.addItemIfUnder(item('a'), 1);
    expect(await store.addItemIfUnder(item('b'), 1)).toBe(false);
    expect(await ids(store)).toEqual(['a']);
  });
});
