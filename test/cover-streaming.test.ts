// The session's cover, asked for by many at once: each answer is the stored image byte for byte,
// streamed from storage, so the server holds a stream's buffer per request, not the whole picture.
import { createHash, randomBytes } from 'node:crypto';
import { get, type IncomingMessage } from 'node:http';
import { deflateSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COVER_LIMITS } from '../src/engine/index.js';
import {
  multipartBody,
  openSession,
  startTestApp,
  type TestApp,
  type TestSession,
} from './support/server-harness.js';

let app: TestApp;
let base: string;

beforeAll(async () => {
  app = await startTestApp();
  base = await app.listenLocally();
});

afterAll(async () => {
  await app?.dispose();
});

/** A PNG of exactly `bytes`: its header, a private chunk of noise, its image data, its end. */
function bigPng(bytes: number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    return Buffer.concat([length, Buffer.from(type, 'latin1'), data, Buffer.alloc(4)]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(64, 0);
  ihdr.writeUInt32BE(64, 4);
  ihdr.set([8, 2, 0, 0, 0], 8);
  const head = Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
  ]);
  // A real picture (64 x 64 black, each row's filter byte then its pixels) that ffmpeg decodes.
  const image = deflateSync(Buffer.alloc(64 * (1 + 64 * 3)));
  const end = Buffer.concat([chunk('IDAT', image), chunk('IEND', Buffer.alloc(0))]);
  return Buffer.concat([head, chunk('prVt', randomBytes(bytes - head.length - end.length - 12)), end]);
}

async function postCover(s: TestSession, content: Buffer) {
  const { body, contentType } = multipartBody([{ name: 'file', filename: 'big.png', content }]);
  return app.app.inject({
    method: 'POST',
    url: '/app/merge/cover',
    headers: { cookie: s.cookie, 'x-csrf-token': s.csrf, 'content-type': contentType },
    payload: body,
  });
}

interface Got {
  status: number;
  headers: IncomingMessage['headers'];
  sha256: string;
  bytes: number;
}

/** GET the cover over a real socket, hashing the body as it comes (the client keeps none of it). */
function fetchCover(s: TestSession, onChunk: () => void): Promise<Got> {
  return new Promise((resolve, reject) => {
    get(`${base}/app/merge/cover`, { headers: { cookie: s.cookie } }, (res) => {
      const hash = createHash('sha256');
      let bytes = 0;
      res.on('data', (data: Buffer) => {
        hash.update(data);
        bytes += data.length;
        onChunk();
      });
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, sha256: hash.digest('hex'), bytes }),
      );
      res.on('error', reject);
    }).on('error', reject);
  });
}

describe("the session's cover asked for by many at once", () => {
  it('sends fifty 10 MB covers whole, byte for byte, without holding fifty covers in memory', async () => {
    const s = await openSession(app.app);
    const png = bigPng(COVER_LIMITS.bytes);
    const set = await postCover(s, png);
    expect(set.statusCode, set.body).toBe(200);
    const expected = createHash('sha256').update(png).digest('hex');

    const before = process.memoryUsage().rss;
    let peak = before;
    const sample = () => {
      peak = Math.max(peak, process.memoryUsage().rss);
    };
    const got = await Promise.all(Array.from({ length: 50 }, () => fetchCover(s, sample)));
    sample();

    for (const one of got) {
      expect(one.status).toBe(200);
      expect(one.headers['content-type']).toBe('image/png');
      expect(one.headers['content-length']).toBe(String(png.length));
      expect(one.headers['cache-control']).toBe('private, no-cache');
      expect(one.bytes).toBe(png.length);
      expect(one.sha256).toBe(expected);
    }
    // Fifty covers held whole would be 500 MB; streamed, the growth is buffers and sockets.
    const grownMb = (peak - before) / (1024 * 1024);
    expect(grownMb).toBeLessThan(120);
  });

  it('answers 304 to a browser that holds the cover as it is, and sends a replaced one', async () => {
    const s = await openSession(app.app);
    expect((await postCover(s, bigPng(4096))).statusCode).toBe(200);
    const first = await app.app.inject({
      method: 'GET',
      url: '/app/merge/cover',
      headers: { cookie: s.cookie },
    });
    const etag = first.headers.etag as string;
    expect(etag).toBeTruthy();
    const again = await app.app.inject({
      method: 'GET',
      url: '/app/merge/cover',
      headers: { cookie: s.cookie, 'if-none-match': etag },
    });
    expect(again.statusCode).toBe(304);
    expect(again.rawPayload.length).toBe(0);

    const replaced = bigPng(8192);
    expect((await postCover(s, replaced)).statusCode).toBe(200);
    const fresh = await app.app.inject({
      method: 'GET',
      url: '/app/merge/cover',
      headers: { cookie: s.cookie, 'if-none-match': etag },
    });
    expect(fresh.statusCode).toBe(200);
    expect(fresh.rawPayload.equals(replaced)).toBe(true);
  });
});
