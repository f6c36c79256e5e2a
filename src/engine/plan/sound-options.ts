// The sound options (CONTRACT section 2 "Sound"), their limits, and one check that the command
// line and the server both use, so an absurd value is refused the same way everywhere.
import { SOUND_LIMITS } from '../../shared/sound-limits.js';

export interface SoundOptions {
  /** Target integrated loudness, LUFS (EBU R128); off when undefined. */
  loudness?: number;
  /** Seconds of silence between consecutive inputs. */
  gap?: number;
  /** Seconds consecutive inputs overlap, with a constant-power fade. */
  crossfade?: number;
  /** Remove leading and trailing silence (below -50 dBFS) of each input. */
  trimSilence?: boolean;
  /** Remove each input's encoder delay and padding. */
  gapless?: boolean;
}

export type SoundOptionName = keyof SoundOptions;

export { SOUND_LIMITS };

const WHAT: Record<keyof typeof SOUND_LIMITS, string> = {
  loudness: 'a loudness in LUFS',
  gap: 'a number of seconds',
  crossfade: 'a number of seconds',
};

export type SoundCheck =
  { ok: true; options: SoundOptions } | { ok: false; option: SoundOptionName; message: string };

/** The message for a bad value of `option`; `label` is how the caller names it (--gap, gap). */
export function rangeMessage(option: keyof typeof SOUND_LIMITS, label: string): string {
  const { min, max } = SOUND_LIMITS[option];
  return `${label} must be ${WHAT[option]} from ${min} to ${max}`;
}

function inRange(option: keyof typeof SOUND_LIMITS, v: unknown): boolean {
  const { min, max } = SOUND_LIMITS[option];
  return typeof v === 'number' && Number.isFinite(v) && v >= min && v <= max;
}

/**
 * Check options given as values (the server's JSON, or the command line's after parsing numbers).
 * `label` turns an option's name into the caller's spelling for messages.
 */
export function checkSoundOptions(
  raw: Record<string, unknown>,
  label: (o: SoundOptionName) => string = (o) => o,
): SoundCheck {
  const out: SoundOptions = {};
  for (const option of ['loudness', 'gap', 'crossfade'] as const) {
    const v = raw[option];
    if (v === undefined || v === null) continue;
    if (!inRange(option, v)) return { ok: false, option, message: rangeMessage(option, label(option)) };
    out[option] = v as number;
  }
  for (const option of ['trimSilence', 'gapless'] as const) {
    const v = raw[option];
    if (v === undefined || v === null) continue;
    if (typeof v !== 'boolean')
      return { ok: false, option, message: `${label(option)} must be true or false` };
    out[option] = v;
  }
  if ((out.gap ?? 0) > 0 && (out.crossfade ?? 0) > 0) {
    return {
      ok: false,
      option: 'crossfade',
      message: `${label('gap')} and ${label('crossfade')} cannot be used together`,
    };
  }
  return { ok: true, options: out };
}

/** A number as a person typed it on the command line ('-16', '0.5'); NaN when it is not one. */
export function numberFromText(text: string): number {
  return /^[-+]?(\d+(\.\d*)?|\.\d+)$/.test(text.trim()) ? Number(text) : NaN;
}
