// The book details a merge takes from its inputs' tags when the person gives none, for the page
// to show as the Book details fields' placeholders. Each upload's own details (from its tags, as
// the probe read them) are kept beside it as a small JSON file; GET /app/merge/tagDetails
// (http/routes/tag-details.ts) reads the session's and answers what a merge would inherit.
import { randomBytes } from 'node:crypto';
import { rm, writeFile } from 'node:fs/promises';
import { oneLineTag } from '../../engine/index.js';
import { DETAIL_NAMES, DETAIL_TAGS, type DetailName, type Details } from '../../shared/details.js';
import type { ItemRow } from '../data/store.js';
import { tagsRef, type FileStorage } from '../files/storage.js';

/** Details a merge takes from a tag; never the description or comment (engine/inputs/meta.ts). */
const INHERITED: readonly DetailName[] = DETAIL_NAMES.filter((n) => n !== 'description' && n !== 'comment');
/** How many of a session's items are read: the details come from the first that has each. */
export const ITEMS_READ = 50;

/** One upload's details as its tags give them, one line each; undefined when it has none. */
export function detailsOfTags(tags: Record<string, string>): Details | undefined {
  const found = INHERITED.flatMap((n) => {
    const v = oneLineTag(tags[DETAIL_TAGS[n]] ?? '');
    return v ? [[n, v]] : [];
  });
  return found.length > 0 ? Object.fromEntries(found) : undefined;
}

/**
 * What a merge of uploads with these details (in order) inherits: each from the first that has
 * it; the title is the album they all share, else the first title.
 */
export function inheritedDetails(all: readonly (Details | undefined)[]): Details {
  const out: Details = {};
  for (const name of INHERITED) {
    const v = all.map((d) => d?.[name]).find(Boolean);
    if (v) out[name] = v;
  }
  const albums = new Set(all.map((d) => d?.album ?? ''));
  const [shared] = albums;
  if (albums.size === 1 && shared) out.title = shared;
  return out;
}

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
