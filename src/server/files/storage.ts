// Where files live under DATA_DIR. Paths are built only from ids and names the server made;
// every builder re-checks its parts and that the result stays under the root.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { ItemRow, ResultRow } from '../data/store.js';

export interface Storage {
  root: string;
  /** DATA_DIR/tmp: uploads in flight and merges in progress. */
  tmpDir: string;
  uploadPath(item: Pick<ItemRow, 'sid' | 'newfilename' | 'format'>): string;
  resultsDir(sid: string): string;
  resultPath(result: Pick<ResultRow, 'sid' | 'file'>): string;
}

export interface DiskStorage extends Storage {
  uploadsRoot: string;
  resultsRoot: string;
  uploadsDir(sid: string): string;
  /** The folders that hold a session's files (uploads and results). */
  sessionDirs(sid: string): string[];
}

/** Names the server makes: random ids and short lowercase formats. Anything else is a bug or an attack. */
export const SAFE_NAME = /^[A-Za-z0-9_-]{1,128}$/;
export const SAFE_FORMAT = /^[a-z0-9]{1,10}$/;
export const SAFE_FILE = /^[A-Za-z0-9_-]{1,128}\.[a-z0-9]{1,10}$/;

export function check(value: string, pattern: RegExp, what: string): string {
  if (!pattern.test(value)) throw new Error(`Refusing unsafe ${what} in a storage path: ${JSON.stringify(value)}`);
  return value;
}

/** True when `target` is `root` itself or inside it (both already absolute and normalised). */
export function isInside(root: string, target: string): boolean {
  const rel = path.relative(root, target);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}

export function createStorage(dataDir: string): DiskStorage {
  const root = path.resolve(dataDir);
  const tmpDir = path.join(root, 'tmp');
  const uploadsRoot = path.join(root, 'uploads');
  const resultsRoot = path.join(root, 'results');
  for (const dir of [root, tmpDir, uploadsRoot, resultsRoot]) mkdirSync(dir, { recursive: true });

  const under = (base: string, ...parts: string[]): string => {
    const p = path.join(base, ...parts);
    if (!isInside(base, p)) throw new Error(`Refusing a path outside ${base}`);
    return p;
  };
  const uploadsDir = (sid: string) => under(uploadsRoot, check(sid, SAFE_NAME, 'sid'));
  const resultsDir = (sid: string) => under(resultsRoot, check(sid, SAFE_NAME, 'sid'));

  return {
    root,
    tmpDir,
    uploadsRoot,
    resultsRoot,
    uploadsDir,
    resultsDir,
    uploadPath(item) {
      const name = `${check(item.newfilename, SAFE_NAME, 'file name')}.${check(item.format, SAFE_FORMAT, 'format')}`;
      return under(uploadsDir(item.sid), name);
    },
    resultPath(result) {
      return under(resultsDir(result.sid), check(result.file, SAFE_FILE, 'result file'));
    },
    sessionDirs: (sid) => [uploadsDir(sid), resultsDir(sid)],
  };
}
