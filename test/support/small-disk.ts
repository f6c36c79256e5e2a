// A small disk for full-disk tests: a tmpfs mounted on a temporary folder (needs root; where the
// test may not mount, it is skipped with the reason), and a filler file that takes its free space.
import { execFile } from 'node:child_process';
import { mkdtemp, open, rm, statfs, truncate } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const exec = promisify(execFile);

export type SmallDisk = { ok: true; dir: string; dispose(): Promise<void> } | { ok: false; reason: string };

export async function mountSmallDisk(sizeMb: number): Promise<SmallDisk> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'audio-merge-small-disk-'));
  try {
    await exec('mount', ['-t', 'tmpfs', '-o', `size=${sizeMb}m`, 'tmpfs', dir]);
  } catch (err) {
    await rm(dir, { recursive: true, force: true });
    const why = ((err as { stderr?: string }).stderr || (err as Error).message).trim().split('\n')[0];
    return {
      ok: false,
      reason: `cannot mount a ${sizeMb} MB tmpfs here (${why}); run as root to test a full disk`,
    };
  }
  return {
    ok: true,
    dir,
    async dispose() {
      await exec('umount', ['-l', dir]).catch(() => {});
      await rm(dir, { recursive: true, force: true });
    },
  };
}

export async function freeBytes(dir: string): Promise<number> {
  const s = await statfs(dir);
  return s.bavail * s.bsize;
}

/** Fill the disk holding `file` until writing fails, then give back `leave` bytes. */
export async function fillDisk(file: string, leave = 0): Promise<void> {
  const fh = await open(file, 'w');
  const chunk = Buffer.alloc(64 * 1024, 0x5a);
  let size = 0;
  try {
    for (;;) {
      try {
        const { bytesWritten } = await fh.write(chunk, 0, chunk.length, size);
        size += bytesWritten;
        if (bytesWritten < chunk.length) break;
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'ENOSPC') throw err;
        break;
      }
    }
  } finally {
    await fh.close();
  }
  if (leave > 0) await truncate(file, Math.max(0, size - leave));
}
