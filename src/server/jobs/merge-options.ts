// Pure: mergemp3's "options", checked one by one. An unknown or invalid option is refused naming
// it; none at all is an MP3 exactly as before options existed. The sound options are checked by
// the same rules as the command line's (src/shared/sound-options.ts).
import { BITRATE_RANGE, isOutputFormat, type OutputFormat } from '../../engine/index.js';
import type { MergeOptions } from '../../engine/index.js';
import { checkSoundOptions, SOUND_OPTION_NAMES, type SoundOptions } from '../../shared/sound-options.js';

/** The options as stored with the job (plain JSON) and handed to the engine; a null loudness is off. */
export interface MergeOptionsData extends Omit<SoundOptions, 'loudness'> {
  format?: OutputFormat;
  bitrate?: number;
  chapters?: boolean;
  chapterTitles?: 'tags' | 'files';
  title?: string;
  artist?: string;
  album?: string;
  loudness?: number | null;
}

export type OptionsCheck = { ok: true; options: MergeOptionsData } | { ok: false; message: string };

type Check = (v: unknown) => string | undefined;

const MAX_TEXT = 500;
/** C0 controls and DEL: a tag holding them would be cut short or garble a file's header. */
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f]/;
// eslint-disable-next-line no-control-regex
const CONTROL_BUT_LINES = /[\u0000-\u0008\u000b-\u001f\u007f]/;
/** A tag's text; only a long text (a description) may hold newlines and tabs. */
const tagText =
  (multiline = false): Check =>
  (v) => {
    if (typeof v !== 'string' || v.length > MAX_TEXT) return `must be text of at most ${MAX_TEXT} characters`;
    if ((multiline ? CONTROL_BUT_LINES : CONTROL).test(v)) return 'must not hold control characters';
    return undefined;
  };
const text = tagText();
const bool: Check = (v) => (typeof v === 'boolean' ? undefined : 'must be true or false');
const range =
  (min: number, max: number, what = 'a number'): Check =>
  (v) =>
    typeof v === 'number' && Number.isFinite(v) && v >= min && v <= max
      ? undefined
      : `must be ${what} from ${min} to ${max}`;

/** The sound options are not here: checkSoundOptions checks them, together. */
const CHECKS: Record<Exclude<keyof MergeOptionsData, keyof SoundOptions>, Check> = {
  format: (v) =>
    typeof v === 'string' && isOutputFormat(v)
      ? undefined
      : 'must be one of mp3, m4b, m4a, opus, ogg, flac, wav',
  bitrate: (v) =>
    Number.isInteger(v)
      ? range(BITRATE_RANGE.min, BITRATE_RANGE.max, 'a whole number of kb/s')(v)
      : `must be a whole number of kb/s from ${BITRATE_RANGE.min} to ${BITRATE_RANGE.max}`,
  chapters: bool,
  chapterTitles: (v) => (v === 'tags' || v === 'files' ? undefined : 'must be "tags" or "files"'),
  title: text,
  artist: text,
  album: text,
};

const isSoundOption = (key: string): boolean => (SOUND_OPTION_NAMES as string[]).includes(key);

/** Check every option; the first problem is refused, naming the option. */
export function checkMergeOptions(raw: unknown): OptionsCheck {
  if (raw === undefined || raw === null) return { ok: true, options: {} };
  if (typeof raw !== 'object' || Array.isArray(raw))
    return { ok: false, message: '"options" must be an object' };
  for (const [key, value] of Object.entries(raw)) {
    if (isSoundOption(key)) continue;
    const check = Object.hasOwn(CHECKS, key) ? CHECKS[key as keyof typeof CHECKS] : undefined;
    if (!check) return { ok: false, message: `Unknown option "${key}"` };
    const wrong = check(value);
    if (wrong) return { ok: false, message: `Option "${key}" ${wrong}` };
  }
  const sound = checkSoundOptions(raw as Record<string, unknown>, (o) => `"${o}"`);
  if (!sound.ok)
    return { ok: false, message: `${sound.problem === 'together' ? 'Options' : 'Option'} ${sound.message}` };
  return { ok: true, options: raw as MergeOptionsData };
}

/** The engine's options for a job's stored ones (the format defaulting to MP3, as before options). */
export function engineOptions(
  o: MergeOptionsData,
): Pick<
  MergeOptions,
  'format' | 'bitRateKbps' | 'chapters' | 'chapterTitles' | 'title' | 'artist' | 'album' | keyof SoundOptions
> {
  return {
    format: o.format ?? 'mp3',
    bitRateKbps: o.bitrate,
    chapters: o.chapters,
    chapterTitles: o.chapterTitles,
    title: o.title,
    artist: o.artist,
    album: o.album,
    loudness: o.loudness ?? undefined,
    gap: o.gap,
    crossfade: o.crossfade,
    trimSilence: o.trimSilence,
    gapless: o.gapless,
  };
}
