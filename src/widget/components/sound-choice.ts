// Pure: the sound options as a person sets them in the panel, and the mergemp3 options they
// become (mergemp3's options, docs/reference/http.md). Only what is set is sent; a length out of bounds is refused here,
// with the same limits the server holds, before anything is asked of it.
import { LOUDNESS_TARGETS, SOUND_LIMITS } from '../../shared/sound-limits.js';
import type { AudioItem } from '../../shared/types.js';
import { t } from '../i18n/locale.js';

/** One choice, so a gap with a crossfade cannot be asked for. */
export type Between = 'none' | 'gap' | 'crossfade';

export interface SoundChoice {
  loudness: boolean;
  /** LUFS the person picked; null: the default for the files in the list (defaultTarget). */
  target: number | null;
  between: Between;
  /** The length field as typed, in seconds. */
  seconds: string;
  trimSilence: boolean;
  gapless: boolean;
}

export const initialSoundChoice: SoundChoice = {
  loudness: false,
  target: null,
  between: 'none',
  seconds: '2',
  trimSilence: false,
  gapless: false,
};

export interface SoundOptionsData {
  loudness?: number;
  gap?: number;
  crossfade?: number;
  trimSilence?: boolean;
  gapless?: boolean;
}

export type SoundCheck = { ok: true; options: SoundOptionsData } | { ok: false; message: string };

/**
 * -19 LUFS when every file is mono (the output then is mono, and a mono file plays on both
 * speakers, 3 dB louder than it measures), else -16. Files whose channels the server did not say
 * count as stereo.
 */
export function defaultTarget(items: readonly Pick<AudioItem, 'channels'>[]): number {
  const mono = items.length > 0 && items.every((i) => i.channels === 1);
  return mono ? LOUDNESS_TARGETS.mono : LOUDNESS_TARGETS.stereo;
}

export function targetOf(choice: SoundChoice, items: readonly Pick<AudioItem, 'channels'>[]): number {
  return choice.target ?? defaultTarget(items);
}

/** The length in seconds, or null when it is not a number above 0 and within the option's limit. */
export function lengthOf(between: Exclude<Between, 'none'>, typed: string): number | null {
  const text = typed.trim();
  const n = Number(text);
  if (text === '' || !Number.isFinite(n) || n <= 0 || n > SOUND_LIMITS[between].max) return null;
  return n;
}

/** What the panel asks for, as mergemp3 options: only those set; a bad length refused with its message. */
export function soundOptionsOf(
  choice: SoundChoice,
  items: readonly Pick<AudioItem, 'channels'>[],
): SoundCheck {
  const options: SoundOptionsData = {};
  if (choice.loudness) options.loudness = targetOf(choice, items);
  if (choice.between !== 'none') {
    const seconds = lengthOf(choice.between, choice.seconds);
    if (seconds === null)
      return { ok: false, message: t().badLength(choice.between, SOUND_LIMITS[choice.between].max) };
    options[choice.between] = seconds;
  }
  if (choice.trimSilence) options.trimSilence = true;
  if (choice.gapless) options.gapless = true;
  return { ok: true, options };
}
