// For each test: a disk storage and its SQLite store in a folder of their own, beside a folder of
// someone else's that nothing may touch (outside/keep.txt).
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach } from 'vitest';
import { openSqliteStore } from '../../src/server/data/sqlite/sqlite-store.js';
import type { Store } from '../../src/server/data/store.js';
import { createDiskStorage, type DiskStorage } from '../../src/server/files/disk/disk-storage.js';
import { tempDir } from './audio-fixtures.js';

export interface DiskScratch {
  /** The test's folder: the storage under data/, the outside folder beside it. */
  root: string;
  storage: DiskStorage;
  store: Store;
  /** A folder that is not the storage's, holding keep.txt. */
  outside: string;
}

/** Made before each test and removed after it; read its fields inside the tests. */
export function diskScratch(prefix: string): DiskScratch {
  const scratch = {} as DiskScratch;
  let cleanup: (() => Promise<void>) | undefined;
  beforeEach(async () => {
    const made = await tempDir(prefix);
    cleanup = made.cleanup;
    scratch.root = made.dir;
    scratch.storage = createDiskStorage(path.join(made.dir, 'data'));
    scratch.store = openSqliteStore(path.join(scratch.storage.root, 'audio-merge.sqlite'));
    scratch.outside = path.join(made.dir, 'outside');
    await mkdir(scratch.outside);
    await writeFile(path.join(scratch.outside, 'keep.txt'), 'not ours');
  });
  afterEach(async () => {
    await scratch.store.close();
    await cleanup?.();
  });
  return scratch;
}
