// Pure: an input's one length from what its probe found (and a measuring decode, when there was one).
import { describe, expect, it } from 'vitest';
import type { ProbeResult } from '../types.js';
import { decodedLength } from './length.js';

const probe = (over: Partial<ProbeResult>): ProbeResult => ({
  path: 'x',
  format: 'mp3',
  codec: 'mp3',
  sampleRate: 44100,
  channels: 2,
  durationSeconds: 10,
  bitRate: 128000,
  tags: {},
  ...over,
});

describe('decodedLength', () => {
  it("an MP3 with a LAME tag: its frames less the encoder's delay and padding", () => {
    const frames = 1000;
    const p = probe({
      durationSeconds: (frames * 1152) / 44100,
      mp3: {
        mpegVersion: 1,
        layer: 3,
        frames,
        audioBytes: 1,
        vbr: true,
        samplesPerFrame: 1152,
        gapless: { delay: 576, padding: 1000 },
      },
    });
    expect(decodedLength(p)).toBe((frames * 1152 - 576 - 1000) / 44100);
    // A measure does not change what the tag states exactly.
    expect(decodedLength(p, 99)).toBe((frames * 1152 - 576 - 1000) / 44100);
  });

  it('an MP3 without one: all its frames', () => {
    const p = probe({
      durationSeconds: (500 * 576) / 22050,
      sampleRate: 22050,
      mp3: { mpegVersion: 2, layer: 3, frames: 500, audioBytes: 1, vbr: false, samplesPerFrame: 576 },
    });
    expect(decodedLength(p)).toBe((500 * 576) / 22050);
  });

  it("an AAC track: the length its edit list states when the decode ran on into the last frame's padding", () => {
    const p = probe({ format: 'm4a', codec: 'aac', durationSeconds: 7.3, sampleRate: 22050 });
    expect(decodedLength(p, 7.3 + 800 / 22050)).toBe(7.3);
    // Further than any padding: the header lied, and the decode is what it holds.
    expect(decodedLength(p, 9)).toBe(9);
    expect(decodedLength(p, 5)).toBe(5);
  });

  it('anything else: the measuring decode, else the probed length', () => {
    const wav = probe({ format: 'wav', codec: 'pcm_s16le', durationSeconds: 86401 });
    expect(decodedLength(wav, 1.5)).toBe(1.5);
    expect(decodedLength(wav)).toBe(86401);
    expect(decodedLength(wav, 0)).toBe(86401);
  });
});
