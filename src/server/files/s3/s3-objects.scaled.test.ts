// The bucket seam against a real S3-compatible server (s3rver): exact bytes in and out, ranges,
// and deletion that stays inside one session's prefix.
import { randomBytes } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { text } from 'node:stream/consumers';
import type { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { tempDir } from '../../../../test/support/audio-fixtures.js';
import { createS3Objects, type ObjectStore } from './s3-objects.js';

let objects: ObjectStore;
let dir: { dir: string; cleanup(): Promise<void> };
const prefix = `t${randomBytes(4).toString('hex')}`;

async function bytesOf(body: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of body) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

beforeAll(async () => {
  const s3 = inject('s3');
  objects = createS3Objects({ ...s3, forcePathStyle: true });
  dir = await tempDir('am-s3-test-');
});
afterAll(async () => {
  objects.close();
  await dir.cleanup();
});

describe('S3 objects', () => {
  // The same 19 MB file in one PUT (the default below 64 MiB) and in 8 MiB parts.
  for (const [how, singlePutMax] of [
    ['in one request', undefined],
    ['in parts', 1024 * 1024],
  ] as const) {
    it(`stores a file larger than one part ${how} and gives back exactly its bytes, whole and in a range`, async () => {
      const s3 = inject('s3');
      const store = singlePutMax
        ? createS3Objects({ ...s3, forcePathStyle: true }, undefined, singlePutMax)
        : objects;
      const content = randomBytes(19 * 1024 * 1024 + 123);
      const file = path.join(dir.dir, 'big.bin');
      await writeFile(file, content);
      const key = `${prefix}/uploads/big-${singlePutMax ?? 0}.mp3`;

      expect(await store.putFile(key, file, { contentType: 'audio/mpeg' })).toEqual({ size: content.length });
      expect(await objects.head(key)).toMatchObject({ size: content.length });
      const whole = await objects.read(key);
      expect(whole?.size).toBe(content.length);
      expect((await bytesOf(whole!.body)).equals(content)).toBe(true);

      const start = 8 * 1024 * 1024 - 10;
      const part = await objects.read(key, { start, end: start + 99 });
      expect(part?.size).toBe(content.length);
      expect((await bytesOf(part!.body)).equals(content.subarray(start, start + 100))).toBe(true);
      if (store !== objects) store.close();
    });
  }

  it('stores a small file in one request', async () => {
    const file = path.join(dir.dir, 'small.txt');
    await writeFile(file, 'hello bucket');
    await objects.putFile(`${prefix}/uploads/small.txt`, file);
    expect(await text((await objects.read(`${prefix}/uploads/small.txt`))!.body)).toBe('hello bucket');
  });

  it('answers undefined for an object that is not there', async () => {
    expect(await objects.head(`${prefix}/nothing`)).toBeUndefined();
    expect(await objects.read(`${prefix}/nothing`)).toBeUndefined();
  });

  it("deletes one object, and a session's prefix without touching another session's", async () => {
    const file = path.join(dir.dir, 'x.txt');
    await writeFile(file, 'x');
    for (const key of ['s1/uploads/a.mp3', 's1/results/r.mp3', 's10/uploads/b.mp3', 's2/uploads/c.mp3']) {
      await objects.putFile(`${prefix}/${key}`, file);
    }
    await objects.delete(`${prefix}/s2/uploads/c.mp3`);
    expect(await objects.head(`${prefix}/s2/uploads/c.mp3`)).toBeUndefined();

    expect(await objects.deletePrefix(`${prefix}/s1/`)).toBe(2);
    expect(await objects.head(`${prefix}/s1/uploads/a.mp3`)).toBeUndefined();
    expect(await objects.head(`${prefix}/s1/results/r.mp3`)).toBeUndefined();
    expect(await objects.head(`${prefix}/s10/uploads/b.mp3`)).toMatchObject({ size: 1 });
  });

  it('reaches the bucket, and says so when it does not exist', async () => {
    await expect(objects.ping()).resolves.toBeUndefined();
    const s3 = inject('s3');
    const missing = createS3Objects({ ...s3, bucket: 'no-such-bucket', forcePathStyle: true });
    await expect(missing.ping()).rejects.toThrow();
    missing.close();
  });
});
