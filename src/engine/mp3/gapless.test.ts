import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTone, tempDir } from '../../../test/support/audio-fixtures.js';
import { decodeFloat } from '../../../test/support/pcm-measure.js';
import { parseFrameHeader, readWord } from './frames.js';
import { mp3DecodedSamples } from './gapless.js';
import { readGapless } from './lame.js';
import { scanMp3 } from './scan.js';
import { id3v2Size } from './tags.js';

let dir: string;
let cleanup: () => Promise<void>;
beforeAll(async () => ({ dir, cleanup } = await tempDir()));
afterAll(() => cleanup());

async function headerFrameOf(file: string) {
  const buf = await readFile(file);
  const at = id3v2Size(buf, 0);
  const h = parseFrameHeader(readWord(buf, at))!;
  return { frame: buf.subarray(at, at + h.frameLength), h };
}

describe('encoder delay and padding', () => {
  it.each([
    { seconds: 2, rate: 44100 },
    { seconds: 1.3, rate: 22050 },
    { seconds: 3.01, rate: 48000 },
  ])(
    "reads an MP3's LAME tag: $seconds s at $rate Hz decodes to exactly frames x spf - delay - padding",
    async ({ seconds, rate }) => {
      const file = await makeTone(path.join(dir, `t-${rate}.mp3`), { seconds, sampleRate: rate });
      const { frame, h } = await headerFrameOf(file);
      const pad = readGapless(frame, h);
      expect(pad).not.toBeNull();
      expect(pad!.delay).toBeGreaterThan(0);
      const scan = await scanMp3(file);
      if (!scan.ok) throw new Error(scan.reason);
      const samples = mp3DecodedSamples(scan.scan.frames, scan.scan.samplesPerFrame, pad);
      expect(samples).toBe(Math.round(seconds * rate));
      expect((await decodeFloat(file, rate)).length).toBe(samples);
    },
  );

  it('finds no delays in a header frame without a LAME extension', async () => {
    const file = await makeTone(path.join(dir, 'plain.mp3'), { seconds: 1 });
    const { frame, h } = await headerFrameOf(file);
    const blank = Buffer.from(frame);
    blank.fill(0, 4 + h.sideInfoSize + 16 + 100);
    expect(readGapless(blank, h)).toBeNull();
    expect(mp3DecodedSamples(10, 1152, null)).toBe(11520);
  });
});
