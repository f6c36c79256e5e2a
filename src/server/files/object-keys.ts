// Where files live in the bucket: everything of a session under "<sid>/", so retention deletes a
// session with one prefix. Keys are built only from ids and names the server made, re-checked.
import type { ItemRow, ResultRow } from '../data/store.js';
import { check, SAFE_FILE, SAFE_FORMAT, SAFE_NAME } from './storage.js';

export const sessionPrefix = (sid: string) => `${check(sid, SAFE_NAME, 'sid')}/`;

export const uploadKey = (item: Pick<ItemRow, 'sid' | 'newfilename' | 'format'>) =>
  `${sessionPrefix(item.sid)}uploads/${check(item.newfilename, SAFE_NAME, 'file name')}.${check(item.format, SAFE_FORMAT, 'format')}`;

export const resultKey = (result: Pick<ResultRow, 'sid' | 'file'>) =>
  `${sessionPrefix(result.sid)}results/${check(result.file, SAFE_FILE, 'result file')}`;
