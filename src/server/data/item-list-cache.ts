// getDataJson is asked far more often than a session's items change, and building 200 rows out of
// SQLite costs about 1.5 ms on this hardware: more than the rest of the request. So each
// session's lists are kept until that session's items change. Only this process writes the
// database, and items change only through addItem and deleteSession, so the cache cannot go stale.
import type { ItemRow, Store } from './store.js';

/** Sessions whose lists are kept at once; the least recently used go first. */
const MAX_SESSIONS = 2000;

export function withItemListCache<S extends Store>(store: S): S {
  const bySession = new Map<string, Map<string, readonly ItemRow[]>>();

  return {
    ...store,
    addItem(item: ItemRow) {
      store.addItem(item);
      bySession.delete(item.sid);
    },
    deleteSession(sid: string) {
      store.deleteSession(sid);
      bySession.delete(sid);
    },
    listItems(sid: string, appid: string): readonly ItemRow[] {
      let lists = bySession.get(sid);
      const hit = lists?.get(appid);
      if (lists && hit) {
        // Refresh the session's place in the least-recently-used order.
        bySession.delete(sid);
        bySession.set(sid, lists);
        return hit;
      }
      const rows = Object.freeze(store.listItems(sid, appid).map((r) => Object.freeze({ ...r })));
      if (!lists) {
        lists = new Map();
        bySession.set(sid, lists);
        if (bySession.size > MAX_SESSIONS) bySession.delete(bySession.keys().next().value as string);
      }
      lists.set(appid, rows);
      return rows;
    },
  };
}
