// getDataJson is asked far more often than a session's items change, and building 200 rows out of
// SQLite costs about 1.5 ms on this hardware: more than the rest of the request. So each
// session's lists are kept until that session's items change. Only this process writes the
// database, and items change only through the writes wrapped here (add, delete, saveOrder,
// saveItem, fixItemLength, deleteSession), so the cache cannot go stale. A read that overlaps a write is answered but
// not kept: the write may have landed after the read saw the table.
import type { ItemRow, Store } from '../store.js';

/** Sessions whose lists are kept at once; the least recently used go first. */
const MAX_SESSIONS = 2000;

export function withItemListCache(store: Store): Store {
  const bySession = new Map<string, Map<string, readonly ItemRow[]>>();
  /** Bumped on every write to any session's items: a count, so it stays small however many sessions come and go. */
  let writes = 0;

  const changed = (sid: string) => {
    bySession.delete(sid);
    writes++;
  };
  /** Run a write, then forget the session's lists (also when it fails half-way). */
  const writing = async <T>(sid: string, write: () => Promise<T>): Promise<T> => {
    changed(sid);
    try {
      return await write();
    } finally {
      changed(sid);
    }
  };

  function remember(sid: string, appid: string, rows: readonly ItemRow[]): void {
    let lists = bySession.get(sid);
    if (!lists) {
      lists = new Map();
      bySession.set(sid, lists);
      if (bySession.size > MAX_SESSIONS) bySession.delete(bySession.keys().next().value as string);
    }
    lists.set(appid, rows);
  }

  const overrides: Partial<Store> = {
    addItemIfUnder: (item, limit) => writing(item.sid, () => store.addItemIfUnder(item, limit)),
    deleteItem: (sid, id) => writing(sid, () => store.deleteItem(sid, id)),
    saveOrder: (sid, appid, ids) => writing(sid, () => store.saveOrder(sid, appid, ids)),
    saveItem: (sid, id, edit) => writing(sid, () => store.saveItem(sid, id, edit)),
    fixItemLength: (sid, id, duration) => writing(sid, () => store.fixItemLength(sid, id, duration)),
    deleteSession: (sid) => writing(sid, () => store.deleteSession(sid)),
    async listItems(sid, appid) {
      const lists = bySession.get(sid);
      const hit = lists?.get(appid);
      if (lists && hit) {
        // Refresh the session's place in the least-recently-used order.
        bySession.delete(sid);
        bySession.set(sid, lists);
        return hit;
      }
      const before = writes;
      const rows = Object.freeze((await store.listItems(sid, appid)).map((r) => Object.freeze({ ...r })));
      if (writes === before) remember(sid, appid, rows);
      return rows;
    },
  };

  // Everything else goes straight to the store (bound, so a class-based store keeps its `this`).
  return new Proxy(store, {
    get(target, key) {
      if (typeof key === 'string' && key in overrides) return overrides[key as keyof Store];
      const value: unknown = Reflect.get(target, key, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}
