import { describe, expect, it } from 'vitest';
import { FLAC_HEAD_BYTES, flacTotalSamples } from './flac-info.js';

/** "fLaC" and a STREAMINFO block stating this rate, stereo 16-bit, and this total. */
function flacHead(rate: number, total: number, last = true): Buffer {
  const b = Buffer.alloc(FLAC_HEAD_BYTES);
  b.write('fLaC', 0, 'latin1');
  b[4] = last ? 0x80 : 0x00; // block type 0 (STREAMINFO), last-block flag
  b.writeUIntBE(34, 5, 3);
  const info = 8;
  b.writeUInt16BE(4096, info);
  b.writeUInt16BE(4096, info + 2);
  // rate (20 bits), channels - 1 (3), bits - 1 (5), total (36)
  b[info + 10] = (rate >> 12) & 0xff;
  b[info + 11] = (rate >> 4) & 0xff;
  b[info + 12] = ((rate & 0x0f) << 4) | (1 << 1) | (15 >> 4);
  b[info + 13] = ((15 & 0x0f) << 4) | Math.floor(total / 2 ** 32);
  b.writeUInt32BE(total % 2 ** 32, info + 14);
  return b;
}

describe('FLAC STREAMINFO', () => {
  it('reads the total samples, up to 36 bits', () => {
    expect(flacTotalSamples(flacHead(44100, 5292000), 44100)).toBe(5292000);
    expect(flacTotalSamples(flacHead(48000, 48001, false), 48000)).toBe(48001);
    expect(flacTotalSamples(flacHead(96000, 2 ** 33 + 5), 96000)).toBe(2 ** 33 + 5);
  });

  it('says nothing when the total is unknown, the rate differs, or the file does not start with STREAMINFO', () => {
    expect(flacTotalSamples(flacHead(44100, 0), 44100)).toBeUndefined();
    expect(flacTotalSamples(flacHead(44100, 1000), 48000)).toBeUndefined();
    const tagged = Buffer.concat([Buffer.from('ID3'), flacHead(44100, 1000)]);
    expect(flacTotalSamples(tagged, 44100)).toBeUndefined();
    const padding = flacHead(44100, 1000);
    padding[4] = 1;
    expect(flacTotalSamples(padding, 44100)).toBeUndefined();
    expect(flacTotalSamples(flacHead(44100, 1000).subarray(0, 20), 44100)).toBeUndefined();
  });
});
