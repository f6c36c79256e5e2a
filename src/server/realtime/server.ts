// Realtime: socket.io speaking the Laravel Echo protocol (docs/reference/realtime.md).
// Echo clients emit `subscribe`/`unsubscribe` {channel, auth}; broadcasts reach a channel's room as
// emit(event, channel, payload). A browser may join only the status channels of its own session.
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyBaseLogger } from 'fastify';
import { Server, type ServerOptions, type Socket } from 'socket.io';
import type { Broadcaster } from './broadcaster.js';
import { channelOf, mayJoin } from './channels.js';

/** The socket server; its broadcast reaches a channel's members as Echo expects: emit(event, channel, payload). */
export interface Realtime extends Broadcaster {
  /** The port actually listened on (useful when configured as 0). */
  readonly port: number;
  /** Connections open on this process now. */
  connections(): number;
  close(): Promise<void>;
}

export interface RealtimeOptions {
  host: string;
  port: number;
  /** The origins a handshake may come from (and CORS, with credentials); undefined is a client that sent none. */
  allowOrigin: (origin: string | undefined) => boolean;
  /** The sid owned by the browser whose handshake carried this Cookie header, or null. */
  sidForCookieHeader: (cookieHeader: string | undefined) => Promise<string | null> | string | null;
  log: FastifyBaseLogger;
  /** Connections open at once from one client address; more are refused at the handshake. */
  maxSocketsPerIp?: number;
  /** The client's address for a request (behind trusted proxies, the one they name); the socket's otherwise. */
  clientAddress?: (req: IncomingMessage) => string;
  /** Share rooms with other processes (the Redis adapter); alone when omitted. */
  adapter?: ServerOptions['adapter'];
  /**
   * What a new member of `channel` (owned by `sid`) is told at once, so it never waits for a
   * change that will not come; null for nothing.
   */
  welcome?: (
    channel: string,
    sid: string,
  ) => Promise<{ event: string; payload: Record<string, unknown> } | null>;
}

/** For apps built with realtime off (some tests). */
export const nullRealtime: Realtime = {
  broadcast() {},
  port: 0,
  connections: () => 0,
  async close() {},
};

/** docs/reference/realtime.md seed constant. */
const COMPRESSION_THRESHOLD = 1024;

export async function createRealtime(opts: RealtimeOptions): Promise<Realtime> {
  const http = createServer();
  /** Connections open per client address. */
  const open = new Map<string, number>();
  const maxPerAddress = opts.maxSocketsPerIp ?? Number.POSITIVE_INFINITY;
  const addressOf = (req: IncomingMessage) => opts.clientAddress?.(req) ?? req.socket.remoteAddress ?? '';
  const io = new Server(http, {
    path: '/socket.io',
    ...(opts.adapter ? { adapter: opts.adapter } : {}),
    allowEIO3: true,
    cors: { origin: (o, cb) => cb(null, opts.allowOrigin(o)), credentials: true },
    perMessageDeflate: { threshold: COMPRESSION_THRESHOLD },
    httpCompression: { threshold: COMPRESSION_THRESHOLD },
    // Clients only ever send small subscribe/unsubscribe messages.
    maxHttpBufferSize: 16 * 1024,
    // Every handshake is checked before a connection costs anything: CORS does not cover
    // WebSockets, so a foreign page (or none) is refused outright, and so is a client without a
    // session or one address holding too many connections already.
    allowRequest: (req, cb) => {
      const origin = req.headers.origin;
      if (!opts.allowOrigin(origin)) return cb('origin not allowed', false);
      if ((open.get(addressOf(req)) ?? 0) >= maxPerAddress) return cb('too many connections', false);
      Promise.resolve(opts.sidForCookieHeader(req.headers.cookie)).then(
        (sid) => cb(sid ? null : 'no session', Boolean(sid)),
        (err: unknown) => {
          opts.log.warn({ err }, 'realtime: session lookup failed');
          cb('no session', false);
        },
      );
    },
  });

  // Handshakes checked at once may all pass the count in allowRequest: it is settled here, one
  // connection at a time.
  io.engine.on(
    'connection',
    (raw: { request: IncomingMessage; close(): void; once(e: 'close', f: () => void): void }) => {
      const address = addressOf(raw.request);
      const n = (open.get(address) ?? 0) + 1;
      open.set(address, n);
      raw.once('close', () => {
        const left = (open.get(address) ?? 1) - 1;
        if (left > 0) open.set(address, left);
        else open.delete(address);
      });
      if (n > maxPerAddress) raw.close();
    },
  );

  async function sendWelcome(socket: Socket, channel: string, sid: string): Promise<void> {
    try {
      const welcome = await opts.welcome?.(channel, sid);
      if (welcome && socket.connected) socket.emit(welcome.event, channel, welcome.payload);
    } catch (err) {
      opts.log.warn({ err }, 'realtime: could not tell a new subscriber the current status');
    }
  }

  io.on('connection', (socket) => {
    const cookie = socket.handshake.headers.cookie;
    socket.on('subscribe', async (payload: unknown) => {
      const channel = channelOf(payload);
      if (channel === null) return;
      // The session is looked up per subscribe, so a session swept meanwhile is refused.
      let sid: string | null = null;
      try {
        sid = await opts.sidForCookieHeader(cookie);
      } catch (err) {
        opts.log.warn({ err }, 'realtime: session lookup failed');
      }
      if (!mayJoin(channel, sid)) {
        opts.log.info({ socket: socket.id }, 'realtime: subscription refused');
        socket.emit('subscription_error', channel, 403);
        return;
      }
      await socket.join(channel);
      await sendWelcome(socket, channel, sid as string);
    });
    socket.on('unsubscribe', (payload: unknown) => {
      const channel = channelOf(payload);
      if (channel !== null) void socket.leave(channel);
    });
  });

  try {
    await new Promise<void>((resolve, reject) => {
      http.once('error', reject);
      http.listen(opts.port, opts.host, () => {
        http.off('error', reject);
        resolve();
      });
    });
  } catch (err) {
    io.engine.close();
    throw err;
  }
  const port = (http.address() as AddressInfo).port;
  let closed: Promise<void> | undefined;

  return {
    port,
    connections: () => io.engine.clientsCount,
    broadcast(channel, event, payload) {
      io.to(channel).emit(event, channel, payload);
    },
    close() {
      // io.close() disconnects every socket, then closes the HTTP server.
      closed ??= new Promise<void>((resolve) => {
        void io.close(() => resolve());
      });
      return closed;
    },
  };
}
