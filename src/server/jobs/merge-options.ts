// Pure: mergemp3's "options" (CONTRACT section 3), checked one by one. An unknown or invalid option
// is refused naming it; none at all is an MP3 exactly as before options existed.
import { BITRATE_RANGE, isOutputFormat, SOUND_LIMITS, type OutputFormat } from '../../engine/index.js';
import type { MergeOptions, SoundOptions } from '../../engine/index.js';

/** The options as stored with the job (plain JSON) and handed to the engine. */
export interface MergeOptionsData {
  format?: OutputFormat;
  bitrate?: number;
  chapters?: boolean;
  chapterTitles?: 'tags' | 'files';
  title?: string;
  artist?: string;
  album?: string;
  loudness?: number | null;
  gap?: number;
  crossfade?: number;
  trimSilence?: boolean;
  gapless?: boolean;
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

const CHECKS: Record<keyof MergeOptionsData, Check> = {
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
  loudness: (v) =>
    v === null ? undefined : range(SOUND_LIMITS.loudness.min, SOUND_LIMITS.loudness.max, 'LUFS')(v),
  gap: range(SOUND_LIMITS.gap.min, SOUND_LIMITS.gap.max, 'seconds'),
  crossfade: range(SOUND_LIMITS.crossfade.min, SOUND_LIMITS.crossfade.max, 'seconds'),
  trimSilence: bool,
  gapless: bool,
};

/** Check every option; the first problem is refused, naming the option. */
export function checkMergeOptions(raw: unknown): OptionsCheck {
  if (raw === undefined || raw === null) return { ok: true, options: {} };
  if (typeof raw !== 'object' || Array.isArray(raw))
    return { ok: false, message: '"options" must be an object' };
  for (const [key, value] of Object.entries(raw)) {
    // Own keys only: "constructor" or "hasOwnProperty" must not find Object.prototype's.
    if (!Object.hasOwn(CHECKS, key)) return { ok: false, message: `Unknown option "${key}"` };
    const check = CHECKS[key as keyof MergeOptionsData];
    const wrong = check(value);
    if (wrong) return { ok: false, message: `Option "${key}" ${wrong}` };
  }
  const options = raw as MergeOptionsData;
  if ((options.gap ?? 0) > 0 && (options.crossfade ?? 0) > 0)
    return { ok: false, message: 'Options "gap" and "crossfade" cannot be used together' };
  return { ok: true, options };
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
