// A full disk is told as such. Known by the error's code (the file system's ENOSPC/EDQUOT, SQLite's
// SQLITE_FULL), looked for along the `cause` chain since the engine wraps what it reports, and
// foreseen by a low-space watermark so an upload is refused before it fills the disk.
import { statfs } from 'node:fs/promises';

const FULL_CODES = new Set(['ENOSPC', 'EDQUOT', 'SQLITE_FULL']);

export function isDiskFull(err: unknown): boolean {
  for (let e = err, depth = 0; e && depth < 8; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && FULL_CODES.has(code)) return true;
  }
  return false;
}

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
