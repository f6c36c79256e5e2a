import { describe, expect, it } from 'vitest';
import { parseFrameHeader, readWord, type MpegVersion } from './frames.js';
import { readXingFrame } from '../../../test/support/xing-read.js';
import { buildToc, buildXingFrame, isHeaderFrame, planXingFrame } from './xing.js';

const formats: { mpegVersion: MpegVersion; sampleRate: number; channels: 1 | 2 }[] = [
  { mpegVersion: 1, sampleRate: 44100, channels: 2 },
  { mpegVersion: 1, sampleRate: 32000, channels: 1 },
  { mpegVersion: 2, sampleRate: 22050, channels: 1 },
  { mpegVersion: 2, sampleRate: 24000, channels: 2 },
  { mpegVersion: 2.5, sampleRate: 8000, channels: 1 },
  { mpegVersion: 2.5, sampleRate: 11025, channels: 2 },
];

describe('the Xing/Info header frame', () => {
  it('is a valid frame of the stream format, long enough for its fields', () => {
    for (const f of formats) {
      const plan = planXingFrame(f);
      const frame = buildXingFrame(plan, { vbr: true, frames: 10, bytes: 1000, toc: new Uint8Array(100) });
      const h = parseFrameHeader(readWord(frame, 0))!;
      expect(h).toMatchObject({
        mpegVersion: f.mpegVersion,
        sampleRate: f.sampleRate,
        channels: f.channels,
        layer: 3,
        crc: false,
      });
      expect(h.frameLength).toBe(frame.length);
      expect(frame.length).toBeGreaterThanOrEqual(4 + h.sideInfoSize + 116);
      // side info all zero: a decoder that ignores the tag plays silence
      expect(frame.subarray(4, 4 + h.sideInfoSize).every((b) => b === 0)).toBe(true);
    }
  });

  it('uses the stream bit rate for CBR when the tag fits, else the smallest that fits', () => {
    const cbr = planXingFrame({ mpegVersion: 1, sampleRate: 44100, channels: 2 }, 128000);
    expect(parseFrameHeader(cbr.word)!.bitRate).toBe(128000);
    const tiny = planXingFrame({ mpegVersion: 1, sampleRate: 44100, channels: 2 }, 32000);
    // The tag with its LAME extension needs 36 + 152 bytes: 32k is 104 bytes, 48k 156, 56k 182, 64k 208.
    expect(parseFrameHeader(tiny.word)!.bitRate).toBe(64000);
  });

  it('writes Xing for VBR and Info for CBR, with frames, bytes and the seek table, and reads back', () => {
    const plan = planXingFrame({ mpegVersion: 2, sampleRate: 22050, channels: 1 });
    const toc = Uint8Array.from({ length: 100 }, (_, i) => Math.floor(i * 2.5));
    const vbr = readXingFrame(buildXingFrame(plan, { vbr: true, frames: 1234, bytes: 98765, toc }))!;
    expect(vbr).toEqual({ kind: 'Xing', frames: 1234, bytes: 98765, toc });
    const cbr = readXingFrame(buildXingFrame(plan, { vbr: false, frames: 1, bytes: 2, toc }))!;
    expect(cbr.kind).toBe('Info');
    const frame = buildXingFrame(plan, { vbr: false, frames: 1, bytes: 2, toc });
    expect(isHeaderFrame(frame, 0, 4 + 9)).toBe(true);
  });

  it('recognises a VBRI frame', () => {
    const f = Buffer.alloc(417);
    f.writeUInt32BE(0xfffb9064, 0);
    f.write('VBRI', 36, 'latin1');
    f.writeUInt32BE(5000, 36 + 10);
    f.writeUInt32BE(77, 36 + 14);
    expect(isHeaderFrame(f, 0, 36)).toBe(true);
    expect(readXingFrame(f)).toEqual({ kind: 'VBRI', bytes: 5000, frames: 77 });
    const audio = Buffer.alloc(417, 0x11);
    audio.writeUInt32BE(0xfffb9064, 0);
    expect(isHeaderFrame(audio, 0, 36)).toBe(false);
    expect(readXingFrame(audio)).toBeNull();
  });

  it('builds a seek table that rises with time and maps percent to byte position', () => {
    // 200 frames: the first 100 small (100 bytes), the rest large (300 bytes)
    const offsets = new Float64Array(200);
    let at = 0;
    for (let k = 0; k < 200; k++) {
      offsets[k] = at;
      at += k < 100 ? 100 : 300;
    }
    const toc = buildToc(offsets, 200, at);
    for (let i = 1; i < 100; i++) expect(toc[i]).toBeGreaterThanOrEqual(toc[i - 1]);
    expect(toc[0]).toBe(0);
    expect(toc[50]).toBe(64); // half the time is a quarter of the bytes
    expect(toc[75]).toBe(Math.floor(((10000 + 50 * 300) * 256) / at));
    expect(toc[99]).toBeLessThanOrEqual(255);
  });
});
