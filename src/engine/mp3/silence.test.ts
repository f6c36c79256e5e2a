import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeErrors, ffprobeJson, tempDir } from '../../../test/support/audio-fixtures.js';
import { decodeFloat, peakOf } from '../../../test/support/pcm-measure.js';
import { formatWord, parseFrameHeader, readWord } from './frames.js';
import {
  framesForSeconds,
  layer3SamplesPerFrame,
  silentFrame,
  silentFrames,
  smallestBitRateIndex,
} from './silence.js';

let dir: string;
let cleanup: () => Promise<void>;
beforeAll(async () => ({ dir, cleanup } = await tempDir()));
afterAll(() => cleanup());

const streams = [
  { name: 'MPEG-1 44.1 kHz joint stereo', version: 1 as const, rate: 44100, mode: 1 },
  { name: 'MPEG-1 48 kHz mono', version: 1 as const, rate: 48000, mode: 3 },
  { name: 'MPEG-2 24 kHz stereo', version: 2 as const, rate: 24000, mode: 0 },
  { name: 'MPEG-2.5 8 kHz mono', version: 2.5 as const, rate: 8000, mode: 3 },
];

describe("silent frames in a stream's own format", () => {
  it.each(streams)('$name: decode without error, silent, as long as asked within one frame', async (s) => {
    // A template as a real stream's frame would be: 2 = a bit rate index, with padding and CRC bits set.
    const template = (formatWord(s.version, 3, s.rate, s.mode) | (5 << 12) | 0x200) & ~0x10000;
    const seconds = 2.345;
    const count = framesForSeconds(seconds, s.rate, s.version);
    const data = silentFrames(template >>> 0, count);
    const h = parseFrameHeader(readWord(data, 0))!;
    expect(h).toMatchObject({
      mpegVersion: s.version,
      sampleRate: s.rate,
      channelMode: s.mode,
      crc: false,
      padding: false,
    });
    expect(h.bitRateIndex).toBe(smallestBitRateIndex(s.version, s.rate, h.channels));
    expect(data.length).toBe(count * h.frameLength);

    const file = path.join(dir, `silence-${s.version}-${s.rate}.mp3`);
    await writeFile(file, data);
    expect(await decodeErrors(file)).toBe('');
    const pcm = await decodeFloat(file, s.rate);
    expect(Math.abs(pcm.length / s.rate - seconds)).toBeLessThanOrEqual(
      layer3SamplesPerFrame(s.version) / s.rate,
    );
    expect(peakOf(pcm)).toBe(0);
    const probe = await ffprobeJson(file);
    expect(probe.streams[0]).toMatchObject({
      codec_name: 'mp3',
      sample_rate: String(s.rate),
      channels: s.mode === 3 ? 1 : 2,
    });
  });

  it('keeps a constant-bit-rate stream constant when given its bit rate index', () => {
    const template = 0xfffb9064; // 128 kb/s, 44.1 kHz, joint stereo
    const f = silentFrame(template, 9);
    expect(f.length).toBe(417);
    expect(parseFrameHeader(readWord(f, 0))!.bitRate).toBe(128000);
    expect(f.subarray(4).every((b) => b === 0)).toBe(true);
  });

  it('counts frames for a duration in whole samples, nearest frame', () => {
    expect(framesForSeconds(1, 44100, 1)).toBe(38); // 44100 / 1152 = 38.28
    expect(framesForSeconds(0.5, 22050, 2)).toBe(19); // 11025 / 576 = 19.14
    expect(framesForSeconds(0, 44100, 1)).toBe(0);
    expect(framesForSeconds(-3, 44100, 1)).toBe(0);
    for (const sec of [0.01, 0.3, 1.7, 59.99, 3600]) {
      const n = framesForSeconds(sec, 44100, 1);
      expect(Math.abs((n * 1152) / 44100 - sec)).toBeLessThanOrEqual(576 / 44100); // within half a frame
    }
  });

  it('refuses a template that is not a Layer III frame', () => {
    expect(() => silentFrame(0x12345678)).toThrow(/not a Layer III header/);
  });
});
