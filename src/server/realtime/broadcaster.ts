// The Broadcaster port: how anything in the server (the job events, above all) tells a channel's
// browsers something, without knowing the socket server. The socket.io server (server.ts)
// implements it; a worker process, which has no socket server, publishes through Redis
// (redis/redis-fanout.ts).

export interface Broadcaster {
  /** Send `event` with `payload` to the channel's members. */
  broadcast(channel: string, event: string, payload: Record<string, unknown>): void;
}

/** For a process that tells no one (realtime off). */
export const nullBroadcaster: Broadcaster = {
  broadcast() {},
};
