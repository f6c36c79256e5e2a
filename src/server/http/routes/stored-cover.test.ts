// A stored cover replaced while it is asked for: the answer is one whole file, its Content-Length
// that file's own, never the first file's length over the second file's bytes.
import { Readable } from 'node:stream';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import type { FileRef, FileStorage } from '../../files/storage.js';
import { sendStoredCover } from './stored-cover.js';

const png = (bytes: number, fill: number) =>
  Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    Buffer.alloc(bytes - 8, fill),
  ]);

/**
 * A storage holding one cover that is replaced the moment anyone looks at it: each look-up
 * (stat or open) answers about the cover it holds, and the next one then holds the other.
 */
function replacedOnEveryLook(first: Buffer, second: Buffer): FileStorage {
  let current = first;
  const look = () => {
    const seen = current;
    current = current === first ? second : first;
    return seen;
  };
  const modifiedAt = new Date(1_700_000_000_000);
  const partial: Partial<FileStorage> = {
    async stat() {
      return { size: look().length, modifiedAt };
    },
    async read() {
      return Readable.from([current]);
    },
    async open() {
      const seen = look();
      return { stream: Readable.from([seen]), size: seen.length, modifiedAt };
    },
  };
  return partial as FileStorage;
}

describe('a stored cover replaced while it is sent', () => {
  it("sends one file's bytes under that file's Content-Length", async () => {
    const small = png(192, 1);
    const large = png(4096, 2);
    const app = Fastify();
    const ref: FileRef = { area: 'uploads', sid: 's', name: 'cover' };
    const files = replacedOnEveryLook(small, large);
    app.get('/cover', (_request, reply) =>
      sendStoredCover(reply, files, ref, { cacheControl: 'no-cache', missing: 'none' }),
    );
    for (let i = 0; i < 4; i++) {
      const res = await app.inject({ method: 'GET', url: '/cover' });
      expect(res.statusCode).toBe(200);
      expect(Number(res.headers['content-length'])).toBe(res.rawPayload.length);
      expect([small, large].some((cover) => cover.equals(res.rawPayload))).toBe(true);
    }
    await app.close();
  });
});
