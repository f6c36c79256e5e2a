// The book details a merge takes from its inputs' tags when the person gives none, for the page
// to show as the Book details fields' placeholders. Each upload's own details (from its tags, as
// the probe read them) are kept beside it as a small JSON file; GET /app/merge/tagDetails
// (http/routes/tag-details.ts) reads the session's and answers what a merge would inherit.
import { randomBytes } from 'node:crypto';
import { rm, writeFile } from 'node:fs/promises';
import { detailsOfTags } from '../../engine/index.js';
import type { Details } from '../../shared/details.js';
import type { ItemRow } from '../data/store.js';
import { tagsRef, type FileStorage } from '../files/storage.js';

/** How many of a session's items are read: the details come from the first that has each. */
export const ITEMS_READ = 50;

/** Keep an upload's details beside it (nothing when its tags hold none). */
export async function keepTagDetails(
  files: FileStorage,
  item: ItemRow,
  tags: Record<string, string>,
): Promise<void> {
  const details = detailsOfTags(tags);
  if (!details) return;
  const tmp = files.scratchPath(`tags-${randomBytes(8).toString('hex')}`);
  try {
    await writeFile(tmp, JSON.stringify(details));
    await files.put(tagsRef(item), tmp);
  } finally {
    await rm(tmp, { force: true });
  }
}

/** An upload's kept details; undefined when it has none (or they are gone or unreadable). */
export async function readTagDetails(files: FileStorage, item: ItemRow): Promise<Details | undefined> {
  const ref = tagsRef(item);
  try {
    if (!(await files.stat(ref))) return undefined;
    const chunks: Buffer[] = [];
    for await (const c of await files.read(ref)) chunks.push(c as Buffer);
    return JSON.parse(Buffer.concat(chunks).toString('utf8')) as Details;
  } catch {
    return undefined; // gone meanwhile, or unreadable: a placeholder is only a hint
  }
}
