// Retention: sessions idle longer than RETENTION_HOURS are deleted with their files, folders on
// disk that belong to no session (orphans.ts) are removed, and so are abandoned resumable uploads.
import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../../shared/clock.js';
import type { FileStorage } from './storage.js';
import type { Store } from '../data/store.js';
import type { DiskStorage } from './disk/disk-storage.js';
import { removeOrphanFolders } from './disk/orphans.js';
import type { TusUploads } from './tus-uploads.js';

export interface SweeperDeps {
  store: Store;
  files: Pick<FileStorage, 'removeSession'>;
  retentionHours: number;
  intervalMs: number;
  clock: Pick<Clock, 'now'>;
  log: Pick<FastifyBaseLogger, 'info' | 'warn' | 'error'>;
  /** Resumable uploads: one with no byte for RETENTION_HOURS, or whose session is gone, is removed. */
  tusUploads?: Pick<TusUploads, 'sweep'>;
  /** The local disk under DATA_DIR: its uploads/ and results/ folders that no session claims are removed. */
  disk?: Pick<DiskStorage, 'root'>;
}

export interface Sweeper {
  /** One pass (folders of no session, idle sessions, abandoned resumable uploads); resolves with the sids deleted. */
  sweepOnce(): Promise<string[]>;
  start(): void;
  stop(): void;
}

export function createSweeper(deps: SweeperDeps): Sweeper {
  const { store, files, log } = deps;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<string[]> | undefined;

  async function pass(): Promise<string[]> {
    const before = deps.clock.now() - deps.retentionHours * 3600_000;
    await sweepOrphanFolders();
    const deleted = await removeIdleSessions(before);
    await sweepTusUploads(before);
    return deleted;
  }

  async function sweepOrphanFolders(): Promise<void> {
    if (!deps.disk) return;
    const orphans = await removeOrphanFolders({ store, storage: deps.disk, clock: deps.clock }).catch(
      (err: unknown) => {
        log.error({ err }, 'sweep could not remove folders of sessions that no longer exist');
        return [];
      },
    );
    if (orphans.length > 0)
      log.info({ folders: orphans.length }, 'swept folders of sessions that no longer exist');
  }

  async function removeIdleSessions(before: number): Promise<string[]> {
    const deleted: string[] = [];
    for (const session of await store.idleSessions(before)) {
      // Look again: the session may have been used since the list was read.
      const fresh = await store.sessionBySid(session.sid);
      if (!fresh || fresh.lastSeenAt >= before) continue;
      try {
        await files.removeSession(session.sid);
        await store.deleteSession(session.sid);
        deleted.push(session.sid);
      } catch (err) {
        log.error({ err, sid: session.sid }, 'sweep could not delete a session');
      }
    }
    if (deleted.length > 0) log.info({ sessions: deleted.length }, 'swept idle sessions');
    return deleted;
  }

  async function sweepTusUploads(before: number): Promise<void> {
    if (!deps.tusUploads) return;
    try {
      const removed = await deps.tusUploads.sweep(
        before,
        async (sid) => (await store.sessionBySid(sid)) !== undefined,
      );
      if (removed > 0) log.info({ uploads: removed }, 'swept abandoned resumable uploads');
    } catch (err) {
      log.error({ err }, 'sweep could not remove abandoned resumable uploads');
    }
  }

  return {
    sweepOnce() {
      // One pass at a time; a timer tick during a long pass joins it.
      running ??= pass().finally(() => {
        running = undefined;
      });
      return running;
    },
    start() {
      if (timer || deps.intervalMs <= 0) return;
      timer = setInterval(() => {
        this.sweepOnce().catch((err) => log.error({ err }, 'sweep failed'));
      }, deps.intervalMs);
      timer.unref();
    },
    stop() {
      if (timer) clearInterval(timer);
      timer = undefined;
    },
  };
}
