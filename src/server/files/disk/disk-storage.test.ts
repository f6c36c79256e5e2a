import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { text } from 'node:stream/consumers';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { tempDir } from '../../../../test/support/audio-fixtures.js';
import { createDiskStorage, type DiskStorage } from './disk-storage.js';
import { resultRef, uploadRef } from '../storage.js';

let root: string;
let cleanup: () => Promise<void>;
let files: DiskStorage;

beforeEach(async () => {
  ({ dir: root, cleanup } = await tempDir('disk-storage-'));
  files = createDiskStorage(path.join(root, 'data'));
});
afterEach(() => cleanup());

const upload = uploadRef({ sid: 'S1', newfilename: 'abc123', format: 'wav' });

async function scratchFile(name: string, content: string): Promise<string> {
  const p = files.scratchPath(name);
  await writeFile(p, content);
  return p;
}

describe('file storage on disk', () => {
  it('puts a temp file in place, moving it, and reads it back whole or by range', async () => {
    const tmp = await scratchFile('x.upload', '0123456789');
    await files.put(upload, tmp);
    expect(existsSync(tmp)).toBe(false);
    expect(await readFile(path.join(files.root, 'uploads', 'S1', 'abc123.wav'), 'utf8')).toBe('0123456789');
    expect(await files.stat(upload)).toMatchObject({ size: 10 });
    expect(await text(await files.read(upload))).toBe('0123456789');
    expect(await text(await files.read(upload, { start: 2, end: 4 }))).toBe('234');
    expect(await files.localPath(upload, files.scratchPath('job-1'))).toBe(
      files.uploadPath({ sid: 'S1', newfilename: 'abc123', format: 'wav' }),
    );
  });

  it('says there is no file rather than failing, and removes quietly', async () => {
    expect(await files.stat(upload)).toBeUndefined();
    await files.remove(upload);
    await files.put(upload, await scratchFile('y', 'a'));
    await files.remove(upload);
    expect(await files.stat(upload)).toBeUndefined();
  });

  it("removes one session's uploads and results, and nothing of another", async () => {
    await files.put(upload, await scratchFile('a', 'a'));
    await files.put(resultRef({ sid: 'S1', file: 'job1.mp3' }), await scratchFile('b', 'b'));
    const theirs = resultRef({ sid: 'S2', file: 'job2.mp3' });
    await files.put(theirs, await scratchFile('c', 'c'));
    await files.removeSession('S1');
    expect(existsSync(files.uploadsDir('S1'))).toBe(false);
    expect(existsSync(files.resultsDir('S1'))).toBe(false);
    expect(await files.stat(theirs)).toMatchObject({ size: 1 });
  });

  it("names a session's stored files that start with a prefix, and no other session's", async () => {
    for (const name of ['job1-a.mp3', 'job1-a-cover.png', 'job10-b.mp3'])
      await files.put(resultRef({ sid: 'S1', file: name }), await scratchFile(name, 'x'));
    await files.put(resultRef({ sid: 'S2', file: 'job1-c.mp3' }), await scratchFile('c', 'x'));
    expect((await files.storedNames('results', 'S1', 'job1-')).sort()).toEqual([
      'job1-a-cover.png',
      'job1-a.mp3',
    ]);
    expect(await files.storedNames('results', 'S3', 'job1-')).toEqual([]);
    await expect(files.storedNames('results', 'S1', '../')).rejects.toThrow(/unsafe/);
  });

  it('clears the scratch area, or only the entries with a prefix', async () => {
    await mkdir(files.scratchPath('job-1'));
    await writeFile(path.join(files.scratchPath('job-1'), 'part.mp3'), 'x');
    await scratchFile('keep.upload', 'x');
    await files.clearScratch('job-');
    expect(existsSync(files.scratchPath('job-1'))).toBe(false);
    expect(existsSync(files.scratchPath('keep.upload'))).toBe(true);
    await files.clearScratch();
    expect(existsSync(files.scratchPath('keep.upload'))).toBe(false);
  });

  it('refuses names it did not make, so no path leaves DATA_DIR', async () => {
    const tmp = await scratchFile('z', 'z');
    for (const ref of [
      { area: 'uploads' as const, sid: '..', name: 'a.mp3' },
      { area: 'uploads' as const, sid: 'S1', name: '../../audio-merge.sqlite' },
      { area: 'results' as const, sid: 'S1', name: 'a.mp3/../../x.mp3' },
      { area: 'results' as const, sid: 'S1/..', name: 'a.mp3' },
    ]) {
      await expect(files.put(ref, tmp)).rejects.toThrow(/unsafe|outside/);
      await expect(files.stat(ref)).rejects.toThrow(/unsafe|outside/);
    }
    expect(() => files.scratchPath('../escape')).toThrow(/unsafe|outside/);
    expect(() => files.scratchPath('..')).toThrow(/unsafe|outside/);
  });
});
