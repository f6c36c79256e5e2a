// Slow clients are bounded (issue 14): headers that never finish, a body that stops arriving, and a
// body that trickles for longer than the request may last are each cut by the server.
import net from 'node:net';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSession, startTestApp, type TestApp, type TestSession } from './support/server-harness.js';

let t: TestApp;
let s: TestSession;
let port: number;

beforeAll(async () => {
  t = await startTestApp({ headersTimeoutMs: 500, idleTimeoutMs: 700, requestTimeoutMs: 1500 });
  await t.app.listen({ host: '127.0.0.1', port: 0 });
  port = (t.app.server.address() as net.AddressInfo).port;
  s = await openSession(t.app);
});
afterAll(async () => {
  await t.dispose();
});

/** Open a socket, write `start`, keep calling `more` every `everyMs`; resolve with what came back when it closes. */
function slowClient(start: string, more?: { everyMs: number; bytes: string }): Promise<string> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    let answer = '';
    let timer: NodeJS.Timeout | undefined;
    socket.on('data', (d) => (answer += d.toString('latin1')));
    socket.on('error', () => {});
    socket.on('close', () => {
      clearInterval(timer);
      resolve(answer);
    });
    socket.write(start);
    if (more) timer = setInterval(() => socket.writable && socket.write(more.bytes), more.everyMs);
  });
}

const uploadHead = (length: number) =>
  `POST /app/merge/upload HTTP/1.1\r\nHost: 127.0.0.1\r\nCookie: ${s.cookie}\r\nX-CSRF-TOKEN: ${s.csrf}\r\n` +
  `Content-Type: multipart/form-data; boundary=b\r\nContent-Length: ${length}\r\n\r\n` +
  `--b\r\nContent-Disposition: form-data; name="files"; filename="slow.mp3"\r\n\r\n`;

describe('slow clients', () => {
  it('headers that never finish: the connection is closed', async () => {
    const answer = await slowClient('GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ', {
      everyMs: 100,
      bytes: 'a',
    });
    // Node answers 408 when it can, or just closes; either way the client is not kept.
    expect(answer === '' || answer.startsWith('HTTP/1.1 408')).toBe(true);
  });

  it('a body that stops arriving: the connection is closed and no temporary file is left', async () => {
    await slowClient(uploadHead(1024 * 1024) + 'x'.repeat(1000));
    await expect
      .poll(async () => (await readdir(path.join(t.dataDir, 'tmp'))).filter((f) => f.endsWith('.upload')))
      .toEqual([]);
  });

  it('a body that trickles for longer than a request may last: the connection is closed', async () => {
    await slowClient(uploadHead(1024 * 1024), { everyMs: 100, bytes: 'x'.repeat(10) });
    await expect
      .poll(async () => (await readdir(path.join(t.dataDir, 'tmp'))).filter((f) => f.endsWith('.upload')))
      .toEqual([]);
  });
});
