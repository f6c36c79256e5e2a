// Local copies of upload objects: what a merge links instead of downloading, and when a copy goes.
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { clockAt } from '../../../../test/support/clock-at.js';
import { bytesIn, tempDir } from '../../../../test/support/audio-fixtures.js';
import { createLocalCopies, type LocalCopies, type LocalCopiesOptions } from './local-copies.js';

const MB = 1024 * 1024;
let dir: { dir: string; cleanup(): Promise<void> };
let now = 0;
let free = 10_000 * MB;
const opened: LocalCopies[] = [];

function copiesWith(opts: Partial<LocalCopiesOptions> = {}): LocalCopies {
  const c = createLocalCopies({
    dir: path.join(dir.dir, 'copies'),
    maxBytes: 10 * MB,
    idleMs: 60_000,
    reserveBytes: 100 * MB,
    freeSpace: async () => free,
    clock: clockAt(() => now),
    ...opts,
  });
  opened.push(c);
  return c;
}

/** A file of `size` random bytes in the test's folder. */
async function fileOf(name: string, size: number): Promise<{ file: string; bytes: Buffer }> {
  const bytes = randomBytes(size);
  const file = path.join(dir.dir, name);
  await writeFile(file, bytes);
  return { file, bytes };
}

const at = (name: string) => path.join(dir.dir, name);
/** What the copies hold on the disk. */
const held = () => bytesIn(path.join(dir.dir, 'copies'));

beforeEach(async () => {
  dir = await tempDir('am-local-copies-');
  now = 1_000_000;
  free = 10_000 * MB;
});
afterEach(async () => {
  opened.splice(0).forEach((c) => c.close());
  await dir.cleanup();
});

