// Where files live in the bucket: "<sid>/<area>/<name>", everything of a session under "<sid>/"
// so retention deletes a session with one prefix. Keys are built only from ids and names the
// server made, re-checked like disk paths are.
import { check, SAFE_FILE, SAFE_NAME } from '../disk/disk-storage.js';
import type { FileRef } from '../storage.js';

export const sessionPrefix = (sid: string) => `${check(sid, SAFE_NAME, 'sid')}/`;

export function objectKey(ref: FileRef): string {
  if (ref.area !== 'uploads' && ref.area !== 'results')
    throw new Error(`Refusing unknown storage area ${JSON.stringify(ref.area)}`);
  return `${sessionPrefix(ref.sid)}${ref.area}/${check(ref.name, SAFE_FILE, 'file name')}`;
}
