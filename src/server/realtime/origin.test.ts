// Cross-site WebSocket hijacking: browsers do not apply CORS to WebSockets, so a foreign page could
// open one carrying the session cookie. The handshake itself must refuse a foreign Origin.
import { pino } from 'pino';
import { io as ioClient, type Socket } from 'socket.io-client';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createRealtime, type Realtime } from './server.js';

const OWN = 'http://127.0.0.1:3000';
let rt: Realtime;
const sockets: Socket[] = [];

beforeEach(async () => {
  rt = await createRealtime({
    host: '127.0.0.1',
    port: 0,
    allowOrigin: (o) => o === OWN,
    sidForCookieHeader: (h) => (h === 'session=alice' ? 'sidAlice' : null),
    log: pino({ level: 'silent' }),
  });
});
afterEach(async () => {
  for (const s of sockets.splice(0)) s.close();
  await rt.close();
});

/** Connects with these headers; resolves 'connected' or the connect_error message. */
function attempt(transport: 'polling' | 'websocket', headers: Record<string, string>): Promise<string> {
  const s = ioClient(`http://127.0.0.1:${rt.port}`, {
    path: '/socket.io',
    transports: [transport],
    extraHeaders: { Cookie: 'session=alice', ...headers },
    reconnection: false,
  });
  sockets.push(s);
  return new Promise((resolve) => {
    s.once('connect', () => resolve('connected'));
    s.once('connect_error', (err) => resolve(`refused: ${err.message}`));
  });
}

describe('realtime handshake origin', () => {
  for (const transport of ['polling', 'websocket'] as const) {
    it(`refuses a ${transport} handshake from a foreign Origin`, async () => {
      expect(await attempt(transport, { Origin: 'http://evil.example' })).toMatch(/^refused/);
      expect(await attempt(transport, { Origin: 'http://127.0.0.1:4000' })).toMatch(/^refused/);
    });

    it(`accepts a ${transport} handshake from the page's own origin only: none without Origin`, async () => {
      expect(await attempt(transport, { Origin: OWN })).toBe('connected');
      expect(await attempt(transport, {})).toMatch(/^refused/);
    });
  }
});
