// Moving local files into the bucket (s3rver): the object holds exactly the file's bytes, and the
// local file is gone once put resolves, also when it is removed while the last bytes are stored.
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { tempDir } from '../../../../test/support/audio-fixtures.js';
import { createS3Objects, type ObjectStore } from './s3-objects.js';
import { createS3Storage } from './s3-storage.js';
import { uploadRef } from '../storage.js';

let dir: { dir: string; cleanup(): Promise<void> };
const opened: ObjectStore[] = [];
const sid = `s${randomBytes(4).toString('hex')}`;

async function bytesOf(body: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of body) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

beforeAll(async () => {
  dir = await tempDir('am-s3-storage-test-');
});
afterAll(async () => {
  opened.forEach((o) => o.close());
  await dir.cleanup();
});

describe('S3 storage put', () => {
  // One PUT (the default below 64 MiB) and 1 MiB parts: the file is removed as soon as it is read.
  for (const [how, singlePutMax] of [
    ['in one request', undefined],
    ['in parts', 1024 * 1024],
  ] as const) {
    it(`moves a file into the bucket ${how}: the object has its exact bytes and the local file is gone`, async () => {
      const objects = createS3Objects({ ...inject('s3'), forcePathStyle: true }, undefined, singlePutMax);
      opened.push(objects);
      const files = createS3Storage(objects, path.join(dir.dir, 'data'));
      const content = randomBytes(3 * 1024 * 1024 + 77);
      const local = path.join(dir.dir, 'in', `upload-${singlePutMax ?? 0}.bin`);
      await mkdir(path.dirname(local), { recursive: true });
      await writeFile(local, content);
      const ref = uploadRef({ sid, newfilename: `moved-${singlePutMax ?? 0}`, format: 'mp3' });

      await files.put(ref, local);

      expect(existsSync(local)).toBe(false);
      expect(await files.stat(ref)).toMatchObject({ size: content.length });
      expect((await bytesOf(await files.read(ref))).equals(content)).toBe(true);
    });
  }

  it('moves an empty file: an empty object, no local file left', async () => {
    const objects = createS3Objects({ ...inject('s3'), forcePathStyle: true });
    opened.push(objects);
    const files = createS3Storage(objects, path.join(dir.dir, 'data'));
    const local = path.join(dir.dir, 'empty.bin');
    await writeFile(local, '');
    const ref = uploadRef({ sid, newfilename: 'empty', format: 'mp3' });

    await files.put(ref, local);

    expect(existsSync(local)).toBe(false);
    expect(await files.stat(ref)).toMatchObject({ size: 0 });
  });
});
