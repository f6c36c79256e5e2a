// Pure: the command line's sound options (CONTRACT section 2 "Sound"), read into the engine's
// SoundOptions and checked by the engine's own rules, with the option named as typed.
import { checkSoundOptions, numberFromText, type SoundOptionName, type SoundOptions } from '../engine/index.js';

const NUMERIC: Record<string, SoundOptionName> = { '--loudness': 'loudness', '--gap': 'gap', '--crossfade': 'crossfade' };
const SWITCHES: Record<string, SoundOptionName> = { '--trim-silence': 'trimSilence', '--gapless': 'gapless' };

/** How the command line spells an option. */
export function flagOf(option: SoundOptionName): string {
  return `--${option.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;
}

export type FlagOutcome = 'not-sound' | 'ok' | { usage: string };

/**
 * Read one flag into `into` when it is a sound option. `value` takes the flag's value (inline
 * after '=' or the next argument); negative numbers are values here (--loudness -16).
 */
export function readSoundFlag(name: string, value: () => string | undefined, into: Record<string, unknown>): FlagOutcome {
  const numeric = NUMERIC[name];
  if (numeric) {
    const v = value();
    if (v === undefined) return { usage: `${name} needs a value` };
    const n = numberFromText(v);
    into[numeric] = n;
    return Number.isNaN(n) ? { usage: `${name} must be a number, not "${v}"` } : 'ok';
  }
  const flag = SWITCHES[name];
  if (flag) {
    into[flag] = true;
    return 'ok';
  }
  return 'not-sound';
}

/** The sound options read so far, checked; a usage message naming the option when one is wrong. */
export function finishSound(read: Record<string, unknown>): { ok: true; options: SoundOptions } | { ok: false; usage: string } {
  const check = checkSoundOptions(read, flagOf);
  return check.ok ? check : { ok: false, usage: check.message };
}

export const SOUND_HELP = `Sound:
  --loudness LUFS    bring each input to that integrated loudness (EBU R128, e.g. -16 for stereo
                     speech, -19 mono), no sample above -1 dBTP; copied MP3s stay copied (their
                     gain changes in 1.5 dB steps inside the frames)
  --gap SECONDS      that much silence between consecutive inputs (0 to 60)
  --crossfade SECONDS  overlap consecutive inputs with a constant-power fade (0 to 30; not with
                     --gap); a pair shorter than twice that gets a shorter fade, said on stderr
  --trim-silence     remove each input's leading and trailing silence (below -50 dBFS)
  --gapless          remove encoder delay and padding: the output lasts exactly the inputs'
                     decoded durations (inputs are decoded)`;
