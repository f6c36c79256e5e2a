// Realtime: socket.io speaking the Laravel Echo protocol (CONTRACT section 5).
// STUB: the jobs/realtime engineer replaces the body; the signatures are fixed.
import type { FastifyBaseLogger } from 'fastify';

export interface Realtime {
  /** Send `event` to the channel's members as Echo expects: emit(event, channel, payload). */
  broadcast(channel: string, event: string, payload: Record<string, unknown>): void;
  /** The port actually listened on (useful when configured as 0). */
  readonly port: number;
  close(): Promise<void>;
}

export interface RealtimeOptions {
  host: string;
  port: number;
  /** CORS: the app's own origin(s), with credentials. */
  allowOrigin: (origin: string | undefined) => boolean;
  /** The sid owned by the browser whose handshake carried this Cookie header, or null. */
  sidForCookieHeader: (cookieHeader: string | undefined) => string | null;
  log: FastifyBaseLogger;
}

/** For apps built with realtime off (some tests). */
export const nullRealtime: Realtime = {
  broadcast() {},
  port: 0,
  async close() {},
};

export async function createRealtime(_opts: RealtimeOptions): Promise<Realtime> {
  return nullRealtime;
}
