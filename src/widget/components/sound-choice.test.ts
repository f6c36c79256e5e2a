import { describe, expect, it } from 'vitest';
import {
  defaultTarget,
  initialSoundChoice,
  lengthOf,
  soundOptionsOf,
  type SoundChoice,
} from './sound-choice.js';

const choice = (over: Partial<SoundChoice>): SoundChoice => ({ ...initialSoundChoice, ...over });
const stereo = [{ channels: 2 }, { channels: 2 }];

describe('the sound choice as mergemp3 options', () => {
  it('sends nothing when nothing is set', () => {
    expect(soundOptionsOf(initialSoundChoice, stereo)).toEqual({ ok: true, options: {} });
  });

  it('sends only what is set, the length under the chosen name', () => {
    expect(
      soundOptionsOf(choice({ loudness: true, between: 'gap', seconds: ' 0.5 ', gapless: true }), stereo),
    ).toEqual({
      ok: true,
      options: { loudness: -16, gap: 0.5, gapless: true },
    });
    expect(
      soundOptionsOf(choice({ between: 'crossfade', seconds: '30', trimSilence: true }), stereo),
    ).toEqual({
      ok: true,
      options: { crossfade: 30, trimSilence: true },
    });
    // A length typed while "nothing" is chosen is not sent, and not checked.
    expect(soundOptionsOf(choice({ between: 'none', seconds: '-4' }), stereo)).toEqual({
      ok: true,
      options: {},
    });
  });

  it('refuses lengths at or below 0, past the limit, or not numbers', () => {
    for (const typed of ['0', '-1', '', 'abc', 'Infinity', '60.5']) expect(lengthOf('gap', typed)).toBeNull();
    expect(lengthOf('gap', '60')).toBe(60);
    expect(lengthOf('crossfade', '30.1')).toBeNull();
    expect(soundOptionsOf(choice({ between: 'crossfade', seconds: '45' }), stereo)).toEqual({
      ok: false,
      message: 'The crossfade must be a number of seconds above 0 and at most 30.',
    });
  });

  it('aims at -19 LUFS when every file is mono, else -16; the person may choose', () => {
    expect(defaultTarget([{ channels: 1 }, { channels: 1 }])).toBe(-19);
    expect(defaultTarget([{ channels: 1 }, { channels: 2 }])).toBe(-16);
    expect(defaultTarget([{ channels: 1 }, {}])).toBe(-16);
    expect(defaultTarget([])).toBe(-16);
    expect(soundOptionsOf(choice({ loudness: true, target: -16 }), [{ channels: 1 }])).toEqual({
      ok: true,
      options: { loudness: -16 },
    });
  });
});
