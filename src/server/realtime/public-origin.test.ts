// Behind a proxy the page's origin is the proxy's (PUBLIC_ORIGIN), not http://HOST:PORT: the
// app's realtime server accepts a browser from it, and still refuses any other site.
import { io as ioClient, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  openSession,
  startTestApp,
  type TestApp,
  type TestSession,
} from '../../../test/support/server-harness.js';

const PUBLIC = 'https://audio.example.com';
let t: TestApp;
let s: TestSession;
const sockets: Socket[] = [];

beforeAll(async () => {
  t = await startTestApp({ realtime: true, publicOrigins: [PUBLIC, 'https://second.example.org'] });
  s = await openSession(t.app);
});
afterAll(async () => {
  for (const socket of sockets) socket.close();
  await t.dispose();
});

function connect(transport: 'polling' | 'websocket', origin: string): Promise<string> {
  const socket = ioClient(`http://127.0.0.1:${t.realtime.port}`, {
    transports: [transport],
    extraHeaders: { Cookie: s.cookie, Origin: origin },
    reconnection: false,
  });
  sockets.push(socket);
  return new Promise((resolve) => {
    socket.once('connect', () => resolve('connected'));
    socket.once('connect_error', (err) => resolve(`refused: ${err.message}`));
  });
}

describe('realtime behind a proxy (PUBLIC_ORIGIN)', () => {
  for (const transport of ['polling', 'websocket'] as const) {
    it(`accepts a ${transport} connection from each public origin and refuses one from another site`, async () => {
      expect(await connect(transport, PUBLIC)).toBe('connected');
      expect(await connect(transport, 'https://second.example.org')).toBe('connected');
      expect(await connect(transport, 'https://evil.example')).toMatch(/^refused/);
      expect(await connect(transport, 'http://audio.example.com')).toMatch(/^refused/);
    });
  }
});
