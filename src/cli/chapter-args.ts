// Pure: the command line's chapter-finding and parts options, read into ChapterOptions and checked
// by the one set of rules the server also uses (src/shared/chapter-options.ts), named as typed.
import {
  CHAPTER_DEFAULTS,
  CHAPTER_LIMITS,
  checkChapterOptions,
  type ChapterOptionName,
  type ChapterOptions,
} from '../shared/chapter-options.js';
import { numberFromText } from './sound-args.js';

export type ChapterDraft = Record<string, unknown>;

const FLAG: Record<ChapterOptionName, string> = {
  chaptersAt: '--chapters-at',
  silenceMin: '--silence-min',
  silenceDb: '--silence-db',
  chapterMin: '--chapter-min',
  chapterMax: '--chapter-max',
  split: '--split',
};

const number =
  (option: ChapterOptionName) =>
  (d: ChapterDraft, v: string): string | undefined => {
    const n = numberFromText(v);
    if (Number.isNaN(n)) return `${FLAG[option]} must be a number, not ${JSON.stringify(v)}`;
    d[option] = n;
  };

/** Options that take a value (negative ones too: --silence-db -50). */
export const CHAPTER_VALUED: Record<string, (d: ChapterDraft, v: string) => string | undefined> = {
  '--chapters-at': (d, v) => void (d.chaptersAt = v),
  '--silence-min': number('silenceMin'),
  '--silence-db': number('silenceDb'),
  '--chapter-min': number('chapterMin'),
  '--chapter-max': number('chapterMax'),
  '--split': (d, v) => (v === 'chapters' ? void (d.split = v) : number('split')(d, v)),
};

/** The chapter options read and checked; a usage message naming the option when one is wrong. */
export function finishChapters(
  d: ChapterDraft,
): { ok: true; options: ChapterOptions } | { ok: false; usage: string } {
  const check = checkChapterOptions(d, (o) => FLAG[o]);
  return check.ok ? { ok: true, options: check.options } : { ok: false, usage: check.message };
}

const L = CHAPTER_LIMITS;

export const CHAPTER_HELP = `Chapters found in silences, and books in parts:
  --chapters-at W         files|silences|both: where chapters start. files (the default): where
                          each input starts; silences: in the silences inside and between the
                          inputs (not at input starts; the book's first chapter starts it); both
  --silence-min S         a silence lasts at least S seconds (${L.silenceMin.min} to ${L.silenceMin.max}; default ${CHAPTER_DEFAULTS.silenceMin})...
  --silence-db DB         ...below DB dBFS (${L.silenceDb.min} to ${L.silenceDb.max}; default ${CHAPTER_DEFAULTS.silenceDb}). A chapter found in a
                          silence starts inside it, half a second before the sound that ends it
                          (mid-way in a shorter one), so a jump to it hears the first words at
                          once; found chapters are titled Chapter N (N its place in the book),
                          but one that starts where an input starts keeps that input's title.
                          Chapters are marks, not cuts: copied MP3s and AAC stay copied
  --chapter-min S         a chapter found in a silence less than S seconds after the one before
                          is not made (default 0)
  --chapter-max S         a chapter longer than S seconds is split in the longest pause (0.3 s
                          or more) in its middle half, else the pause nearest its middle, again
                          until none is longer; where a stretch holds no pause, at S (default none)
  --split P               chapters|SECONDS: write the output as parts, OUT with -01, -02, ...
                          before the extension: one chapter a part, or as many whole chapters a
                          part as fit in SECONDS (${L.split.min} or more; a longer chapter is cut in a
                          silence in its last tenth before the limit, else at the limit)`;
