// Pure: the command line's sound options, read into SoundOptions and checked by the one set of
// sound rules (src/shared/sound-options.ts) the server also uses, with the option named as typed.
import { SOUND_LIMITS } from '../shared/sound-limits.js';
import { checkSoundOptions, type SoundOptionName, type SoundOptions } from '../shared/sound-options.js';

export type SoundDraft = Record<string, unknown>;

/** How the command line spells an option. */
export function flagOf(option: SoundOptionName): string {
  return `--${option.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;
}

/** A number as a person typed it ('-16', '0.5'); NaN when it is not one (no '1e3', no hex). */
export function numberFromText(text: string): number {
  return /^[-+]?(\d+(\.\d*)?|\.\d+)$/.test(text.trim()) ? Number(text) : NaN;
}

const number =
  (option: SoundOptionName) =>
  (d: SoundDraft, v: string): string | undefined => {
    const n = numberFromText(v);
    if (Number.isNaN(n)) return `${flagOf(option)} must be a number, not ${JSON.stringify(v)}`;
    d[option] = n;
  };

/** Options that take a value (negative ones too: --loudness -16). */
export const SOUND_VALUED: Record<string, (d: SoundDraft, v: string) => string | undefined> = {
  '--loudness': number('loudness'),
  '--gap': number('gap'),
  '--crossfade': number('crossfade'),
};

export const SOUND_FLAGS: Record<string, (d: SoundDraft) => void> = {
  '--trim-silence': (d) => void (d.trimSilence = true),
  '--gapless': (d) => void (d.gapless = true),
};

/** The sound options read, checked together; a usage message naming the option when one is wrong. */
export function finishSound(
  d: SoundDraft,
): { ok: true; options: SoundOptions } | { ok: false; usage: string } {
  const check = checkSoundOptions(d, flagOf);
  return check.ok ? { ok: true, options: check.options } : { ok: false, usage: check.message };
}

const { gap: GAP, crossfade: FADE } = SOUND_LIMITS;

export const SOUND_HELP = `Sound:
  --loudness LUFS         bring each input to that integrated loudness (EBU R128; -16 suits
                          stereo speech, -19 mono), no sample above -1 dBTP (a gain is lowered
                          rather than clip, and the report says so); copied MP3s stay copied,
                          their gain changed inside the frames in 1.5 dB steps
  --gap SECONDS           that much silence between consecutive inputs (${GAP.min} to ${GAP.max}); in a copied
                          MP3 stream it is made of silent frames of the stream's own format
  --crossfade SECONDS     overlap consecutive inputs with a constant-power fade (${FADE.min} to ${FADE.max}; not
                          with --gap); a pair shorter than twice that gets a shorter fade, said
                          on stderr; every input is decoded
  --trim-silence          remove each input's leading and trailing silence (below -50 dBFS,
                          keeping 30 ms); copied MP3s are cut at whole frames and stay copied
  --gapless               remove encoder delay and padding, so the output lasts exactly the
                          inputs' decoded durations with no gap or click at the joins; every
                          input is decoded`;
