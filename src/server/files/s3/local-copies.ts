// A merging process's own copies of upload objects, on its local disk, so a merge reads from the
// bucket only what this process has not already held: an upload it stored itself (ROLE=all) or
// one it merged before (a person merges, listens, reorders and merges again). An upload object
// never changes under its key (names are random and never reused), so a copy is right or absent,
// never stale. Copies are hard links: a merge's scratch folder links the copy (no bytes copied),
// and a copy that goes (evicted, dropped) leaves a running merge's link whole, so nothing pins.
// Copies live in the scratch area, which every start clears; they go when their object is
// deleted here, when idle for `idleMs`, when over `maxBytes`, and before the disk gets low.
import { link, mkdir, rename, stat, unlink } from 'node:fs/promises';
import path from 'node:path';
import { systemClock, type Clock } from '../../../shared/clock.js';
import { statfsFreeSpace, type FreeSpace } from '../disk-space.js';

export interface LocalCopies {
  /** Take `file` (object `key`'s exact bytes) in as the copy; the file is gone from where it was either way. */
  adopt(key: string, file: string): Promise<void>;
  /** Keep a copy of `file` (object `key`'s exact bytes) as a hard link; the file stays. */
  keep(key: string, file: string): Promise<void>;
  /** Hard-link the copy of `key` at `target`; false when there is none (nothing is then created). */
  linkTo(key: string, target: string): Promise<boolean>;
  drop(key: string): Promise<void>;
  /** Drop every copy whose key starts with `prefix` (a session's). */
  dropPrefix(prefix: string): Promise<void>;
  /** Stop the idle sweep (the copies stay until the next start clears the scratch area). */
  close(): void;
}

export interface LocalCopiesOptions {
  /** A folder in the scratch area, on the same file system as the merges' scratch folders. */
  dir: string;
  maxBytes: number;
  /** A copy not used for this long is removed. */
  idleMs: number;
  /** Copies are given up before the disk's free space would fall below this. */
  reserveBytes: number;
  freeSpace?: FreeSpace;
  clock?: Clock;
}

interface Copy {
  file: string;
  size: number;
  usedAt: number;
}

/** A copy's file name: the key with its slashes swapped (keys hold only [A-Za-z0-9_.-/]). */
const fileNameOf = (key: string) => key.replaceAll('/', '+');

export function createLocalCopies(opts: LocalCopiesOptions): LocalCopies {
  const clock = opts.clock ?? systemClock;
  const freeSpace = opts.freeSpace ?? statfsFreeSpace;
  /** In order of last use, the least recent first. */
  const copies = new Map<string, Copy>();
  let held = 0;

  const forget = (key: string): Copy | undefined => {
    const copy = copies.get(key);
    if (!copy) return undefined;
    copies.delete(key);
    held -= copy.size;
    return copy;
  };
  const remove = async (key: string) => {
    const copy = forget(key);
    if (copy) await unlink(copy.file).catch(() => undefined);
  };
  const touch = (key: string, copy: Copy) => {
    copies.delete(key);
    copy.usedAt = clock.now();
    copies.set(key, copy);
  };

  async function expireIdle(): Promise<void> {
    const before = clock.now() - opts.idleMs;
    for (const [key, copy] of copies) {
      if (copy.usedAt >= before) break;
      await remove(key);
    }
  }

  /**
   * Room for a copy of `size` bytes (a file already on the disk, moved or linked in): the least
   * recently used copies go first. False when there is none.
   */
  async function makeRoom(size: number): Promise<boolean> {
    if (size > opts.maxBytes) return false;
    for (const key of copies.keys()) {
      if (held + size <= opts.maxBytes) break;
      await remove(key);
    }
    let free = await freeSpace(opts.dir).catch(() => Number.POSITIVE_INFINITY);
    for (const [key, copy] of copies) {
      if (free >= opts.reserveBytes) break;
      await remove(key);
      free += copy.size;
    }
    return free >= opts.reserveBytes;
  }

  /** Put `file` in as the copy of `key` by `place` (rename or link); false when it was not kept. */
  async function takeIn(
    key: string,
    file: string,
    place: (from: string, to: string) => Promise<void>,
  ): Promise<boolean> {
    if (opts.maxBytes <= 0 || copies.has(key)) return false;
    await expireIdle();
    const { size } = await stat(file);
    if (!(await makeRoom(size))) return false;
    await mkdir(opts.dir, { recursive: true });
    const target = path.join(opts.dir, fileNameOf(key));
    try {
      await place(file, target);
    } catch {
      // Another file system (EXDEV), or links not allowed: no copy.
      return false;
    }
    if (copies.has(key)) return true; // kept meanwhile by another merge: the same bytes
    copies.set(key, { file: target, size, usedAt: clock.now() });
    held += size;
    return true;
  }

  const sweep = setInterval(
    () => void expireIdle().catch(() => undefined),
    Math.max(60_000, opts.idleMs / 2),
  );
  sweep.unref();

  return {
    async adopt(key, file) {
      if (!(await takeIn(key, file, rename).catch(() => false))) await unlink(file).catch(() => undefined);
    },
    async keep(key, file) {
      await takeIn(key, file, link).catch(() => false);
    },
    async linkTo(key, target) {
      const copy = copies.get(key);
      if (!copy) return false;
      try {
        await link(copy.file, target);
      } catch (err) {
        // The copy's file is gone (a scratch area cleared): forget it and fetch the object.
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') forget(key);
        return false;
      }
      touch(key, copy);
      return true;
    },
    drop: remove,
    async dropPrefix(prefix) {
      for (const key of [...copies.keys()]) if (key.startsWith(prefix)) await remove(key);
    },
    close() {
      clearInterval(sweep);
    },
  };
}
