// Issue 14: a multipart upload whose last part the parser skips (no Content-Disposition, a bare CR
// or LF in its name) got no answer for some sizes. Sent over a real socket, in the chunks a socket
// delivers, every size must be answered with a 400 at once.
import net from 'node:net';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSession, startTestApp, type TestApp, type TestSession } from './support/server-harness.js';

let t: TestApp;
let s: TestSession;
let port: number;

beforeAll(async () => {
  t = await startTestApp({ maxFileBytes: 8 * 1024 * 1024 });
  await t.app.listen({ host: '127.0.0.1', port: 0 });
  port = (t.app.server.address() as net.AddressInfo).port;
  s = await openSession(t.app);
});
afterAll(async () => {
  await t.dispose();
});

const BOUNDARY = 'issue14boundary';

const lastPartHeads: Record<string, string> = {
  'no Content-Disposition': 'Content-Type: audio/mpeg\r\n',
  'a bare CR in its file name': 'Content-Disposition: form-data; name="files"; filename="a\rb.mp3"\r\n',
  'a bare LF in its field name': 'Content-Disposition: form-data; name="fi\nles"; filename="a.mp3"\r\n',
  'a disposition other than form-data': 'Content-Disposition: attachment; filename="a.mp3"\r\n',
};

function body(head: string, size: number): Buffer {
  return Buffer.concat([
    Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="appid"\r\n\r\n${s.appid}\r\n`),
    Buffer.from(`--${BOUNDARY}\r\n${head}\r\n`),
    Buffer.alloc(size, 0x41),
    Buffer.from(`\r\n--${BOUNDARY}--\r\n`),
  ]);
}

/** Send the request over a socket and resolve with the status line's code (0: closed without one). */
function send(payload: Buffer): Promise<number> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    let answer = '';
    socket.on('data', (d) => {
      answer += d.toString('latin1');
      const m = /^HTTP\/1\.1 (\d{3})/.exec(answer);
      if (m) {
        socket.destroy();
        resolve(Number(m[1]));
      }
    });
    socket.on('error', reject);
    socket.on('close', () => resolve(0));
    socket.write(
      `POST /app/merge/upload HTTP/1.1\r\nHost: 127.0.0.1\r\nCookie: ${s.cookie}\r\nX-CSRF-TOKEN: ${s.csrf}\r\n` +
        `Accept: application/json\r\nContent-Type: multipart/form-data; boundary=${BOUNDARY}\r\nContent-Length: ${payload.length}\r\n\r\n`,
    );
    socket.write(payload);
  });
}

const SIZES = [
  1_000, 16_000, 17_000, 20_000, 40_000, 64_000, 65_536, 66_000, 70_000, 100_000, 1_000_000, 5_000_000,
];

describe('a malformed last multipart part', () => {
  for (const [what, head] of Object.entries(lastPartHeads)) {
    it(`with ${what} is a 400 at every size`, async () => {
      const codes: Record<number, number> = {};
      for (const size of SIZES) codes[size] = await send(body(head, size));
      expect(codes).toEqual(Object.fromEntries(SIZES.map((size) => [size, 400])));
    }, 30_000);
  }

  it('leaves no temporary file behind', async () => {
    const tmp = await readdir(path.join(t.dataDir, 'tmp'));
    expect(tmp.filter((f) => f.endsWith('.upload'))).toEqual([]);
  });
});
