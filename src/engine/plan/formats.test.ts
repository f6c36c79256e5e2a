import { describe, expect, it } from 'vitest';
import { opusKbps, vorbisQuality } from './formats.js';

describe('the lossy encoders’ settings', () => {
  it('gives Vorbis the quality level whose nominal bit rate is asked, each channel counted as half a stereo pair', () => {
    // libvorbis' table at 44.1 kHz stereo: 128 kb/s is q4, 160 q5; the defaults keep that.
    expect(vorbisQuality(160, 2)).toBe(5);
    expect(vorbisQuality(128, 2)).toBe(4);
    expect(vorbisQuality(96, 1)).toBe(vorbisQuality(192, 2));
    expect(vorbisQuality(144, 2)).toBe(4.5);
    // Beyond the table: its ends, never a level the encoder refuses.
    expect(vorbisQuality(8, 2)).toBe(-1);
    expect(vorbisQuality(320, 1)).toBe(10);
  });

  it('caps Opus at 256 kb/s a channel', () => {
    expect(opusKbps(320, 1)).toBe(256);
    expect(opusKbps(320, 2)).toBe(320);
    expect(opusKbps(8, 1)).toBe(8);
  });
});
