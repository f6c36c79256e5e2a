// Retention: sessions idle longer than RETENTION_HOURS are deleted with their files, and folders
// that belong to no session (orphans.ts) are removed. Every path is
// checked to lie under DATA_DIR (after resolving links of its parent), and links are removed,
// never followed.
import { lstat, realpath, rm } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import { isInside, type DiskStorage } from './storage.js';
import type { Store } from '../data/store.js';
import { removeOrphanFolders } from './orphans.js';

export interface SweeperDeps {
  store: Store;
  storage: DiskStorage;
  retentionHours: number;
  intervalMs: number;
  now: () => number;
  log: Pick<FastifyBaseLogger, 'info' | 'warn' | 'error'>;
}

export interface Sweeper {
  /** One pass (folders of no session, then idle sessions); resolves with the sids deleted. */
  sweepOnce(): Promise<string[]>;
  start(): void;
  stop(): void;
}

/**
 * Remove `dir` when it is safely inside `root`: its parent, links resolved, must be inside the
 * real root; a link in its place is unlinked, not followed (rm does not follow links inside).
 */
export async function removeInside(root: string, dir: string): Promise<boolean> {
  const realRoot = await realpath(root);
  const parent = await realpath(path.dirname(dir)).catch(() => undefined);
  if (!parent) return false;
  const target = path.join(parent, path.basename(dir));
  if (!isInside(realRoot, target) || target === realRoot || parent === path.parse(parent).root) {
    throw new Error(`Refusing to delete ${dir}: it is not inside ${root}`);
  }
  const info = await lstat(target).catch(() => undefined);
  if (!info) return false;
  await rm(target, { recursive: info.isDirectory(), force: true });
  return true;
}

export function createSweeper(deps: SweeperDeps): Sweeper {
  const { store, storage, log } = deps;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<string[]> | undefined;

  async function pass(): Promise<string[]> {
    const orphans = await removeOrphanFolders({ store, storage, now: deps.now }).catch((err: unknown) => {
      log.error({ err }, 'sweep could not remove folders of sessions that no longer exist');
      return [];
    });
    if (orphans.length > 0) log.info({ folders: orphans.length }, 'swept folders of sessions that no longer exist');
    return removeIdleSessions();
  }

  async function removeIdleSessions(): Promise<string[]> {
    const before = deps.now() - deps.retentionHours * 3600_000;
    const deleted: string[] = [];
    for (const session of store.idleSessions(before)) {
      // Look again: the session may have been used since the list was read.
      const fresh = store.sessionBySid(session.sid);
      if (!fresh || fresh.lastSeenAt >= before) continue;
      try {
        for (const dir of storage.sessionDirs(session.sid)) await removeInside(storage.root, dir);
        store.deleteSession(session.sid);
        deleted.push(session.sid);
      } catch (err) {
        log.error({ err, sid: session.sid }, 'sweep could not delete a session');
      }
    }
    if (deleted.length > 0) log.info({ sessions: deleted.length }, 'swept idle sessions');
    return deleted;
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
