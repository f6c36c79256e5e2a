// A merging process reads an upload from the bucket only when it holds no copy of it: one it stored
// itself, or merged before. Deleted uploads take their copies with them.
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { bytesIn, tempDir } from '../../../../test/support/audio-fixtures.js';
import { memoryObjects, type MemoryObjects } from '../../../../test/support/memory-objects.js';
import { createLocalCopies, type LocalCopies } from './local-copies.js';
import { objectKey } from './object-keys.js';
import { createS3Storage, type S3Storage } from './s3-storage.js';
import { uploadRef } from '../storage.js';

let dir: { dir: string; cleanup(): Promise<void> };
let objects: MemoryObjects;
let copies: LocalCopies;
const ref = uploadRef({ sid: 'session1', newfilename: 'u1', format: 'mp3' });

function storage(withCopies = true): S3Storage {
  return createS3Storage(objects, path.join(dir.dir, 'data'), { copies: withCopies ? copies : undefined });
}

async function uploadFile(bytes: Buffer): Promise<string> {
  const file = path.join(dir.dir, 'data', 'tmp', `upload-${randomBytes(3).toString('hex')}`);
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, bytes);
  return file;
}

beforeEach(async () => {
  dir = await tempDir('am-s3-copies-');
  objects = memoryObjects();
  copies = createLocalCopies({
    dir: path.join(dir.dir, 'data', 'tmp', 'local-copies'),
    maxBytes: 1 << 30,
    idleMs: 60_000,
    reserveBytes: 0,
  });
});
afterEach(async () => {
  copies.close();
  await dir.cleanup();
});

describe('S3 storage with local copies', () => {
  it('a merge on the process that stored an upload reads its local copy: the exact bytes, no GET', async () => {
    const bytes = randomBytes(100_000);
    const files = storage();
    const upload = await uploadFile(bytes);
    await files.put(ref, upload);
    expect(existsSync(upload)).toBe(false);
    expect(objects.objects.get(objectKey(ref))?.equals(bytes)).toBe(true);

    const local = await files.localPath(ref, path.join(dir.dir, 'data', 'tmp', 'job-1'));
    expect((await readFile(local)).equals(bytes)).toBe(true);
    expect(objects.reads).toEqual([]);
  });

  it('a worker that did not store it downloads it once, then merges it again from its copy', async () => {
    const bytes = randomBytes(50_000);
    await storage(false).put(ref, await uploadFile(bytes)); // through a web process
    const worker = storage();
    for (const job of ['job-1', 'job-2', 'job-3']) {
      const local = await worker.localPath(ref, path.join(dir.dir, 'data', 'tmp', job));
      expect((await readFile(local)).equals(bytes)).toBe(true);
    }
    expect(objects.reads).toEqual([objectKey(ref)]);
  });

  it('a deleted upload, or a deleted session, leaves no copy: the next merge asks the bucket and finds nothing', async () => {
    const files = storage();
    await files.put(ref, await uploadFile(randomBytes(1000)));
    await files.remove(ref);
    await expect(files.localPath(ref, path.join(dir.dir, 'data', 'tmp', 'job-1'))).rejects.toMatchObject({
      code: 'ENOENT',
    });

    const other = uploadRef({ sid: 'session2', newfilename: 'u2', format: 'mp3' });
    await files.put(other, await uploadFile(randomBytes(1000)));
    await files.removeSession('session2');
    await expect(files.localPath(other, path.join(dir.dir, 'data', 'tmp', 'job-2'))).rejects.toMatchObject({
      code: 'ENOENT',
    });
    expect(await bytesIn(path.join(dir.dir, 'data', 'tmp', 'local-copies'))).toBe(0);
  });

  it('keeps no copy of a result, and a process without copies downloads every time', async () => {
    const files = storage();
    const result = { area: 'results' as const, sid: 'session1', name: 'job1.mp3' };
    await files.put(result, await uploadFile(randomBytes(1000)));
    expect(await bytesIn(path.join(dir.dir, 'data', 'tmp', 'local-copies'))).toBe(0);

    const web = storage(false);
    await web.put(ref, await uploadFile(randomBytes(1000)));
    await web.localPath(ref, path.join(dir.dir, 'data', 'tmp', 'job-1'));
    await web.localPath(ref, path.join(dir.dir, 'data', 'tmp', 'job-2'));
    expect(objects.reads).toEqual([objectKey(ref), objectKey(ref)]);
  });

  it("names a session's stored objects that start with a prefix, by their file names", async () => {
    const files = storage(false);
    for (const [sid, name] of [
      ['S1', 'job1-a.mp3'],
      ['S1', 'job1-a-cover.png'],
      ['S1', 'job10-b.mp3'],
      ['S2', 'job1-c.mp3'],
    ]) {
      const local = path.join(dir.dir, `local-${sid}-${name}`);
      await writeFile(local, 'x');
      await files.put({ area: 'results', sid, name }, local);
    }
    expect((await files.storedNames('results', 'S1', 'job1-')).sort()).toEqual([
      'job1-a-cover.png',
      'job1-a.mp3',
    ]);
    expect(await files.storedNames('uploads', 'S1', 'job1-')).toEqual([]);
  });
});
