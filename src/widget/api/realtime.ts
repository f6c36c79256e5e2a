// Status subscription over socket.io, speaking the Laravel Echo protocol (docs/reference/realtime.md).
import { io, type Socket } from 'socket.io-client';
import { STATUS_EVENT } from '../../shared/types.js';
import { parseStatus, type MergeStatus } from '../store/status.js';

export type Subscribe = typeof subscribeStatus;

export interface StatusSubscription {
  /** Settles once the first subscribe has been sent (the socket connected). */
  readonly ready: Promise<void>;
  close(): void;
}

/** Seed constants of the realtime client (docs/reference/realtime.md). */
export function socketOptions() {
  return {
    path: '/socket.io',
    transports: ['polling', 'websocket'],
    reconnectionDelay: 100,
    reconnectionDelayMax: 10000,
    withCredentials: true,
  };
}

export function socketUrl(
  port: string,
  loc: Pick<Location, 'protocol' | 'hostname'> = window.location,
): string {
  return `${loc.protocol}//${loc.hostname}:${port}`;
}

export interface StatusHandlers {
  onStatus: (status: MergeStatus) => void;
  /** The socket lost the server; it keeps trying, and subscribes again when it is back. */
  onDisconnect?: () => void;
}

export function subscribeStatus(port: string, channel: string, handlers: StatusHandlers): StatusSubscription {
  const socket: Socket = io(socketUrl(port), socketOptions());
  let markReady: () => void = () => {};
  const ready = new Promise<void>((resolve) => (markReady = resolve));
  // Subscribe on every connect, so a reconnect re-joins the channel as Echo does.
  socket.on('connect', () => {
    socket.emit('subscribe', { channel, auth: { headers: {} } });
    markReady();
  });
  socket.on(STATUS_EVENT, (ch: string, payload: unknown) => {
    const status = ch === channel ? parseStatus(payload) : null;
    if (status) handlers.onStatus(status);
  });
  socket.on('disconnect', (reason: string) => {
    if (reason !== 'io client disconnect') handlers.onDisconnect?.();
  });
  return {
    ready,
    close() {
      if (socket.connected) socket.emit('unsubscribe', { channel });
      socket.disconnect();
    },
  };
}
