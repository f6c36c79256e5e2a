import { describe, expect, it } from 'vitest';
import { parseFrameHeader, readWord, type MpegVersion } from './frames.js';
import {
  commonSettings,
  crc16,
  lameAudioOf,
  readGapless,
  readLameCounts,
  trustedCounts,
  writeLameTag,
  type LameAudio,
} from './lame.js';
import { buildXingFrame, planXingFrame } from './xing.js';

const fmt = { mpegVersion: 1 as const, sampleRate: 44100, channels: 2 as const };
const audio128 = parseFrameHeader(0xfffb9064)!;
const cbr128: LameAudio = { method: 1, bitRateKbps: 128, stereoMode: 3, sampleRateClass: 1 };

/** A header frame with a LAME tag after the Xing fields (flags: frames, bytes, TOC; no quality). */
function lameFrame(
  frames: number,
  bytes: number,
  musicLength: number,
  kind: 'vbr' | 'cbr' = 'cbr',
  goodCrc = true,
): Buffer {
  const plan = planXingFrame(fmt, 128000);
  const f = buildXingFrame(plan, { vbr: kind === 'vbr', frames, bytes, toc: new Uint8Array(100) });
  const lame = plan.tagAt + 16 + 100;
  f.write('LAME3.100', lame, 'latin1');
  f.writeUInt32BE(musicLength, lame + 28);
  f.writeUInt16BE(goodCrc ? crc16(f, 0, lame + 34) : 0x1234, lame + 34);
  return f;
}

