// Room left on a disk: a low-space watermark refuses an upload before it fills the disk. (A disk
// that is full anyway is known by its error's code: isDiskFull in ../errors.ts.)
import { statfs } from 'node:fs/promises';

/** Bytes an unprivileged process may still write on the file system holding `dir`. */
export type FreeSpace = (dir: string) => Promise<number>;

export const statfsFreeSpace: FreeSpace = async (dir) => {
  const s = await statfs(dir);
  return s.bavail * s.bsize;
};

/**
 * True when writing `incoming` more bytes under `dir` would leave less than `minFreeBytes` free.
 * A file system that cannot be asked is given the benefit of the doubt: the write itself will tell.
 */
export async function wouldCrossWatermark(
  freeSpace: FreeSpace,
  dir: string,
  incoming: number,
  minFreeBytes: number,
): Promise<boolean> {
  if (minFreeBytes <= 0 && incoming <= 0) return false;
  const free = await freeSpace(dir).catch(() => Number.POSITIVE_INFINITY);
  return free - incoming < minFreeBytes;
}
