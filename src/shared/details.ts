// The book's details: each one's name among the options, the tag name ffprobe reads it back under,
// and the one check of their text, shared by the command line, the server and the widget.
import { typedTextProblem, type TypedTextRule } from './typed-text.js';

export const DETAIL_NAMES = [
  'title',
  'artist',
  'albumArtist',
  'album',
  'narrator',
  'genre',
  'year',
  'description',
  'comment',
] as const;

export type DetailName = (typeof DETAIL_NAMES)[number];

export type Details = Partial<Record<DetailName, string>>;

/** The tag each detail is written as, by the name ffprobe reads it back under. */
export const DETAIL_TAGS: Record<DetailName, string> = {
  title: 'title',
  artist: 'artist',
  albumArtist: 'album_artist',
  album: 'album',
  narrator: 'composer',
  genre: 'genre',
  year: 'date',
  description: 'description',
  comment: 'comment',
};

/** The command line's flag for each detail. */
export const DETAIL_FLAGS: Record<DetailName, string> = {
  title: '--title',
  artist: '--artist',
  albumArtist: '--album-artist',
  album: '--album',
  narrator: '--narrator',
  genre: '--genre',
  year: '--year',
  description: '--description',
  comment: '--comment',
};

/** Characters a detail may hold: a description runs to a few paragraphs, the rest are one line. */
export const DETAIL_MAX_CHARS: Record<DetailName, number> = {
  ...(Object.fromEntries(DETAIL_NAMES.map((n) => [n, 500])) as Record<DetailName, number>),
  description: 4000,
};

/** The rule of each detail's text: a description keeps its lines, the rest are one line. */
export const detailRule = (name: DetailName): TypedTextRule => ({
  max: DETAIL_MAX_CHARS[name],
  lines: name === 'description',
});

/** What is wrong with `value` as detail `name` ("must not hold control characters"), or undefined. */
export function detailProblem(name: DetailName, value: unknown): string | undefined {
  const problem = typedTextProblem(value, detailRule(name));
  if (problem === 'notText' || problem === 'tooLong')
    return `must be text of at most ${DETAIL_MAX_CHARS[name]} characters`;
  if (problem === 'refusedCharacter')
    return name === 'description'
      ? 'must not hold control or bidirectional control characters other than newlines and tabs'
      : 'must be one line without control or bidirectional control characters';
  return undefined;
}

export const isDetailName = (key: string): key is DetailName =>
  (DETAIL_NAMES as readonly string[]).includes(key);
