// A stock laravel-echo client in Node, carrying a browser session's cookie, that records the
// NewStatus events of one channel. Used by the server's integration tests.
import Echo from 'laravel-echo';
import { io, type Socket } from 'socket.io-client';
import { TEST_ORIGIN } from './test-origin.js';

export interface StatusListener {
  /** Every `data` received on the channel, in order. */
  data: string[];
  /** Every payload received on the channel, in order (data, requestId, state, percent). */
  payloads: Array<{ data: string; requestId?: string | null; state?: string; percent?: number | null }>;
  /** Every subscription_error received: [channel, status]. */
  errors: Array<[string, number]>;
  /** Resolves once the server has handled the subscription (accepted or refused). */
  ready: Promise<void>;
  /** Resolves when an event satisfying `pred` has arrived (at once if one already has). */
  waitFor(pred: (data: string) => boolean): Promise<void>;
  close(): void;
}

export function listenStatus(
  port: number,
  cookie: string,
  channel: string,
  origin: string = TEST_ORIGIN,
): StatusListener {
  const echo = new Echo({
    broadcaster: 'socket.io',
    client: io,
    host: `http://127.0.0.1:${port}`,
    transports: ['polling', 'websocket'],
    withCredentials: true,
    // What a browser on the page sends; the server refuses handshakes without an allowed one.
    extraHeaders: { Cookie: cookie, Origin: origin },
    reconnectionDelay: 100,
    reconnectionDelayMax: 10_000,
  });
  const socket = (echo.connector as unknown as { socket: Socket }).socket;
  const data: string[] = [];
  const payloads: StatusListener['payloads'] = [];
  const errors: Array<[string, number]> = [];
  const waiters: Array<{ pred: (d: string) => boolean; resolve: () => void }> = [];
  socket.on('subscription_error', (ch: string, status: number) => errors.push([ch, status]));
  echo.channel(channel).listen('.NewStatus', (payload: StatusListener['payloads'][number]) => {
    data.push(payload.data);
    payloads.push(payload);
    for (const w of [...waiters]) {
      if (w.pred(payload.data)) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve();
      }
    }
  });
  // The server handles one socket's packets in order: once a refusal for a channel nobody owns
  // comes back, the channel subscription sent before it has been handled too.
  const marker = 'status-channel-marker-nobody';
  const ready = new Promise<void>((resolve) => {
    const onErr = (ch: string) => {
      if (ch !== marker) return;
      socket.off('subscription_error', onErr);
      errors.splice(
        errors.findIndex(([c]) => c === marker),
        1,
      );
      resolve();
    };
    socket.on('subscription_error', onErr);
    socket.emit('subscribe', { channel: marker });
  });
  return {
    data,
    payloads,
    errors,
    ready,
    waitFor(pred) {
      if (data.some(pred)) return Promise.resolve();
      return new Promise((resolve) => waiters.push({ pred, resolve }));
    },
    close: () => echo.disconnect(),
  };
}
