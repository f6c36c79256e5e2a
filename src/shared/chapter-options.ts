// The options that shape chapters and parts: where chapters start (the inputs, the silences, or
// both), what a silence is, the shortest and longest chapter, and a book in parts. The command
// line and the server check them by these one set of rules, with the same bounds.

export const CHAPTERS_AT = ['files', 'silences', 'both'] as const;
export type ChaptersAt = (typeof CHAPTERS_AT)[number];

export interface ChapterOptions {
  /** Where chapters start: each input's start ('files', the default), the silences, or both. */
  chaptersAt?: ChaptersAt;
  /** A silence: at least this many seconds (default 2)... */
  silenceMin?: number;
  /** ...below this level, dBFS (default -45). */
  silenceDb?: number;
  /** A chapter found in a silence starting less than this many seconds after the one before is not made. */
  chapterMin?: number;
  /** A chapter longer than this many seconds is split in a pause. */
  chapterMax?: number;
  /** The output as parts: one chapter a part, or whole chapters up to this many seconds a part. */
  split?: 'chapters' | number;
}

export type ChapterOptionName = keyof ChapterOptions;

export const CHAPTER_DEFAULTS = { silenceMin: 2, silenceDb: -45 } as const;

/** Inclusive ranges of the numbers (seconds, dBFS). */
export const CHAPTER_LIMITS = {
  silenceMin: { min: 0.1, max: 30 },
  silenceDb: { min: -90, max: -10 },
  chapterMin: { min: 0, max: 360_000 },
  chapterMax: { min: 1, max: 360_000 },
  split: { min: 10, max: 360_000 },
} as const;

export const CHAPTER_OPTION_NAMES: readonly ChapterOptionName[] = [
  'chaptersAt',
  'silenceMin',
  'silenceDb',
  'chapterMin',
  'chapterMax',
  'split',
];

export type ChapterCheck =
  { ok: true; options: ChapterOptions } | { ok: false; option: ChapterOptionName; message: string };

const inRange = (v: unknown, r: { min: number; max: number }): v is number =>
  typeof v === 'number' && Number.isFinite(v) && v >= r.min && v <= r.max;

/** What a value of `option` must be, for messages. */
export function chapterOptionMustBe(option: ChapterOptionName): string {
  if (option === 'chaptersAt') return `one of ${CHAPTERS_AT.join(', ')}`;
  const r = CHAPTER_LIMITS[option];
  const range = `from ${r.min} to ${r.max}`;
  if (option === 'split') return `"chapters" or a number of seconds ${range}`;
  return option === 'silenceDb' ? `a level in dBFS ${range}` : `a number of seconds ${range}`;
}

function fits(option: ChapterOptionName, v: unknown): boolean {
  if (option === 'chaptersAt') return (CHAPTERS_AT as readonly unknown[]).includes(v);
  if (option === 'split' && v === 'chapters') return true;
  return inRange(v, CHAPTER_LIMITS[option]);
}

/**
 * Check the chapter options among `raw` (other keys are not looked at; undefined and null are
 * left out). `label` names an option in a message as the caller spells it (--silence-min, "silenceMin").
 */
export function checkChapterOptions(
  raw: Record<string, unknown>,
  label: (o: ChapterOptionName) => string = (o) => o,
): ChapterCheck {
  const out: Record<string, unknown> = {};
  for (const option of CHAPTER_OPTION_NAMES) {
    const v = raw[option];
    if (v === undefined || v === null) continue;
    if (!fits(option, v))
      return { ok: false, option, message: `${label(option)} must be ${chapterOptionMustBe(option)}` };
    out[option] = v;
  }
  return { ok: true, options: out as ChapterOptions };
}
