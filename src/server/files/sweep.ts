// Retention: sessions idle longer than RETENTION_HOURS are deleted with their files.
import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../../shared/clock.js';
import type { FileStorage } from './storage.js';
import type { Store } from '../data/store.js';

export interface SweeperDeps {
  store: Store;
  files: Pick<FileStorage, 'removeSession'>;
  retentionHours: number;
  intervalMs: number;
  clock: Pick<Clock, 'now'>;
  log: Pick<FastifyBaseLogger, 'info' | 'warn' | 'error'>;
}

export interface Sweeper {
  /** One pass; resolves with the sids deleted. */
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
