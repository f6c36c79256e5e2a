import { describe, expect, it } from 'vitest';
import { mayBeFramesLength } from './legacy-lengths.js';

describe('an MP3 length that may be its frames whole', () => {
  it('is a whole number of 1152- or 576-sample frames at its rate', () => {
    expect(mayBeFramesLength({ format: 'mp3', sampleRate: 44100, duration: (1000 * 1152) / 44100 })).toBe(
      true,
    );
    expect(mayBeFramesLength({ format: 'mp3', sampleRate: 22050, duration: (777 * 576) / 22050 })).toBe(true);
  });

  it('is not a decoded length that the delay and padding made uneven, nor any other format', () => {
    expect(
      mayBeFramesLength({ format: 'mp3', sampleRate: 44100, duration: (1000 * 1152 - 1105 - 700) / 44100 }),
    ).toBe(false);
    expect(mayBeFramesLength({ format: 'm4a', sampleRate: 44100, duration: (1000 * 1152) / 44100 })).toBe(
      false,
    );
    expect(mayBeFramesLength({ format: 'mp3', sampleRate: 0, duration: 1 })).toBe(false);
  });
});
