import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../../../test/support/audio-fixtures.js';
import { waitUntilGone } from '../../../test/support/processes.js';
import { ownerOf, processInfo, RUN_TAG, runIsGone, sweepLeftovers, TEMP_PREFIX } from './leftovers.js';

let dir: string;
let cleanup: () => Promise<void>;
beforeAll(async () => ({ dir, cleanup } = await tempDir('leftovers-')));
afterAll(() => cleanup());

/** A process that has come and gone: its pid is free (until reused). */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', '0']);
  await new Promise((r) => child.on('close', r));
  await waitUntilGone(child.pid!);
  return child.pid!;
}

const tag = (pid: number, startedAt: number) => `${pid}-${startedAt.toString(36)}`;

describe('leftovers of killed runs', () => {
  it('reads the run out of the names a run gives its partial file and temporary folder', async () => {
    const [pid, start36] = RUN_TAG.split('-');
    const me = { pid: Number(pid), startedAt: parseInt(start36, 36) };
    expect(me.pid).toBe(process.pid);
    expect(ownerOf(`.out.mp3.${RUN_TAG}-mh2k3x9abc.partial`)).toEqual(me);
    expect(ownerOf(`.audio-merge.${RUN_TAG}-mh2k3x9abc.partial`)).toEqual(me); // a long output name
    const made = path.basename(await mkdtemp(path.join(dir, TEMP_PREFIX)));
    expect(ownerOf(made)).toEqual(me);
    for (const other of [
      'out.mp3',
      '.out.mp3.partial',
      '.audio-merge-abc123',
      'a.12-ab-cd.partial',
      '.audio-merge-12-ab-toolong',
    ]) {
      expect(ownerOf(other)).toBeUndefined();
    }
  });

  it('knows this process, and when it started', () => {
    const info = processInfo(process.pid);
    expect(info?.zombie).toBe(false);
    const started = Date.now() - process.uptime() * 1000;
    expect(Math.abs(info!.startedAt - started)).toBeLessThan(3000);
  });

  it('counts a run gone when its process is, when killed but unreaped, or when its pid was reused by a newer process', async () => {
    const now = Date.now() - process.uptime() * 1000;
    expect(runIsGone({ pid: await deadPid(), startedAt: now })).toBe(true);
    expect(runIsGone({ pid: process.pid, startedAt: now })).toBe(false);
    expect(runIsGone({ pid: process.pid, startedAt: now - 3600_000 })).toBe(true); // the pid's earlier owner
    expect(runIsGone({ pid: process.pid, startedAt: now }, () => ({ startedAt: now, zombie: true }))).toBe(
      true,
    );
    expect(runIsGone({ pid: process.pid, startedAt: now - 3600_000 }, () => undefined)).toBe(false); // unsure: left alone
  });

  it("removes a dead run's partial file and temporary folder, never a live run's or anything else", async () => {
    const here = path.join(dir, 'sweep');
    await mkdir(here);
    const live = spawn('sleep', ['30']);
    try {
      const liveTag = tag(live.pid!, Math.floor((Date.now() - 1000) / 1000) * 1000);
      const deadTag = tag(await deadPid(), Date.now() - 60_000);
      const deadTemp = `.audio-merge-${deadTag}-Ab12Cd`;
      await mkdir(path.join(here, deadTemp));
      await writeFile(path.join(here, deadTemp, '0.mp3'), 'half an encode');
      await writeFile(path.join(here, `.book.mp3.${deadTag}-x1y2.partial`), 'half a join');
      await writeFile(path.join(here, `.book.mp3.${liveTag}-x1y2.partial`), 'being written');
      await mkdir(path.join(here, `.audio-merge-${liveTag}-Zz99Yy`));
      await writeFile(path.join(here, 'book.mp3'), 'a finished output');
      await writeFile(path.join(here, '.audio-merge-notes'), 'not ours');
      const outside = path.join(dir, 'outside');
      await mkdir(outside);
      await writeFile(path.join(outside, 'keep.txt'), 'keep');
      const linkTag = tag(await deadPid(), Date.now() - 60_000);
      await symlink(outside, path.join(here, `.audio-merge-${linkTag}-Li0000`));

      const removed = await sweepLeftovers(here);

      expect(removed.sort()).toEqual(
        [deadTemp, `.audio-merge-${linkTag}-Li0000`, `.book.mp3.${deadTag}-x1y2.partial`].sort(),
      );
      expect((await readdir(here)).sort()).toEqual(
        [
          '.audio-merge-notes',
          `.audio-merge-${liveTag}-Zz99Yy`,
          `.book.mp3.${liveTag}-x1y2.partial`,
          'book.mp3',
        ].sort(),
      );
      expect(existsSync(path.join(outside, 'keep.txt'))).toBe(true);
    } finally {
      live.kill('SIGKILL');
    }
  });

  it('does nothing in a folder that cannot be read', async () => {
    expect(await sweepLeftovers(path.join(dir, 'no-such-folder'))).toEqual([]);
  });
});
