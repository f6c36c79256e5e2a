// Where files live in the bucket: "<sid>/<area>/<name>", everything of a session under "<sid>/"
// so retention deletes a session with one prefix. Keys are built only from ids and names the
// server made, re-checked like disk paths are.
import { check, SAFE_FILE, SAFE_NAME } from '../disk/disk-storage.js';
import type { FileArea, FileRef } from '../storage.js';

export const sessionPrefix = (sid: string) => `${check(sid, SAFE_NAME, 'sid')}/`;

/** Where the files of one of a session's areas live: "<sid>/<area>/". */
export function areaPrefix(sid: string, area: FileArea): string {
  if (area !== 'uploads' && area !== 'results')
    throw new Error(`Refusing unknown storage area ${JSON.stringify(area)}`);
  return `${sessionPrefix(sid)}${area}/`;
}

export function objectKey(ref: FileRef): string {
  return `${areaPrefix(ref.sid, ref.area)}${check(ref.name, SAFE_FILE, 'file name')}`;
}
