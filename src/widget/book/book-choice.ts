// Pure: the book a person sets beside the make button (format, chapters, quality, details) and
// the mergemp3 options it becomes; the saved choices read back into it; the make label naming
// the chosen format.
import type { OutputFormat } from '../../shared/output-formats.js';
import { t } from '../i18n/locale.js';
import { initialSoundChoice, type SoundChoice } from '../components/sound-choice.js';

/** The details the panel offers, in its order (the others stay the command line's). */
export const PANEL_DETAILS = [
  'title',
  'artist',
  'narrator',
  'album',
  'genre',
  'year',
  'description',
] as const;
export type PanelDetail = (typeof PANEL_DETAILS)[number];

export const QUALITIES = {
  auto: {},
  speechSmall: { bitrate: 64, channels: 1 },
  speech: { bitrate: 96, channels: 1 },
  standard: { bitrate: 128, channels: 2 },
  high: { bitrate: 192, channels: 2 },
} as const;
export type Quality = keyof typeof QUALITIES;

/** Formats whose files hold no chapters: the chapters switch is replaced by a note. */
const WITHOUT_CHAPTERS: readonly OutputFormat[] = ['wav'];
const LOSSLESS: readonly OutputFormat[] = ['flac', 'wav'];

export const carriesChapters = (f: OutputFormat): boolean => !WITHOUT_CHAPTERS.includes(f);

/** The qualities offered for a format: none for a lossless one (its samples are kept as they are). */
export const qualitiesFor = (f: OutputFormat): Quality[] =>
  LOSSLESS.includes(f) ? [] : (Object.keys(QUALITIES) as Quality[]);

export interface BookChoice {
  format: OutputFormat;
  chapters: boolean;
  quality: Quality;
  details: Partial<Record<PanelDetail, string>>;
}

export const initialBookChoice = (format: OutputFormat): BookChoice => ({
  format,
  chapters: true,
  quality: 'auto',
  details: {},
});

/** The mergemp3 options of the book: only what is set (a format without chapters asks for none). */
export function bookOptionsOf(c: BookChoice): Record<string, unknown> {
  const options: Record<string, unknown> = {
    format: c.format,
    chapters: carriesChapters(c.format) && c.chapters,
  };
  if (qualitiesFor(c.format).includes(c.quality)) Object.assign(options, QUALITIES[c.quality]);
  for (const name of PANEL_DETAILS) {
    const v = c.details[name]?.trim();
    if (v) options[name] = name === 'description' ? c.details[name] : v;
  }
  return options;
}

const isQuality = (bitrate: unknown, channels: unknown) =>
  (Object.keys(QUALITIES) as Quality[]).find((q) => {
    const o: { bitrate?: number; channels?: number } = QUALITIES[q];
    return o.bitrate === bitrate && o.channels === channels;
  }) ?? 'auto';

/** Saved choices (saveChoices) back into the book and the sound panel; what does not fit is left out. */
export function restoreChoices(
  saved: Record<string, unknown>,
  formats: readonly OutputFormat[],
): { book: BookChoice; sound: SoundChoice } {
  const format = formats.includes(saved.format as OutputFormat) ? (saved.format as OutputFormat) : formats[0];
  const details: BookChoice['details'] = {};
  for (const name of PANEL_DETAILS)
    if (typeof saved[name] === 'string') details[name] = saved[name] as string;
  const book: BookChoice = {
    format,
    chapters: saved.chapters !== false || !carriesChapters(format),
    quality: isQuality(saved.bitrate, saved.channels),
    details,
  };
  const sound: SoundChoice = { ...initialSoundChoice };
  if (typeof saved.loudness === 'number') Object.assign(sound, { loudness: true, target: saved.loudness });
  for (const between of ['gap', 'crossfade'] as const)
    if (typeof saved[between] === 'number')
      Object.assign(sound, { between, seconds: String(saved[between]) });
  sound.trimSilence = saved.trimSilence === true;
  sound.gapless = saved.gapless === true;
  return { book, sound };
}

/** The make button's text: the host's label, its `{format}` replaced by the chosen format's name. */
export const makeLabelFor = (label: string, format: OutputFormat): string =>
  label.replaceAll('{format}', t().formatNames[format]);
