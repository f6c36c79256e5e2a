// Deleting under DATA_DIR without ever leaving it: the path is checked to lie under the root
// (after resolving links of its parent), and links are removed, never followed.
import { lstat, realpath, rm } from 'node:fs/promises';
import path from 'node:path';

/** True when `target` is `root` itself or inside it (both already absolute and normalised). */
export function isInside(root: string, target: string): boolean {
  const rel = path.relative(root, target);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}

/**
 * Remove `dir` when it is safely inside `root`: its parent, links resolved, must be inside the
 * real root; a link in its place is unlinked, not followed (rm does not follow links inside).
 */
export async function removeInside(root: string, dir: string): Promise<boolean> {
  const realRoot = await realpath(root);
  const parent = await realpath(path.dirname(dir)).catch(() => undefined);
  if (!parent) return false;
  const target = path.join(parent, path.basename(dir));
  if (!isInside(realRoot, target) || target === realRoot || parent === path.parse(parent).root) {
    throw new Error(`Refusing to delete ${dir}: it is not inside ${root}`);
  }
  const info = await lstat(target).catch(() => undefined);
  if (!info) return false;
  await rm(target, { recursive: info.isDirectory(), force: true });
  return true;
}
