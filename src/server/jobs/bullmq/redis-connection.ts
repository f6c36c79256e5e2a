// Redis connections for the merge queue and realtime fan-out, and the start-up check that Redis
// will never evict a key: with any other maxmemory-policy a full Redis silently drops queued
// merges and job locks.
import { Redis } from 'ioredis';
import type { ErrorCode } from '../../errors.js';

/** The options BullMQ needs on every connection: commands wait out a reconnect rather than fail. */
export function openRedis(url: string, name: string): Redis {
  return new Redis(url, {
    connectionName: name,
    maxRetriesPerRequest: null,
    enableReadyCheck: true,
    // Back off from 100 ms to 2 s while Redis restarts; never give up.
    retryStrategy: (times) => Math.min(100 * 2 ** Math.min(times, 5), 2000),
  });
}

/** Redis may evict keys: refused at start-up (the operator's message says what to set). */
export class RedisPolicyError extends Error {
  override name = 'RedisPolicyError';
  readonly code = 'redis-policy' satisfies ErrorCode;
}

/** Throws unless Redis reports maxmemory-policy noeviction (INFO works where CONFIG is disabled). */
export async function checkNoEviction(redis: Redis): Promise<void> {
  const info = await redis.info('memory');
  const policy = /^maxmemory_policy:(\S+)/m.exec(info)?.[1];
  if (policy !== 'noeviction') {
    throw new RedisPolicyError(
      `Redis maxmemory-policy is "${policy ?? 'unknown'}"; the merge queue needs "noeviction" ` +
        '(set maxmemory-policy noeviction in redis.conf), or queued merges can be silently lost',
    );
  }
}
