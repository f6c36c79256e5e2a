// Across processes (real Redis): an upload deleted through one process leaves no local copy on
// another, so a person's deleted file does not linger on a worker's disk.
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, inject, it } from 'vitest';
import { bytesIn, tempDir } from '../../../../test/support/audio-fixtures.js';
import { memoryObjects, type MemoryObjects } from '../../../../test/support/memory-objects.js';
import { dropTeller, listenForDrops, type DropTeller } from './copy-drops.js';
import { createLocalCopies, type LocalCopies } from './local-copies.js';
import { createS3Storage, type S3Storage } from './s3-storage.js';
import { uploadRef } from '../storage.js';

let dir: { dir: string; cleanup(): Promise<void> };
let objects: MemoryObjects;
let copies: LocalCopies;
let teller: DropTeller;
let listener: { ready: Promise<void>; close(): void };
let web: S3Storage;
let worker: S3Storage;
const copiesDir = () => path.join(dir.dir, 'worker', 'tmp', 'local-copies');

async function until(check: () => Promise<boolean>): Promise<void> {
  for (let i = 0; i < 100 && !(await check()); i++) await new Promise((r) => setTimeout(r, 20));
}

async function uploadThroughWeb(sid: string, name: string): Promise<ReturnType<typeof uploadRef>> {
  const ref = uploadRef({ sid, newfilename: name, format: 'mp3' });
  const file = path.join(dir.dir, 'web', 'tmp', `${name}.part`);
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, randomBytes(20_000));
  await web.put(ref, file);
  return ref;
}

beforeEach(async () => {
  dir = await tempDir('am-copy-drops-');
  objects = memoryObjects();
  copies = createLocalCopies({ dir: copiesDir(), maxBytes: 1 << 30, idleMs: 3_600_000, reserveBytes: 0 });
  teller = dropTeller(inject('redisUrl'));
  listener = listenForDrops(inject('redisUrl'), copies);
  await listener.ready;
  web = createS3Storage(objects, path.join(dir.dir, 'web'), { tellDropped: teller.tell });
  worker = createS3Storage(objects, path.join(dir.dir, 'worker'), { copies });
});
afterEach(async () => {
  listener.close();
  teller.close();
  copies.close();
  await dir.cleanup();
});

describe('local copies across processes', () => {
  it('an upload deleted through a web process leaves no copy on a worker that merged it', async () => {
    const ref = await uploadThroughWeb('sessionA', 'u1');
    await worker.localPath(ref, path.join(dir.dir, 'worker', 'tmp', 'job-1'));
    expect(await readdir(copiesDir())).toEqual(['sessionA+uploads+u1.mp3']);

    await web.remove(ref);
    await until(async () => (await readdir(copiesDir())).length === 0);
    expect(await readdir(copiesDir())).toEqual([]);
    expect(await bytesIn(copiesDir())).toBe(0);
    await expect(worker.localPath(ref, path.join(dir.dir, 'worker', 'tmp', 'job-2'))).rejects.toMatchObject({
      code: 'ENOENT',
    });
  });

  it("a session deleted on one process drops that session's copies on the others, and only its own", async () => {
    const mine = await uploadThroughWeb('sessionA', 'u1');
    const theirs = await uploadThroughWeb('sessionAB', 'u2');
    for (const ref of [mine, theirs])
      await worker.localPath(ref, path.join(dir.dir, 'worker', 'tmp', 'job-1'));

    await web.removeSession('sessionA');
    await until(async () => (await readdir(copiesDir())).length === 1);
    expect(await readdir(copiesDir())).toEqual(['sessionAB+uploads+u2.mp3']);
    expect(existsSync(path.join(copiesDir(), 'sessionA+uploads+u1.mp3'))).toBe(false);
  });
});
