// Deleted uploads leave no local copy on any process: the process that deletes an upload object (a
// person's delete on a web process, the retention sweep) tells every other through Redis, and each
// merging process drops its copy at once rather than when it would have idled out (local-copies.ts).
import type { Redis } from 'ioredis';
import { openRedis } from '../../jobs/bullmq/redis-connection.js';
import type { LocalCopies } from './local-copies.js';

export const COPY_DROPS_CHANNEL = 'audio-merge:copy-drops';

/** What was deleted: one upload's object key, or every key under a session's prefix. */
export type Dropped = { key: string } | { prefix: string };

export interface DropTeller {
  tell(dropped: Dropped): Promise<void>;
  close(): void;
}

export function dropTeller(redisUrl: string): DropTeller {
  const redis = openRedis(redisUrl, 'audio-merge-copy-drops');
  return {
    async tell(dropped) {
      await redis.publish(COPY_DROPS_CHANNEL, JSON.stringify(dropped));
    },
    close: () => redis.disconnect(),
  };
}

function parse(message: string): Dropped | undefined {
  try {
    const d = JSON.parse(message) as Partial<{ key: unknown; prefix: unknown }>;
    if (typeof d.key === 'string') return { key: d.key };
    // An empty prefix would be every copy: never sent, and refused if it were.
    if (typeof d.prefix === 'string' && d.prefix.length > 0) return { prefix: d.prefix };
  } catch {
    // not ours
  }
  return undefined;
}

/**
 * Drop this process's copies of what other processes delete. Subscribes in the background (a
 * start must not wait for Redis; ioredis subscribes again after a reconnect); `ready` says when.
 */
export function listenForDrops(
  redisUrl: string,
  copies: LocalCopies,
): { ready: Promise<void>; close(): void } {
  const redis: Redis = openRedis(redisUrl, 'audio-merge-copy-drops-listen');
  redis.on('message', (_channel: string, message: string) => {
    const d = parse(message);
    if (d) void ('key' in d ? copies.drop(d.key) : copies.dropPrefix(d.prefix));
  });
  const ready = redis.subscribe(COPY_DROPS_CHANNEL).then(() => undefined);
  ready.catch(() => undefined);
  return { ready, close: () => redis.disconnect() };
}
