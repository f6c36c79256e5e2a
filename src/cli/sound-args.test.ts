import { describe, expect, it } from 'vitest';
import {
  finishSound,
  flagOf,
  numberFromText,
  SOUND_FLAGS,
  SOUND_VALUED,
  type SoundDraft,
} from './sound-args.js';

function read(args: string[]) {
  const d: SoundDraft = {};
  for (let i = 0; i < args.length; i++) {
    const [name, inline] = args[i].split('=');
    if (SOUND_FLAGS[name]) {
      SOUND_FLAGS[name](d);
      continue;
    }
    const wrong = SOUND_VALUED[name](d, inline ?? args[++i]);
    if (wrong) return { usage: wrong };
  }
  return finishSound(d);
}

describe("the command line's sound options", () => {
  it('reads every option, a negative loudness included', () => {
    expect(read(['--loudness', '-16', '--gap=1.5', '--trim-silence', '--gapless'])).toEqual({
      ok: true,
      options: { loudness: -16, gap: 1.5, trimSilence: true, gapless: true },
    });
    expect(read(['--crossfade', '2'])).toEqual({ ok: true, options: { crossfade: 2 } });
  });

  it('refuses a gap with a crossfade', () => {
    expect(read(['--gap', '1', '--crossfade', '2'])).toEqual({
      ok: false,
      usage: '--gap and --crossfade cannot be used together',
    });
  });

  it('names the option of a negative, absurd or unreadable value', () => {
    expect(read(['--gap', '-1'])).toEqual({
      ok: false,
      usage: '--gap must be a number of seconds from 0 to 60',
    });
    expect(read(['--crossfade', '1e9'])).toEqual({ usage: '--crossfade must be a number, not "1e9"' });
    expect(read(['--crossfade', '999'])).toMatchObject({ ok: false, usage: /^--crossfade must be/ });
    expect(read(['--loudness', '+5'])).toEqual({
      ok: false,
      usage: '--loudness must be a loudness in LUFS from -70 to -5',
    });
  });

  it('spells options as the command line does', () => {
    expect(flagOf('trimSilence')).toBe('--trim-silence');
    expect(flagOf('gap')).toBe('--gap');
  });

  it('reads numbers as typed, and nothing else', () => {
    expect(numberFromText('-16')).toBe(-16);
    expect(numberFromText('0.5')).toBe(0.5);
    expect(numberFromText('.25')).toBe(0.25);
    expect(numberFromText('1e3')).toBeNaN();
    expect(numberFromText('two')).toBeNaN();
    expect(numberFromText('')).toBeNaN();
  });
});
