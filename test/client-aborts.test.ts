// A browser that stops reading a file it asked for (an audio element's preload, a seek, a closed
// tab) is how media plays: the server logs the request as usual, and nothing as a fault.
import net from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTone, tempDir } from './support/audio-fixtures.js';
import { openSession, startTestApp, upload, type TestApp } from './support/server-harness.js';

let t: TestApp;
let port: number;
let cleanup: () => Promise<void>;
let wavDir: string;
const lines: Array<{ level: number; msg: string; endedByClient?: boolean }> = [];

beforeAll(async () => {
  t = await startTestApp(
    { logLevel: 'info' },
    { logStream: { write: (line: string) => void lines.push(JSON.parse(line)) } },
  );
  await t.app.listen({ host: '127.0.0.1', port: 0 });
  port = (t.app.server.address() as net.AddressInfo).port;
  let dir: string;
  ({ dir, cleanup } = await tempDir());
  wavDir = dir;
});
afterAll(async () => {
  await t.dispose();
  await cleanup();
});

/** GET `url` with a Range like a media element's, read the first bytes, then close the connection. */
function readFirstBytes(url: string, cookie: string): Promise<string> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    let head = '';
    socket.on('error', () => {});
    socket.on('data', (d) => {
      head += d.toString('latin1');
      socket.destroy();
    });
    socket.on('close', () => resolve(head));
    socket.write(`GET ${url} HTTP/1.1\r\nHost: 127.0.0.1\r\nCookie: ${cookie}\r\nRange: bytes=0-\r\n\r\n`);
  });
}

describe('a client that stops reading', () => {
  it('logs each request as completed by the client: no error, warning or "stream closed prematurely"', async () => {
    const s = await openSession(t.app);
    // Minutes of WAV: far more than the socket buffers hold, so the server is still sending.
    const wav = await makeTone(path.join(wavDir, 'long.wav'), { seconds: 120 });
    const res = await upload(t.app, s, [{ path: wav }]);
    expect(res.statusCode).toBe(200);
    const { newfilename, format } = res.json().items[0];
    const url = `/upload/${s.sid}/${newfilename}.${format}`;
    const before = lines.length;
    for (let i = 0; i < 3; i++) expect(await readFirstBytes(url, s.cookie)).toMatch(/^HTTP\/1\.1 206/);
    await expect
      .poll(() => lines.slice(before).filter((l) => l.msg === 'request completed' && l.endedByClient).length)
      .toBe(3);
    const after = lines.slice(before);
    expect(after.filter((l) => l.level >= 40)).toEqual([]);
    expect(after.map((l) => l.msg)).not.toContain('stream closed prematurely');
  });
});
