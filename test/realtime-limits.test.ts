// The realtime port takes a connection only with the session cookie and an allowed Origin, and
// at most MAX_SOCKETS_PER_IP (50) at once from one address: a flood of cookieless or excess
// sockets is refused at the handshake, before it costs the server anything to keep.
import { io, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSession, startTestApp, type TestApp, type TestSession } from './support/server-harness.js';
import { TEST_ORIGIN } from './support/test-origin.js';

let app: TestApp;
let s: TestSession;
const sockets: Socket[] = [];

beforeAll(async () => {
  app = await startTestApp({ realtime: true, socketPort: 0 });
  s = await openSession(app.app);
});
afterAll(async () => {
  for (const socket of sockets) socket.close();
  await app?.dispose();
});

/** One connection attempt over a WebSocket: 'connected' or 'refused'. */
function attempt(headers: Record<string, string>): Promise<'connected' | 'refused'> {
  const socket = io(`http://127.0.0.1:${app.realtime.port}`, {
    path: '/socket.io',
    transports: ['websocket'],
    extraHeaders: headers,
    reconnection: false,
    forceNew: true,
  });
  sockets.push(socket);
  return new Promise((resolve) => {
    socket.once('connect', () => resolve('connected'));
    socket.once('connect_error', () => resolve('refused'));
    // A connection the server accepted, then closed for being one too many.
    socket.once('disconnect', () => resolve('refused'));
  });
}

const tally = (results: string[]) => ({
  connected: results.filter((r) => r === 'connected').length,
  refused: results.filter((r) => r === 'refused').length,
});

describe('realtime handshakes', () => {
  it('refuses 120 sockets without a cookie, and those with a foreign or no Origin', async () => {
    const cookieless = await Promise.all(Array.from({ length: 120 }, () => attempt({ Origin: TEST_ORIGIN })));
    expect(tally(cookieless)).toEqual({ connected: 0, refused: 120 });
    expect(await attempt({ Cookie: s.cookie, Origin: 'http://evil.example' })).toBe('refused');
    expect(await attempt({ Cookie: s.cookie })).toBe('refused');
    expect(await attempt({ Cookie: 'am_session=forged', Origin: TEST_ORIGIN })).toBe('refused');
  });

  it('takes at most 50 at once from one address, and room comes back as they close', async () => {
    const results = await Promise.all(
      Array.from({ length: 60 }, () => attempt({ Cookie: s.cookie, Origin: TEST_ORIGIN })),
    );
    // Give a refused-after-accept a moment to be told (it is closed right after its handshake).
    await new Promise((r) => setTimeout(r, 200));
    const open = sockets.filter((x) => x.connected);
    expect(tally(results).refused).toBeGreaterThanOrEqual(10);
    expect(open).toHaveLength(50);
    for (const x of open.slice(0, 5)) x.close();
    await new Promise((r) => setTimeout(r, 200));
    const again = await Promise.all(
      Array.from({ length: 6 }, () => attempt({ Cookie: s.cookie, Origin: TEST_ORIGIN })),
    );
    await new Promise((r) => setTimeout(r, 200));
    expect(tally(again).refused).toBeGreaterThanOrEqual(1);
    expect(sockets.filter((x) => x.connected)).toHaveLength(50);
  });
});