describe('local copies of uploads', () => {
  it('links an adopted upload for a merge: the same bytes, the upload file moved in, nothing copied', async () => {
    const copies = copiesWith();
    const { file, bytes } = await fileOf('upload.tmp', 300_000);
    const inode = (await stat(file)).ino;
    await copies.adopt('s1/uploads/a.mp3', file);
    expect(existsSync(file)).toBe(false);

    expect(await copies.linkTo('s1/uploads/a.mp3', at('job-1-a.mp3'))).toBe(true);
    expect((await readFile(at('job-1-a.mp3'))).equals(bytes)).toBe(true);
    expect((await stat(at('job-1-a.mp3'))).ino).toBe(inode);
    expect(await copies.linkTo('s1/uploads/other.mp3', at('job-1-b.mp3'))).toBe(false);
    expect(existsSync(at('job-1-b.mp3'))).toBe(false);
  });

  it('keeps a downloaded file as a copy and leaves the file where it is', async () => {
    const copies = copiesWith();
    const { file, bytes } = await fileOf('job-1-download.mp3', 200_000);
    await copies.keep('s1/uploads/a.mp3', file);
    expect((await readFile(file)).equals(bytes)).toBe(true);
    expect(await copies.linkTo('s1/uploads/a.mp3', at('job-2-a.mp3'))).toBe(true);
    expect((await readFile(at('job-2-a.mp3'))).equals(bytes)).toBe(true);
    expect(await held()).toBe(200_000);
  });

  it('removes the least recently used copy when over its size, and a running merge keeps its link', async () => {
    const copies = copiesWith({ maxBytes: 5 * MB });
    const b = await fileOf('b.tmp', 2 * MB);
    await copies.adopt('s1/uploads/a.mp3', (await fileOf('a.tmp', 2 * MB)).file);
    await copies.adopt('s1/uploads/b.mp3', b.file);
    now += 10;
    expect(await copies.linkTo('s1/uploads/b.mp3', at('job-b-running.mp3'))).toBe(true);
    now += 10;
    expect(await copies.linkTo('s1/uploads/a.mp3', at('job-a.mp3'))).toBe(true); // a is now the most recent
    await copies.adopt('s1/uploads/c.mp3', (await fileOf('c.tmp', 2 * MB)).file);

    expect(await copies.linkTo('s1/uploads/b.mp3', at('job-b.mp3'))).toBe(false);
    expect((await readFile(at('job-b-running.mp3'))).equals(b.bytes)).toBe(true);
    expect(await copies.linkTo('s1/uploads/a.mp3', at('job-a2.mp3'))).toBe(true);
    expect(await copies.linkTo('s1/uploads/c.mp3', at('job-c.mp3'))).toBe(true);
    expect(await held()).toBe(4 * MB);
    // A file larger than the whole allowance is not kept, and the adopted file is still removed.
    const big = await fileOf('big.tmp', 6 * MB);
    await copies.adopt('s1/uploads/big.mp3', big.file);
    expect(existsSync(big.file)).toBe(false);
    expect(await copies.linkTo('s1/uploads/big.mp3', at('job-big.mp3'))).toBe(false);
  });

  it('gives copies up before the disk would fall below its reserve, and keeps none when it already has', async () => {
    const copies = copiesWith({ reserveBytes: 100 * MB });
    await copies.adopt('s1/uploads/a.mp3', (await fileOf('a.tmp', MB)).file);
    free = 100 * MB - 1; // the next upload would leave too little: the old copy goes, giving 1 MB back
    await copies.adopt('s1/uploads/b.mp3', (await fileOf('b.tmp', MB)).file);
    expect(await copies.linkTo('s1/uploads/a.mp3', at('x.mp3'))).toBe(false);
    expect(await copies.linkTo('s1/uploads/b.mp3', at('y.mp3'))).toBe(true);

    free = 10 * MB;
    const c = await fileOf('c.tmp', MB);
    await copies.adopt('s1/uploads/c.mp3', c.file);
    expect(existsSync(c.file)).toBe(false);
    expect(await copies.linkTo('s1/uploads/c.mp3', at('z.mp3'))).toBe(false);
    expect(await held()).toBe(0);
  });

  it("drops an object's copy with it, and a session's copies with the session, not another session's", async () => {
    const copies = copiesWith();
    for (const key of ['s1/uploads/a.mp3', 's1/uploads/b.mp3', 's10/uploads/c.mp3', 's2/uploads/d.mp3']) {
      await copies.adopt(key, (await fileOf(key.replaceAll('/', '-'), 1000)).file);
    }
    await copies.drop('s1/uploads/a.mp3');
    expect(await copies.linkTo('s1/uploads/a.mp3', at('1.mp3'))).toBe(false);
    await copies.dropPrefix('s1/');
    expect(await copies.linkTo('s1/uploads/b.mp3', at('2.mp3'))).toBe(false);
    expect(await copies.linkTo('s10/uploads/c.mp3', at('3.mp3'))).toBe(true);
    expect(await copies.linkTo('s2/uploads/d.mp3', at('4.mp3'))).toBe(true);
    expect(await held()).toBe(2000);
  });

  it('forgets a copy idle longer than its time, and one whose file the scratch clean-up removed', async () => {
    const copies = copiesWith({ idleMs: 60_000 });
    await copies.adopt('s1/uploads/old.mp3', (await fileOf('old.tmp', 1000)).file);
    now += 61_000;
    await copies.adopt('s1/uploads/new.mp3', (await fileOf('new.tmp', 1000)).file);
    expect(await copies.linkTo('s1/uploads/old.mp3', at('1.mp3'))).toBe(false);
    expect(await held()).toBe(1000);

    // What a start's scratch clean-up does; the same folder, so the test's clean-up removes it.
    await rm(dir.dir, { recursive: true, force: true });
    await mkdir(dir.dir);
    expect(await copies.linkTo('s1/uploads/new.mp3', at('2.mp3'))).toBe(false);
    expect(await held()).toBe(0);
    const again = await fileOf('again.tmp', 500);
    await copies.keep('s1/uploads/new.mp3', again.file);
    expect(await copies.linkTo('s1/uploads/new.mp3', at('3.mp3'))).toBe(true);
  });
});
