import { request } from 'node:http';
import Echo from 'laravel-echo';
import { pino } from 'pino';
import { io as ioClient, type Socket } from 'socket.io-client';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { statusChannel } from '../../shared/types.js';
import { createRealtime, type Realtime } from './server.js';

// A fake session table: cookie "session=<secret>" owns the sid mapped here.
const sessions: Record<string, string> = { alice: 'sidAlice', bob: 'sidBob' };
function sidForCookieHeader(header: string | undefined): string | null {
  const secret = /(?:^|;\s*)session=([^;]+)/.exec(header ?? '')?.[1];
  return secret ? (sessions[secret] ?? null) : null;
}

let rt: Realtime;
const clients: Array<{ close(): void }> = [];

beforeEach(async () => {
  rt = await createRealtime({
    host: '127.0.0.1',
    port: 0,
    allowOrigin: (o) => o === undefined || o === 'http://127.0.0.1:3000',
    sidForCookieHeader,
    log: pino({ level: 'silent' }),
  });
});

afterEach(async () => {
  for (const c of clients.splice(0)) c.close();
  await rt.close();
});

function connect(secret: string): Socket {
  const s = ioClient(`http://127.0.0.1:${rt.port}`, {
    path: '/socket.io',
    transports: ['polling', 'websocket'],
    extraHeaders: { Cookie: `session=${secret}` },
    reconnection: false,
  });
  clients.push({ close: () => s.close() });
  return s;
}

function once<T extends unknown[]>(s: Socket, event: string): Promise<T> {
  return new Promise((resolve) => s.once(event, (...args: unknown[]) => resolve(args as T)));
}

/** Resolves once the server has handled everything this socket sent before. */
async function roundTrip(s: Socket): Promise<void> {
  // The server handles one socket's packets in order: the refusal of a later, foreign
  // subscribe comes back only after the earlier packets were handled.
  const marker = 'status-channel-x-nobody';
  const refused = new Promise<void>((resolve) => {
    const onErr = (ch: string) => {
      if (ch === marker) {
        s.off('subscription_error', onErr);
        resolve();
      }
    };
    s.on('subscription_error', onErr);
  });
  s.emit('subscribe', { channel: marker });
  await refused;
}

/** Subscribes, then waits until the server has handled it. */
async function subscribed(s: Socket, channel: string): Promise<void> {
  if (!s.connected) await once(s, 'connect');
  s.emit('subscribe', { channel, auth: { headers: {} } });
  await roundTrip(s);
}

