// Where the command line writes, and what it says when it cannot: run as a person runs it.
import { existsSync, readdirSync } from 'node:fs';
import { link, mkdir, readFile, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeErrors, makeTone, tempDir } from '../../test/support/audio-fixtures.js';
import { runCli } from '../../test/support/cli-run.js';

describe('audio-merge output and input paths', () => {
  let dir: string;
  let cleanup: () => Promise<void>;
  let wav: string;
  let mp3: string;
  beforeAll(async () => {
    ({ dir, cleanup } = await tempDir());
    wav = await makeTone(path.join(dir, 'in.wav'), { seconds: 1 });
    mp3 = await makeTone(path.join(dir, 'in.mp3'), { seconds: 1 });
  });
  afterAll(() => cleanup());
  const leftovers = (folder: string) => readdirSync(folder).filter((n) => n.startsWith('.'));

  it('refuses an output that is a folder, saying so in one line, and leaves the folder as it was', async () => {
    const folder = path.join(dir, 'a folder');
    await mkdir(folder);
    for (const o of [folder, `${folder}/`]) {
      const r = await runCli(['-o', o, wav, mp3]);
      expect(r.code).toBe(1);
      expect(r.stderr).toBe(`audio-merge: cannot write ${o}: it is a folder\n`);
    }
    expect(readdirSync(folder)).toEqual([]);
    expect(leftovers(dir)).toEqual([]);
  });

  it('refuses an output name ending in a slash rather than writing a file of that name', async () => {
    const r = await runCli(['-o', path.join(dir, 'new') + '/', mp3]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^audio-merge: cannot write .*new\/: that names a folder, not a file\n$/);
    expect(existsSync(path.join(dir, 'new'))).toBe(false);
  });

  it('says in words why an output folder cannot be written, naming the output, not a temporary file', async () => {
    const r = await runCli(['-o', '/proc/out.mp3', wav]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^audio-merge: cannot write \/proc\/out\.mp3: [a-z][^:]*\n$/);
    expect(r.stderr).not.toMatch(/partial|audio-merge-|ENOENT/);
  });

  it('replaces an existing output atomically: a link to the old file keeps the old bytes', async () => {
    const target = path.join(dir, 'existing.mp3');
    await writeFile(target, 'old contents');
    await link(target, path.join(dir, 'old-link'));
    const r = await runCli(['-o', target, mp3, wav]);
    expect(r.code).toBe(0);
    expect(await decodeErrors(target)).toBe('');
    expect(await readFile(path.join(dir, 'old-link'), 'utf8')).toBe('old contents');
    expect(leftovers(dir)).toEqual([]);
  });

  it('names a missing input and a broken link in words', async () => {
    await symlink(path.join(dir, 'gone.mp3'), path.join(dir, 'dangling.mp3'));
    const target = path.join(dir, 'never.mp3');
    const missing = await runCli(['-o', target, mp3, 'missing.mp3'], { cwd: dir });
    expect(missing.code).toBe(1);
    expect(missing.stderr).toBe('audio-merge: missing.mp3: cannot be read (no such file)\n');
    const dangling = await runCli(['-o', target, mp3, 'dangling.mp3'], { cwd: dir });
    expect(dangling.code).toBe(1);
    expect(dangling.stderr).toBe(
      'audio-merge: dangling.mp3: cannot be read (a link to a file that does not exist)\n',
    );
    expect(existsSync(target)).toBe(false);
    expect(leftovers(dir)).toEqual([]);
  });
});
