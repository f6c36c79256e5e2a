// FileStorage on the local disk under DATA_DIR: uploads/{sid}/, results/{sid}/ and tmp/ (the
// scratch area). Paths are built only from ids and names the server made; every builder
// re-checks its parts and that the result stays under the root.
import { createReadStream, mkdirSync } from 'node:fs';
import { copyFile, mkdir, open, readdir, rename, rm, stat, unlink } from 'node:fs/promises';
import path from 'node:path';
import type { FileRef, FileStorage } from '../storage.js';
import { isInside, removeInside } from './remove-inside.js';

export interface DiskStorage extends FileStorage {
  root: string;
  /** DATA_DIR/tmp: uploads in flight and merges in progress. */
  tmpDir: string;
  uploadsDir(sid: string): string;
  resultsDir(sid: string): string;
  /** Where a stored file lies on disk (tests look at it there). */
  pathOf(ref: FileRef): string;
  uploadPath(item: { sid: string; newfilename: string; format: string }): string;
  resultPath(result: { sid: string; file: string }): string;
}

/** Names the server makes: random ids and short lowercase formats. Anything else is a bug or an attack. */
export const SAFE_NAME = /^[A-Za-z0-9_-]{1,128}$/;
export const SAFE_FILE = /^[A-Za-z0-9_-]{1,128}\.[a-z0-9]{1,10}$/;

export function check(value: string, pattern: RegExp, what: string): string {
  if (!pattern.test(value))
    throw new Error(`Refusing unsafe ${what} in a storage path: ${JSON.stringify(value)}`);
  return value;
}

/** rename, or copy and delete when the two paths are on different devices. */
async function moveFile(from: string, to: string): Promise<void> {
  try {
    await rename(from, to);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EXDEV') throw err;
    await copyFile(from, to);
    await unlink(from);
  }
}

export function createDiskStorage(dataDir: string): DiskStorage {
  const root = path.resolve(dataDir);
  const tmpDir = path.join(root, 'tmp');
  const areaRoots = { uploads: path.join(root, 'uploads'), results: path.join(root, 'results') };
  for (const dir of [root, tmpDir, ...Object.values(areaRoots)]) mkdirSync(dir, { recursive: true });

  const under = (base: string, ...parts: string[]): string => {
    const p = path.join(base, ...parts);
    if (!isInside(base, p)) throw new Error(`Refusing a path outside ${base}`);
    return p;
  };
  const sessionDir = (area: keyof typeof areaRoots, sid: string) =>
    under(areaRoots[area], check(sid, SAFE_NAME, 'sid'));
  const pathOf = (ref: FileRef) =>
    under(sessionDir(ref.area, ref.sid), check(ref.name, SAFE_FILE, 'file name'));

  return {
    root,
    tmpDir,
    uploadsDir: (sid) => sessionDir('uploads', sid),
    resultsDir: (sid) => sessionDir('results', sid),
    pathOf,
    uploadPath: (item) =>
      pathOf({ area: 'uploads', sid: item.sid, name: `${item.newfilename}.${item.format}` }),
    resultPath: (result) => pathOf({ area: 'results', sid: result.sid, name: result.file }),

    async put(ref, localPath) {
      const target = pathOf(ref);
      await mkdir(path.dirname(target), { recursive: true });
      await moveFile(localPath, target);
    },
    async stat(ref) {
      const info = await stat(pathOf(ref)).catch(() => undefined);
      return info?.isFile() ? { size: info.size, modifiedAt: info.mtime } : undefined;
    },
    async read(ref, range) {
      return createReadStream(pathOf(ref), range && { start: range.start, end: range.end });
    },
    async open(ref) {
      const handle = await open(pathOf(ref), 'r').catch((err: NodeJS.ErrnoException) => {
        if (err.code === 'ENOENT') return undefined;
        throw err;
      });
      if (!handle) return undefined;
      const info = await handle.stat().catch(async (err: unknown) => {
        await handle.close();
        throw err;
      });
      if (!info.isFile()) {
        await handle.close();
        return undefined;
      }
      return { stream: handle.createReadStream(), size: info.size, modifiedAt: info.mtime };
    },
    async localPath(ref) {
      return pathOf(ref);
    },
    async remove(ref) {
      await rm(pathOf(ref), { force: true });
    },
    async storedNames(area, sid, prefix) {
      check(prefix, SAFE_NAME, 'file name prefix');
      const names = await readdir(sessionDir(area, sid)).catch(() => [] as string[]);
      return names.filter((name) => name.startsWith(prefix));
    },
    async removeSession(sid) {
      for (const area of ['uploads', 'results'] as const) await removeInside(root, sessionDir(area, sid));
    },
    scratchPath: (name) => under(tmpDir, check(name, /^[A-Za-z0-9_.-]{1,200}$/, 'scratch name')),
    async clearScratch(prefix = '') {
      const entries = await readdir(tmpDir).catch(() => [] as string[]);
      for (const name of entries) {
        if (name.startsWith(prefix)) await rm(path.join(tmpDir, name), { recursive: true, force: true });
      }
    },
  };
}
