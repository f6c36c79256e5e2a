import { describe, expect, it } from 'vitest';
import { checkSoundOptions } from './sound-options.js';

const cli = (o: string) => `--${o.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;

describe('checking the sound options', () => {
  it('accepts sensible values and leaves out what was not given', () => {
    expect(checkSoundOptions({ loudness: -16, gap: 1.5, trimSilence: true })).toEqual({
      ok: true,
      options: { loudness: -16, gap: 1.5, trimSilence: true },
    });
    expect(checkSoundOptions({ crossfade: 2, gapless: false, loudness: null })).toEqual({
      ok: true,
      options: { crossfade: 2, gapless: false },
    });
  });

  it('refuses negative and absurd values, naming the option as the caller spells it', () => {
    expect(checkSoundOptions({ gap: -1 }, cli)).toEqual({
      ok: false,
      option: 'gap',
      problem: 'value',
      message: '--gap must be a number of seconds from 0 to 60',
    });
    expect(checkSoundOptions({ crossfade: 3600 }, cli)).toMatchObject({
      ok: false,
      option: 'crossfade',
      message: /^--crossfade must be/,
    });
    expect(checkSoundOptions({ loudness: 3 })).toMatchObject({
      ok: false,
      option: 'loudness',
      message: 'loudness must be a loudness in LUFS from -70 to -5',
    });
    expect(checkSoundOptions({ loudness: '-16' })).toMatchObject({ ok: false, option: 'loudness' });
    expect(checkSoundOptions({ gap: Number.NaN })).toMatchObject({ ok: false, option: 'gap' });
    expect(checkSoundOptions({ trimSilence: 'yes' }, cli)).toEqual({
      ok: false,
      option: 'trimSilence',
      problem: 'value',
      message: '--trim-silence must be true or false',
    });
    // Null turns loudness off; no other option has an "off" but leaving it out.
    expect(checkSoundOptions({ gap: null })).toMatchObject({ ok: false, option: 'gap' });
    expect(checkSoundOptions({ gapless: null })).toMatchObject({ ok: false, option: 'gapless' });
  });

  it('refuses a gap together with a crossfade', () => {
    expect(checkSoundOptions({ gap: 1, crossfade: 2 }, cli)).toEqual({
      ok: false,
      option: 'crossfade',
      problem: 'together',
      message: '--gap and --crossfade cannot be used together',
    });
    expect(checkSoundOptions({ gap: 0, crossfade: 2 }).ok).toBe(true);
  });
});