describe('realtime (Laravel Echo protocol)', () => {
  it('delivers NewStatus to a stock laravel-echo client listening on its own channel', async () => {
    const channel = statusChannel('my-app', 'sidAlice');
    const echo = new Echo({
      broadcaster: 'socket.io',
      client: ioClient,
      host: `http://127.0.0.1:${rt.port}`,
      transports: ['polling', 'websocket'],
      withCredentials: true,
      extraHeaders: { Cookie: 'session=alice' },
      reconnection: false,
    });
    clients.push({ close: () => echo.disconnect() });
    const got: unknown[] = [];
    const done = new Promise<void>((resolve) => {
      echo.channel(channel).listen('.NewStatus', (p: { data: string }) => {
        got.push(p);
        if (p.data === '100') resolve();
      });
    });
    // Echo subscribes on its own; check our side sees the membership before broadcasting.
    const socket = (echo.connector as unknown as { socket: Socket }).socket;
    await subscribed(socket, channel);
    rt.broadcast(channel, 'NewStatus', { data: '42' });
    rt.broadcast(channel, 'NewStatus', { data: '100' });
    await done;
    expect(got).toEqual([{ data: '42' }, { data: '100' }]);
  });

  it('refuses a foreign channel with subscription_error 403 and sends it nothing', async () => {
    const bobChannel = statusChannel('my-app', 'sidBob');
    const mallory = connect('alice');
    await once(mallory, 'connect');
    const heard: unknown[] = [];
    mallory.on('NewStatus', (...a: unknown[]) => heard.push(a));
    const refused = once<[string, number]>(mallory, 'subscription_error');
    mallory.emit('subscribe', { channel: bobChannel, auth: {} });
    expect(await refused).toEqual([bobChannel, 403]);

    const bob = connect('bob');
    await subscribed(bob, bobChannel);
    const bobHeard = once<[string, { data: string }]>(bob, 'NewStatus');
    rt.broadcast(bobChannel, 'NewStatus', { data: '7' });
    expect(await bobHeard).toEqual([bobChannel, { data: '7' }]);
    // Mallory's later own-channel subscription round trip proves the broadcast has passed her by.
    await subscribed(mallory, statusChannel('my-app', 'sidAlice'));
    expect(heard).toEqual([]);
  });

  it('refuses a browser without a session at the handshake, a suffix-only name, and a channel of another kind', async () => {
    const anon = connect('nobody');
    await once(anon, 'connect_error');
    expect(anon.connected).toBe(false);
    const alice = connect('alice');
    await once(alice, 'connect');
    for (const channel of [
      'status-channel--sidAlice',
      'presence-app-sidAlice',
      'status-channel-app-xsidAlice',
    ]) {
      const refused = once<[string, number]>(alice, 'subscription_error');
      alice.emit('subscribe', { channel });
      expect(await refused).toEqual([channel, 403]);
    }
  });

  it('ignores malformed subscribe payloads and stays usable', async () => {
    const alice = connect('alice');
    await once(alice, 'connect');
    alice.emit('subscribe', 'status-channel-app-sidAlice');
    alice.emit('subscribe', null);
    alice.emit('subscribe', { channel: 42 });
    alice.emit('subscribe', { channel: `status-channel-${'a'.repeat(300)}-sidAlice` });
    const channel = statusChannel('app-with-dashes', 'sidAlice');
    await subscribed(alice, channel);
    const heard = once<[string, { data: string }]>(alice, 'NewStatus');
    rt.broadcast(channel, 'NewStatus', { data: '3' });
    expect(await heard).toEqual([channel, { data: '3' }]);
  });

  it('re-subscribing is harmless and unsubscribe stops delivery', async () => {
    const channel = statusChannel('app', 'sidAlice');
    const alice = connect('alice');
    await subscribed(alice, channel);
    await subscribed(alice, channel);
    const heard: string[] = [];
    alice.on('NewStatus', (_ch: string, p: { data: string }) => heard.push(p.data));
    rt.broadcast(channel, 'NewStatus', { data: '1' });
    await new Promise<void>((r) => alice.once('NewStatus', () => r()));
    expect(heard).toEqual(['1']);
    alice.emit('unsubscribe', { channel });
    await subscribed(alice, statusChannel('other', 'sidAlice'));
    rt.broadcast(channel, 'NewStatus', { data: '2' });
    rt.broadcast(statusChannel('other', 'sidAlice'), 'NewStatus', { data: 'other' });
    await new Promise<void>((r) => alice.once('NewStatus', () => r()));
    expect(heard).toEqual(['1', 'other']);
  });

  it('answers an Engine.IO v3 (socket.io 2) polling handshake', async () => {
    const { status, body } = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = request(
        {
          host: '127.0.0.1',
          port: rt.port,
          path: '/socket.io/?EIO=3&transport=polling',
          headers: { Cookie: 'session=alice' },
        },
        (res) => {
          let body = '';
          res.setEncoding('utf8');
          res.on('data', (c: string) => (body += c));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
        },
      );
      req.on('error', reject);
      req.end();
    });
    expect(status).toBe(200);
    // EIO3 frames a packet as "<length>:<type><json>"; type 0 is "open".
    const m = /^\d+:0(\{.*?\})/.exec(body);
    expect(m).not.toBeNull();
    expect(JSON.parse(m![1])).toMatchObject({ sid: expect.any(String), upgrades: ['websocket'] });
  });

  it('serves the Echo protocol to a socket.io 2 client (Engine.IO v3 polling, by hand)', async () => {
    const base = '/socket.io/?EIO=3&transport=polling';
    const cookie = 'session=alice';
    const call = (method: string, path: string, body?: string) =>
      new Promise<string>((resolve, reject) => {
        const req = request(
          {
            host: '127.0.0.1',
            port: rt.port,
            method,
            path,
            headers: { Cookie: cookie, 'content-type': 'text/plain;charset=UTF-8' },
          },
          (res) => {
            let text = '';
            res.setEncoding('utf8');
            res.on('data', (c: string) => (text += c));
            res.on('end', () =>
              res.statusCode === 200 ? resolve(text) : reject(new Error(`${res.statusCode}: ${text}`)),
            );
          },
        );
        req.on('error', reject);
        req.end(body);
      });
    // EIO3 payloads frame each packet as "<length>:<packet>"; 42 is a socket.io event.
    const frame = (...packets: string[]) => packets.map((p) => `${p.length}:${p}`).join('');
    const open = await call('GET', base);
    const eioSid = JSON.parse(/^\d+:0(\{.*?\})/.exec(open)![1]).sid as string;
    const poll = `${base}&sid=${encodeURIComponent(eioSid)}`;
    let received = open;
    const until = async (needle: string) => {
      while (!received.includes(needle)) received += await call('GET', poll);
    };
    await until('40'); // connected to the main namespace
    const channel = statusChannel('app', 'sidAlice');
    const marker = statusChannel('app', 'sidBob');
    await call(
      'POST',
      poll,
      frame(
        `42${JSON.stringify(['subscribe', { channel, auth: {} }])}`,
        `42${JSON.stringify(['subscribe', { channel: marker }])}`,
      ),
    );
    await until(`42${JSON.stringify(['subscription_error', marker, 403])}`);
    rt.broadcast(channel, 'NewStatus', { data: '5' });
    await until(`42${JSON.stringify(['NewStatus', channel, { data: '5' }])}`);
    expect(received).not.toContain(`["subscription_error","${channel}"`);
  });

  it('a stock Echo client re-subscribes after a reconnect and keeps receiving', async () => {
    const channel = statusChannel('app', 'sidAlice');
    const echo = new Echo({
      broadcaster: 'socket.io',
      client: ioClient,
      host: `http://127.0.0.1:${rt.port}`,
      transports: ['polling', 'websocket'],
      extraHeaders: { Cookie: 'session=alice' },
      reconnectionDelay: 100,
      reconnectionDelayMax: 10_000,
    });
    clients.push({ close: () => echo.disconnect() });
    const heard: string[] = [];
    echo.channel(channel).listen('.NewStatus', (p: { data: string }) => heard.push(p.data));
    const socket = (echo.connector as unknown as { socket: Socket }).socket;
    await subscribed(socket, channel);
    // Drop the connection under the client; socket.io reconnects and Echo subscribes again.
    const reconnected = new Promise<void>((r) => socket.io.once('reconnect', () => r()));
    socket.io.engine.close();
    await reconnected;
    // Only Echo's own re-subscribe (sent on 'reconnect', before this) can have joined the room.
    await roundTrip(socket);
    const got = new Promise<void>((r) => socket.once('NewStatus', () => r()));
    rt.broadcast(channel, 'NewStatus', { data: 'after reconnect' });
    await got;
    expect(heard).toEqual(['after reconnect']);
  });

  it('fails to start, rather than start half, when its port is taken', async () => {
    await expect(
      createRealtime({
        host: '127.0.0.1',
        port: rt.port,
        allowOrigin: () => true,
        sidForCookieHeader,
        log: pino({ level: 'silent' }),
      }),
    ).rejects.toThrow(/EADDRINUSE/);
  });

  it('allows the app origin with credentials and not another origin', async () => {
    const preflight = (origin: string) =>
      new Promise<Record<string, string | string[] | undefined>>((resolve, reject) => {
        const req = request(
          {
            host: '127.0.0.1',
            port: rt.port,
            method: 'OPTIONS',
            path: '/socket.io/?EIO=4&transport=polling',
            headers: { Origin: origin },
          },
          (res) => {
            res.resume();
            resolve(res.headers);
          },
        );
        req.on('error', reject);
        req.end();
      });
    const ok = await preflight('http://127.0.0.1:3000');
    expect(ok['access-control-allow-origin']).toBe('http://127.0.0.1:3000');
    expect(ok['access-control-allow-credentials']).toBe('true');
    const other = await preflight('http://evil.example');
    expect(other['access-control-allow-origin']).toBeUndefined();
  });
});
