import { describe, expect, it } from 'vitest';
import { formatWord, frameLength, lengthTable, parseFrameHeader, readWord, STREAM_MASK } from './frames.js';

describe('MPEG audio frame headers', () => {
  it('reads an MPEG-1 layer III 128 kb/s 44.1 kHz joint-stereo header', () => {
    const h = parseFrameHeader(0xfffb9064)!;
    expect(h).toMatchObject({
      mpegVersion: 1,
      layer: 3,
      crc: false,
      bitRate: 128000,
      sampleRate: 44100,
      padding: false,
      channelMode: 1,
      channels: 2,
      samplesPerFrame: 1152,
      frameLength: 417,
      sideInfoSize: 32,
    });
  });

  it('adds one byte for padding', () => {
    expect(parseFrameHeader(0xfffb9264)!.frameLength).toBe(418);
  });

  it('sees the CRC flag without changing the frame length', () => {
    const h = parseFrameHeader(0xfffa9064)!;
    expect(h.crc).toBe(true);
    expect(h.frameLength).toBe(417);
  });

  it('knows the MPEG-1 sample rates and bit rates', () => {
    expect(parseFrameHeader(0xfffb9464)!).toMatchObject({ sampleRate: 48000, frameLength: 384 });
    expect(parseFrameHeader(0xfffb9864)!).toMatchObject({ sampleRate: 32000, frameLength: 576 });
    // 320 kb/s at 32 kHz with padding: the longest layer III frame
    expect(parseFrameHeader(0xfffbea64)!).toMatchObject({ bitRate: 320000, frameLength: 1441 });
    expect(parseFrameHeader(0xfffb1064)!).toMatchObject({ bitRate: 32000, frameLength: 104 });
  });

  it('reads MPEG-2 mono at 22.05 kHz: 576 samples, 9 bytes of side info, 72 * rate / fs', () => {
    const h = parseFrameHeader(0xfff380c0)!;
    expect(h).toMatchObject({
      mpegVersion: 2,
      layer: 3,
      bitRate: 64000,
      sampleRate: 22050,
      channels: 1,
      samplesPerFrame: 576,
      sideInfoSize: 9,
      frameLength: 208,
    });
  });

  it('reads MPEG-2.5 at 8 kHz and 11.025 kHz', () => {
    expect(parseFrameHeader(0xffe318c0)!).toMatchObject({
      mpegVersion: 2.5,
      sampleRate: 8000,
      bitRate: 8000,
      frameLength: 72,
      samplesPerFrame: 576,
    });
    expect(parseFrameHeader(0xffe380c4)!).toMatchObject({
      mpegVersion: 2.5,
      sampleRate: 11025,
      bitRate: 64000,
    });
  });

  it('reads stereo MPEG-2 side info as 17 bytes', () => {
    expect(parseFrameHeader(0xfff38444)!).toMatchObject({ sampleRate: 24000, channels: 2, sideInfoSize: 17 });
  });

  it('reads layers I and II with their own tables', () => {
    expect(parseFrameHeader(0xfffd9064)!).toMatchObject({
      layer: 2,
      bitRate: 160000,
      frameLength: 522,
      samplesPerFrame: 1152,
    });
    expect(parseFrameHeader(0xffff9064)!).toMatchObject({
      layer: 1,
      bitRate: 288000,
      frameLength: 312,
      samplesPerFrame: 384,
    });
  });

  it('reports free format as bit rate 0 and no length', () => {
    expect(parseFrameHeader(0xfffb0064)!).toMatchObject({ bitRate: 0, frameLength: 0 });
  });

  it('rejects reserved and invalid values', () => {
    expect(parseFrameHeader(0xffeb9064)).toBeNull(); // version bits 01
    expect(parseFrameHeader(0xfff99064)).toBeNull(); // layer bits 00
    expect(parseFrameHeader(0xfffbf064)).toBeNull(); // bit rate index 15
    expect(parseFrameHeader(0xfffb9c64)).toBeNull(); // sample rate index 3
    expect(parseFrameHeader(0xfffb9066)).toBeNull(); // emphasis 10
    expect(parseFrameHeader(0x7ffb9064)).toBeNull(); // no sync
    expect(parseFrameHeader(0xffdb9064)).toBeNull(); // 10 sync bits only
  });

  it('computes frame lengths by the formula', () => {
    expect(frameLength(1, 3, 128000, 44100, false)).toBe(417);
    expect(frameLength(2, 3, 8000, 16000, true)).toBe(37);
    expect(frameLength(1, 1, 32000, 32000, true)).toBe(52);
  });

  it('builds a length table that matches the parser for every bit rate and padding', () => {
    const t = lengthTable(2, 3, 24000);
    for (let i = 1; i < 15; i++) {
      for (const p of [0, 1]) {
        const word = (formatWord(2, 3, 24000, 3) | (i << 12) | (p << 9)) >>> 0;
        expect(t[i * 2 + p]).toBe(parseFrameHeader(word)!.frameLength);
      }
    }
    expect(t[0]).toBe(-1);
    expect(t[30]).toBe(0);
  });

  it('builds format words that parse back, and ignores CRC and bit rate in the stream mask', () => {
    const w = formatWord(2.5, 3, 11025, 3);
    expect(parseFrameHeader((w | (5 << 12)) >>> 0)).toMatchObject({
      mpegVersion: 2.5,
      sampleRate: 11025,
      channels: 1,
    });
    expect((0xfffa9064 & STREAM_MASK) === (0xfffbe264 & STREAM_MASK)).toBe(true);
    expect((0xfffb9464 & STREAM_MASK) === (0xfffb9064 & STREAM_MASK)).toBe(false);
    expect(() => formatWord(1, 3, 22050, 0)).toThrow(/22050/);
  });

  it('reads big-endian words as unsigned', () => {
    expect(readWord(Buffer.from([0xff, 0xfb, 0x90, 0x64]), 0)).toBe(0xfffb9064);
  });
});
