// Whether this browser set the session's cover, so a page without one never asks GET cover only
// to be answered 404 (the browser logs every such answer as an error). The session lives in this
// browser's cookie, so its cover can only have been set from here. Where storage is refused the
// widget asks, as it must.
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
    const s = storage();
    return s === null || s.getItem(KEY) === '1';
  } catch {
    return true;
  }
}

/** Note that the session's cover was set (true) or removed, or found missing (false). */
export function markCover(set: boolean): void {
  try {
    if (set) storage()?.setItem(KEY, '1');
    else storage()?.removeItem(KEY);
  } catch {
    // Refused: the next page asks the server instead.
  }
}
