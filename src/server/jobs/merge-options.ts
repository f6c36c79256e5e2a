// Pure: mergemp3's "options", checked one by one. An unknown or invalid option is refused naming
// it; none at all is an MP3 exactly as before options existed. The sound options are checked by
// the same rules as the command line's (src/shared/sound-options.ts).
import { BITRATE_RANGE, isOutputFormat, type OutputFormat } from '../../engine/index.js';
import type { MergeOptions } from '../../engine/index.js';
import { checkSoundOptions, SOUND_OPTION_NAMES, type SoundOptions } from '../../shared/sound-options.js';
import { DETAIL_NAMES, detailProblem, type DetailName, type Details } from '../../shared/details.js';
import { checkChapterOptions, type ChapterOptions } from '../../shared/chapter-options.js';
import {
  isChannelChoice,
  isSampleRate,
  SAMPLE_RATE_RANGE,
  type ChannelChoice,
} from '../../shared/output-shape.js';

/** The options as stored with the job (plain JSON) and handed to the engine; a null loudness is off. */
/** The chapter-finding options a merge takes (a book in parts is the command line's only, so far). */
export type FindingOptions = Omit<ChapterOptions, 'split'>;
const FINDING_NAMES = ['chaptersAt', 'silenceMin', 'silenceDb', 'chapterMin', 'chapterMax'] as const;
const isFindingOption = (key: string): boolean => (FINDING_NAMES as readonly string[]).includes(key);

export interface MergeOptionsData extends Omit<SoundOptions, 'loudness'>, Details, FindingOptions {
  format?: OutputFormat;
  bitrate?: number;
  channels?: ChannelChoice;
  sampleRate?: number;
  chapters?: boolean;
  chapterTitles?: 'tags' | 'files';
  inputChapters?: 'keep' | 'flatten';
  /** false: leave the session's cover out of this merge. */
  cover?: boolean;
  loudness?: number | null;
}

export type OptionsCheck = { ok: true; options: MergeOptionsData } | { ok: false; message: string };

type Check = (v: unknown) => string | undefined;

const bool: Check = (v) => (typeof v === 'boolean' ? undefined : 'must be true or false');
const range =
  (min: number, max: number, what = 'a number'): Check =>
  (v) =>
    typeof v === 'number' && Number.isFinite(v) && v >= min && v <= max
      ? undefined
      : `must be ${what} from ${min} to ${max}`;
const detail =
  (name: DetailName): Check =>
  (v) =>
    detailProblem(name, v);

/** The sound options are not here: checkSoundOptions checks them, together. */
const CHECKS: Record<Exclude<keyof MergeOptionsData, keyof SoundOptions | keyof FindingOptions>, Check> = {
  format: (v) =>
    typeof v === 'string' && isOutputFormat(v)
      ? undefined
      : 'must be one of mp3, m4b, m4a, opus, ogg, flac, wav',
  bitrate: (v) =>
    Number.isInteger(v)
      ? range(BITRATE_RANGE.min, BITRATE_RANGE.max, 'a whole number of kb/s')(v)
      : `must be a whole number of kb/s from ${BITRATE_RANGE.min} to ${BITRATE_RANGE.max}`,
  channels: (v) => (isChannelChoice(v) ? undefined : 'must be 1 or 2'),
  sampleRate: (v) =>
    isSampleRate(v)
      ? undefined
      : `must be a whole number of Hz from ${SAMPLE_RATE_RANGE.min} to ${SAMPLE_RATE_RANGE.max}`,
  chapters: bool,
  chapterTitles: (v) => (v === 'tags' || v === 'files' ? undefined : 'must be "tags" or "files"'),
  inputChapters: (v) => (v === 'keep' || v === 'flatten' ? undefined : 'must be "keep" or "flatten"'),
  cover: bool,
  ...(Object.fromEntries(DETAIL_NAMES.map((n) => [n, detail(n)])) as Record<DetailName, Check>),
};

const isSoundOption = (key: string): boolean => (SOUND_OPTION_NAMES as string[]).includes(key);

/** Check every option; the first problem is refused, naming the option. */
export function checkMergeOptions(raw: unknown): OptionsCheck {
  if (raw === undefined || raw === null) return { ok: true, options: {} };
  if (typeof raw !== 'object' || Array.isArray(raw))
    return { ok: false, message: '"options" must be an object' };
  for (const [key, value] of Object.entries(raw)) {
    if (isSoundOption(key) || isFindingOption(key)) continue;
    const check = Object.hasOwn(CHECKS, key) ? CHECKS[key as keyof typeof CHECKS] : undefined;
    if (!check) return { ok: false, message: `Unknown option "${key}"` };
    const wrong = check(value);
    if (wrong) return { ok: false, message: `Option "${key}" ${wrong}` };
  }
  const sound = checkSoundOptions(raw as Record<string, unknown>, (o) => `"${o}"`);
  if (!sound.ok)
    return { ok: false, message: `${sound.problem === 'together' ? 'Options' : 'Option'} ${sound.message}` };
  const finding = checkChapterOptions(raw as Record<string, unknown>, (o) => `"${o}"`);
  if (!finding.ok) return { ok: false, message: `Option ${finding.message}` };
  return { ok: true, options: raw as MergeOptionsData };
}

/** The option keys mergemp3 takes (and saveChoices keeps). */
export const MERGE_OPTION_NAMES: readonly string[] = [
  ...Object.keys(CHECKS),
  ...SOUND_OPTION_NAMES,
  ...FINDING_NAMES,
];

/**
 * The engine's options for a job's stored ones (the format defaulting to MP3, as before options).
 * The cover is not here: the processor hands the engine the session's cover file.
 */
export function engineOptions(
  o: MergeOptionsData,
): Pick<
  MergeOptions,
  | 'format'
  | 'bitRateKbps'
  | 'channels'
  | 'sampleRate'
  | 'chapters'
  | 'chapterTitles'
  | 'inputChapters'
  | DetailName
  | keyof SoundOptions
  | keyof FindingOptions
> {
  const details: Details = {};
  for (const n of DETAIL_NAMES) if (o[n]) details[n] = o[n];
  return {
    format: o.format ?? 'mp3',
    bitRateKbps: o.bitrate,
    channels: o.channels,
    sampleRate: o.sampleRate,
    chapters: o.chapters,
    chapterTitles: o.chapterTitles,
    inputChapters: o.inputChapters,
    ...details,
    loudness: o.loudness ?? undefined,
    gap: o.gap,
    crossfade: o.crossfade,
    trimSilence: o.trimSilence,
    gapless: o.gapless,
    chaptersAt: o.chaptersAt,
    silenceMin: o.silenceMin,
    silenceDb: o.silenceDb,
    chapterMin: o.chapterMin,
    chapterMax: o.chapterMax,
  };
}