describe('the LAME tag', () => {
  it('uses CRC-16/ARC', () => {
    expect(crc16(Buffer.from('123456789'), 0, 9)).toBe(0xbb3d);
  });

  it('reads the counts and checks the tag CRC', () => {
    const f = lameFrame(100, 41700 + 417, 41700 + 417);
    const h = parseFrameHeader(readWord(f, 0))!;
    expect(readLameCounts(f, h)).toEqual({
      kind: 'Info',
      frames: 100,
      bytes: 42117,
      musicLength: 42117,
      crcOk: true,
    });
    expect(readLameCounts(lameFrame(100, 1, 1, 'cbr', false), h)!.crcOk).toBe(false);
  });

  it('is trusted only when the CRC holds and both lengths match the bytes that are there', () => {
    const h = parseFrameHeader(readWord(lameFrame(1, 1, 1), 0))!;
    const region = 100 * 417 + 40; // 40 padded frames
    expect(trustedCounts(lameFrame(100, 417 + region, 417 + region), h, region, audio128)).toEqual({
      frames: 100,
      audioBytes: region,
      vbr: false,
    });
    expect(
      trustedCounts(lameFrame(100, 417 + region, 417 + region, 'cbr', false), h, region, audio128),
    ).toBeNull();
    expect(trustedCounts(lameFrame(100, 417 + region, 417 + region), h, region - 1, audio128)).toBeNull(); // file cut short
    expect(trustedCounts(lameFrame(100, 417 + region, 417 + region + 9), h, region, audio128)).toBeNull();
  });

  it('refuses a CBR count that does not fit the frame size', () => {
    const h = parseFrameHeader(readWord(lameFrame(1, 1, 1), 0))!;
    const region = 100 * 417;
    expect(trustedCounts(lameFrame(110, 417 + region, 417 + region), h, region, audio128)).toBeNull();
    expect(
      trustedCounts(lameFrame(110, 417 + region, 417 + region, 'vbr'), h, region, audio128),
    ).toMatchObject({ frames: 110, vbr: true });
  });

  it('finds no counts in a header frame without a LAME tag', () => {
    const plain = buildXingFrame(planXingFrame(fmt, 128000), {
      vbr: false,
      frames: 5,
      bytes: 5,
      toc: new Uint8Array(100),
    });
    const h = parseFrameHeader(readWord(plain, 0))!;
    expect(trustedCounts(plain, h, 5 * 417, audio128)).toBeNull();
  });

  it('carries encoder delay and padding in 12 bits each, read back as ffmpeg reads them, under a good CRC', () => {
    const plan = planXingFrame(fmt, 128000);
    const f = buildXingFrame(plan, { vbr: false, frames: 100, bytes: 41800, toc: new Uint8Array(100) });
    const h = parseFrameHeader(readWord(f, 0))!;
    expect(readGapless(f, h)).toBeNull();
    writeLameTag(f, plan, { gapless: { delay: 576, padding: 1234 }, musicLength: 41800, audio: cbr128 });
    expect(readGapless(f, h)).toEqual({ delay: 576, padding: 1234 });
    expect(readLameCounts(f, h)).toMatchObject({ musicLength: 41800, crcOk: true });
    writeLameTag(f, plan, { gapless: { delay: 5000, padding: -3 }, musicLength: 41800, audio: cbr128 });
    expect(readGapless(f, h)).toEqual({ delay: 4095, padding: 0 });
  });

  /** What the join saw: `indexes` the bit rate indexes used, `modes` the channel modes. */
  const seen = (
    indexes: number[],
    modes: number[],
    format: { mpegVersion: MpegVersion; sampleRate: number } = fmt,
    averageBitRate = 128000,
  ) => ({
    ...format,
    bitRateMask: indexes.reduce((m, i) => m | (1 << i), 0),
    channelModeMask: modes.reduce((m, i) => m | (1 << i), 0),
    averageBitRate,
  });

  it('describes the audio by its frames: one bit rate is CBR at it, several VBR from the lowest', () => {
    // MPEG-1 index 9 is 128 kbit/s; 5 is 64, 14 is 320
    expect(lameAudioOf(seen([9], [1]))).toEqual({ ...cbr128, settings: undefined });
    expect(lameAudioOf(seen([5, 9, 14], [1]))).toMatchObject({ method: 6, bitRateKbps: 64 });
    // MPEG-2 index 8 is 64 kbit/s; a 22.05 kHz stream is in the lowest rate class
    const mono22 = lameAudioOf(seen([8], [3], { mpegVersion: 2, sampleRate: 22050 }));
    expect(mono22).toMatchObject({ method: 1, bitRateKbps: 64, stereoMode: 0, sampleRateClass: 0 });
    expect(lameAudioOf(seen([9], [0], { mpegVersion: 1, sampleRate: 48000 })).sampleRateClass).toBe(2);
  });

  it('says stereo, dual channel or joint stereo as the frames do, auto when they switch', () => {
    const mode = (...m: number[]) => lameAudioOf(seen([9], m)).stereoMode;
    expect([mode(0), mode(1), mode(2), mode(3)]).toEqual([1, 3, 2, 0]);
    expect(mode(0, 1)).toBe(5);
    expect(mode(1, 2)).toBe(7);
  });

  it("keeps the parts' own VBR method when they agree and the frames bear it out, ABR at the average", () => {
    const set = (method: number) => ({ method, lowpass: 170, encodingFlags: 0x24, misc: 0x41, preset: 0 });
    expect(lameAudioOf(seen([5, 9], [1]), set(4)).method).toBe(4); // --vbr-new
    expect(lameAudioOf(seen([5, 9], [1], fmt, 150_400), set(2))).toMatchObject({
      method: 2,
      bitRateKbps: 150,
    });
    // Frames of one bit rate are CBR, whatever a part said; several are not CBR.
    expect(lameAudioOf(seen([9], [1]), set(4)).method).toBe(1);
    expect(lameAudioOf(seen([5, 9], [1]), set(1)).method).toBe(6);
  });

  it('carries settings only when every part states the same ones', () => {
    const a = { quality: 57, method: 1, lowpass: 170, encodingFlags: 0x24, misc: 0x41, preset: 0 };
    expect(commonSettings([a, { ...a }])).toEqual(a);
    expect(commonSettings([a, { ...a, lowpass: 160 }])).toBeUndefined();
    expect(commonSettings([a, { ...a, quality: undefined }])).toBeUndefined();
    expect(commonSettings([a, undefined])).toBeUndefined();
  });
});
