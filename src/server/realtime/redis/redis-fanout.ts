// Realtime across processes: web processes share socket.io rooms through the Redis adapter, and
// workers (which open no port) publish into those rooms with the Redis emitter. Each web process
// delivers a published event to its own sockets in the room, so a browser connected to any web
// process gets each event once. One publishing connection per process keeps a merge's events in
// order.
import { createAdapter } from '@socket.io/redis-adapter';
import { Emitter } from '@socket.io/redis-emitter';
import type { Redis } from 'ioredis';
import { openRedis } from '../../jobs/bullmq/redis-connection.js';

/** Shared by adapter and emitter: both must name the same Redis channels. */
const KEY = 'audio-merge-realtime';

export interface RedisAdapterHandle {
  /** For socket.io's `adapter` server option. */
  adapter: ReturnType<typeof createAdapter>;
  close(): void;
}

export async function redisAdapter(redisUrl: string): Promise<RedisAdapterHandle> {
  const pub: Redis = openRedis(redisUrl, 'audio-merge-realtime-pub');
  const sub: Redis = pub.duplicate({ connectionName: 'audio-merge-realtime-sub' });
  pub.on('error', () => undefined);
  sub.on('error', () => undefined);
  await Promise.all([pub.ping(), sub.ping()]);
  return {
    adapter: createAdapter(pub, sub, { key: KEY }),
    close() {
      pub.disconnect();
      sub.disconnect();
    },
  };
}

/** The Broadcaster for a process without socket.io of its own (a worker). */
export interface EmitterBroadcaster {
  /** As the socket.io server does it for Echo: emit(event, channel, payload) to the channel's room. */
  broadcast(channel: string, event: string, payload: Record<string, unknown>): void;
  close(): void;
}

export function emitterBroadcaster(redisUrl: string): EmitterBroadcaster {
  const redis: Redis = openRedis(redisUrl, 'audio-merge-realtime-emitter');
  redis.on('error', () => undefined);
  const emitter = new Emitter(redis, { key: KEY });
  return {
    broadcast(channel, event, payload) {
      emitter.to(channel).emit(event, channel, payload);
    },
    close() {
      redis.disconnect();
    },
  };
}
