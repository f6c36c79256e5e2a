// Pure: the book's details as each output format holds them, keyed by the names ffprobe reads
// them back under. A format without a field for a detail leaves it out; a description goes to the
// comment where the format has no description of its own (Vorbis comments and WAV: ffmpeg reads
// a Vorbis DESCRIPTION as the comment).
import { DETAIL_NAMES, DETAIL_TAGS, type DetailName, type Details } from '../../shared/details.js';
import { oneLineTag } from './chapters.js';
import type { OutputFormat } from './formats.js';

/** The tags written, by ffprobe's names (title, artist, album_artist, composer, date, ...). */
export type WrittenTags = Record<string, string>;

/** Details each format has no field for (WAV's RIFF INFO list has no album artist or composer). */
const NO_FIELD: Partial<Record<OutputFormat, string[]>> = {
  wav: ['album_artist', 'composer'],
};

const OWN_DESCRIPTION = new Set<OutputFormat>(['mp3', 'm4b', 'm4a']);

/** One line each, trimmed; a description keeps its inner lines. Empty values are left out. */
function cleaned(details: Details): Details {
  const out: Details = {};
  for (const name of DETAIL_NAMES) {
    const v = details[name]?.trim();
    if (v) out[name] = v;
  }
  return out;
}

export function tagsFor(format: OutputFormat, details: Details): WrittenTags {
  const d = cleaned(details);
  const tags: WrittenTags = {};
  for (const name of DETAIL_NAMES) {
    const v = d[name];
    if (v === undefined || name === 'description' || name === 'comment') continue;
    if (NO_FIELD[format]?.includes(DETAIL_TAGS[name])) continue;
    tags[DETAIL_TAGS[name]] = v;
  }
  if (OWN_DESCRIPTION.has(format)) {
    if (d.description) tags.description = d.description;
    if (d.comment) tags.comment = d.comment;
  } else {
    const comment = [d.description, d.comment].filter((v) => v).join('\n\n');
    if (comment) tags.comment = comment;
  }
  return tags;
}

/**
 * The book's title when none is given: the album the inputs share, else the first input's title
 * tag, else the first input's file title.
 */
export function defaultBookTitle(albums: (string | undefined)[], firstTitle: string): string {
  const a = albums.map((v) => v?.trim() ?? '');
  if (a.length > 0 && a[0] !== '' && a.every((v) => v === a[0])) return a[0];
  return firstTitle;
}

/** Details a merge takes from its inputs' tags; never their description or comment. */
const INHERITED: readonly DetailName[] = DETAIL_NAMES.filter((n) => n !== 'description' && n !== 'comment');

/** One input's details as its tags give them, one line each; undefined when it has none. */
export function detailsOfTags(tags: Record<string, string>): Details | undefined {
  const found = INHERITED.flatMap((n) => {
    const v = oneLineTag(tags[DETAIL_TAGS[n]] ?? '');
    return v ? [[n, v]] : [];
  });
  return found.length > 0 ? Object.fromEntries(found) : undefined;
}

/**
 * What a merge of inputs with these details (in order) takes when none is given: each from the
 * first that has it; the title is the album they all share, else the first title (none when no
 * input has one: the merge then takes the first file's name).
 */
export function inheritedDetails(all: readonly (Details | undefined)[]): Details {
  const out: Details = {};
  for (const name of INHERITED) {
    const v = all.map((d) => d?.[name]).find(Boolean);
    if (v) out[name] = v;
  }
  const title = defaultBookTitle(
    all.map((d) => d?.album),
    out.title ?? '',
  );
  if (title) out.title = title;
  return out;
}
