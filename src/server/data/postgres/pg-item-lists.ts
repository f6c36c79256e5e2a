// getDataJson is asked far more often than a session's items change, and reading 200 rows from
// PostgreSQL costs more than the rest of the request. Any process may change the items, so a kept
// list is valid only while the session's items_version (bumped in the same transaction as every
// change) is the one it was read under: one single-row read per request instead of 200 rows, and
// none when the caller read the version with the session moments before, in the same request.
import type { ItemRow } from '../store.js';

/** Sessions whose lists are kept at once; the least recently used go first. */
const MAX_SESSIONS = 2000;

export interface ItemListCache {
  /** `seenVersion`: the version read with the session in this request, when there is one. */
  get(sid: string, appid: string, seenVersion?: number): Promise<readonly ItemRow[]>;
  forget(sid: string): void;
}

export function itemListCache(
  versionOf: (sid: string) => Promise<number | undefined>,
  read: (sid: string, appid: string) => Promise<ItemRow[]>,
): ItemListCache {
  const bySession = new Map<string, { version: number; lists: Map<string, readonly ItemRow[]> }>();
  return {
    async get(sid, appid, seenVersion) {
      // Read first: a change landing between this and the list leaves a newer list under an older
      // version, which the next request refreshes. Never the other way round. A version read with
      // the session of this request is as fresh: it was read after every change this browser saw end.
      const version = seenVersion ?? (await versionOf(sid));
      if (version === undefined) return [];
      let entry = bySession.get(sid);
      const hit = entry?.version === version ? entry.lists.get(appid) : undefined;
      if (entry) bySession.delete(sid);
      if (!entry || entry.version !== version) entry = { version, lists: new Map() };
      bySession.set(sid, entry);
      if (bySession.size > MAX_SESSIONS) bySession.delete(bySession.keys().next().value as string);
      if (hit) return hit;
      const rows = Object.freeze((await read(sid, appid)).map((r) => Object.freeze(r)));
      entry.lists.set(appid, rows);
      return rows;
    },
    forget(sid) {
      bySession.delete(sid);
    },
  };
}
