// The sound options: what each one is, the values it takes, and the one check of a set of them.
// The command line, the server's check of mergemp3's options and its API schema all read these
// rules, so a value is refused the same way, with the same bounds, wherever it is given.
import { SOUND_LIMITS } from './sound-limits.js';

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

/** A number in an inclusive range (`what` it is, for messages), or a switch. */
export type SoundRule =
  { kind: 'range'; min: number; max: number; what: string; nullIsOff?: boolean } | { kind: 'switch' };

/** Each option's rule. Only loudness may be null, which turns it off (as leaving it out does). */
export const SOUND_RULES = {
  loudness: { kind: 'range', ...SOUND_LIMITS.loudness, what: 'a loudness in LUFS', nullIsOff: true },
  gap: { kind: 'range', ...SOUND_LIMITS.gap, what: 'a number of seconds' },
  crossfade: { kind: 'range', ...SOUND_LIMITS.crossfade, what: 'a number of seconds' },
  trimSilence: { kind: 'switch' },
  gapless: { kind: 'switch' },
} as const satisfies Record<SoundOptionName, SoundRule>;

export const SOUND_OPTION_NAMES = Object.keys(SOUND_RULES) as SoundOptionName[];

/** Why a set of sound options is refused: a value outside its rule, or two options that clash. */
export type SoundProblem = 'value' | 'together';

export type SoundCheck =
  | { ok: true; options: SoundOptions }
  | { ok: false; option: SoundOptionName; problem: SoundProblem; message: string };

/** What a value of `option` must be ("a number of seconds from 0 to 60", "true or false"). */
export function mustBe(option: SoundOptionName): string {
  const rule: SoundRule = SOUND_RULES[option];
  return rule.kind === 'range' ? `${rule.what} from ${rule.min} to ${rule.max}` : 'true or false';
}

function absent(option: SoundOptionName, v: unknown): boolean {
  const rule: SoundRule = SOUND_RULES[option];
  return v === undefined || (v === null && rule.kind === 'range' && rule.nullIsOff === true);
}

function fits(option: SoundOptionName, v: unknown): boolean {
  const rule: SoundRule = SOUND_RULES[option];
  if (rule.kind === 'switch') return typeof v === 'boolean';
  return typeof v === 'number' && Number.isFinite(v) && v >= rule.min && v <= rule.max;
}

/**
 * Check the sound options among `raw` (other keys are not looked at): the server's JSON, or the
 * command line's after it has read its numbers. `label` is how the caller names an option in a
 * message (--gap, "gap").
 */
export function checkSoundOptions(
  raw: Record<string, unknown>,
  label: (o: SoundOptionName) => string = (o) => o,
): SoundCheck {
  const out: Record<string, unknown> = {};
  for (const option of SOUND_OPTION_NAMES) {
    const v = raw[option];
    if (absent(option, v)) continue;
    if (!fits(option, v))
      return { ok: false, option, problem: 'value', message: `${label(option)} must be ${mustBe(option)}` };
    out[option] = v;
  }
  const options = out as SoundOptions;
  // A gap and a crossfade both say what happens between two inputs: only one can.
  if ((options.gap ?? 0) > 0 && (options.crossfade ?? 0) > 0) {
    return {
      ok: false,
      option: 'crossfade',
      problem: 'together',
      message: `${label('gap')} and ${label('crossfade')} cannot be used together`,
    };
  }
  return { ok: true, options };
}
