// The data a process works on, chosen by configuration: PostgreSQL or SQLite for rows, a bucket or
// DATA_DIR for files. DATA_DIR always holds this process's scratch area.
import { access } from 'node:fs/promises';
import path from 'node:path';
import type { AppConfig } from './config.js';
import { openCheckedSqliteStore } from './data/sqlite/db-check.js';
import { withItemListCache } from './data/sqlite/item-list-cache.js';
import { openPgStore } from './data/postgres/pg-store.js';
import type { Store } from './data/store.js';
import { createDiskStorage, type DiskStorage } from './files/disk/disk-storage.js';
import { createS3Objects } from './files/s3/s3-objects.js';
import { dropTeller, listenForDrops, type DropTeller } from './files/s3/copy-drops.js';
import { createLocalCopies, type LocalCopies } from './files/s3/local-copies.js';
import { createS3Storage } from './files/s3/s3-storage.js';
import type { FileStorage } from './files/storage.js';
import type { ReadinessCheck } from './http/routes/health.js';

export interface Backends {
  store: Store;
  /** Where uploads and results live. */
  files: FileStorage;
  /** DATA_DIR: the scratch area, and the files themselves when there is no bucket. */
  disk: DiskStorage;
  checks: ReadinessCheck[];
  close(): Promise<void>;
}

/** `log` hears of a SQLite check that ran out of time; a damaged SQLite file is refused (DatabaseDamagedError). */
export async function openBackends(
  config: AppConfig,
  log: { warn(obj: object, msg: string): void },
): Promise<Backends> {
  const disk = createDiskStorage(config.dataDir);
  // Any number of processes share PostgreSQL, so nothing of it may be cached in one of them;
  // SQLite is written by this process alone.
  const store = config.databaseUrl
    ? await openPgStore(config.databaseUrl)
    : withItemListCache(
        await openCheckedSqliteStore(
          path.join(disk.root, 'audio-merge.sqlite'),
          config.dbCheckTimeoutMs,
          log,
        ),
      );
  const objects = config.s3 ? createS3Objects(config.s3) : undefined;
  const copies = objects && config.role !== 'web' ? localCopiesOf(config, disk) : undefined;
  const drops = objects && config.redisUrl ? copyDropsOf(config.redisUrl, copies) : undefined;
  const files = objects
    ? createS3Storage(objects, config.dataDir, { copies, tellDropped: drops?.teller.tell })
    : disk;
  return {
    store,
    files,
    disk,
    checks: [
      { name: 'database', check: () => store.sessionBySid('readiness-probe') },
      { name: 'files', check: () => (objects ? objects.ping() : access(disk.root)) },
    ],
    async close() {
      drops?.close();
      copies?.close();
      objects?.close();
      await store.close();
    },
  };
}

/** A copy unused this long goes: long enough for a person to listen, reorder and merge again. */
const COPY_IDLE_MS = 30 * 60 * 1000;

/** Copies of uploads for a process that merges; they give way well before uploads would be refused for space. */
function localCopiesOf(config: AppConfig, disk: DiskStorage): LocalCopies | undefined {
  if (config.localCopiesBytes <= 0) return undefined;
  return createLocalCopies({
    dir: disk.scratchPath('local-copies'),
    maxBytes: config.localCopiesBytes,
    idleMs: COPY_IDLE_MS,
    reserveBytes: Math.max(4 * config.minFreeBytes, 256 * 1024 * 1024),
  });
}

/** With Redis, every process tells of the uploads it deletes, and a merging one drops its copies of what others delete. */
function copyDropsOf(
  redisUrl: string,
  copies: LocalCopies | undefined,
): { teller: DropTeller; close(): void } {
  const teller = dropTeller(redisUrl);
  const listener = copies ? listenForDrops(redisUrl, copies) : undefined;
  return {
    teller,
    close() {
      listener?.close();
      teller.close();
    },
  };
}
