// Folders under DATA_DIR/uploads and DATA_DIR/results are named after a session's sid. One whose
// session row is gone (a lost or replaced database, a crash between deleting files and the row)
// would stay on disk for ever, since the retention sweep only walks rows; this finds and removes them.
// Only those two areas: DATA_DIR/tus/ (resumable uploads) has its own sweep, and tmp/ is scratch.
import { lstat, readdir } from 'node:fs/promises';
import path from 'node:path';
import type { Clock } from '../../../shared/clock.js';
import type { Store } from '../../data/store.js';
import type { DiskStorage } from './disk-storage.js';
import { removeInside } from './remove-inside.js';

/**
 * A folder younger than this is left alone even without a row: its session may be being made or
 * deleted right now (the row and the folder are never written in one step).
 */
export const ORPHAN_MIN_AGE_MS = 60 * 60 * 1000;

export interface OrphanSweepDeps {
  store: Pick<Store, 'sessionBySid'>;
  storage: Pick<DiskStorage, 'root'>;
  clock: Pick<Clock, 'now'>;
  minAgeMs?: number;
}

/** Removes the entries of uploads/ and results/ that no session row claims; resolves with their paths. */
export async function removeOrphanFolders(deps: OrphanSweepDeps): Promise<string[]> {
  const minAge = deps.minAgeMs ?? ORPHAN_MIN_AGE_MS;
  const removed: string[] = [];
  for (const base of ['uploads', 'results'].map((area) => path.join(deps.storage.root, area))) {
    const names = await readdir(base).catch(() => [] as string[]);
    for (const name of names) {
      const entry = path.join(base, name);
      // lstat: a link is judged (and removed) as itself, never by what it points at.
      const info = await lstat(entry).catch(() => undefined);
      if (!info || deps.clock.now() - info.mtimeMs < minAge) continue;
      if (await deps.store.sessionBySid(name)) continue;
      if (await removeInside(deps.storage.root, entry)) removed.push(entry);
    }
  }
  return removed;
}
