// Whether this browser knows the session has no cover, so a page need not ask GET cover only to be
// answered 404 again (the browser logs every such answer as an error). Without a mark (a first
// page, a cover set before the mark existed, storage refused) the widget asks.
const KEY = 'audio-merge:cover-set';

function storage(): Storage | null {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
}

/** False only when this browser knows the session has no cover. */
export function coverMaybeSet(): boolean {
  try {
    return storage()?.getItem(KEY) !== '0';
  } catch {
    return true;
  }
}

/** Note that the session's cover was set (true) or removed, or found missing (false). */
export function markCover(set: boolean): void {
  try {
    storage()?.setItem(KEY, set ? '1' : '0');
  } catch {
    // Refused: the next page asks the server instead.
  }
}
