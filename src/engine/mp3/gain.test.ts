import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeErrors, makeTone, tempDir } from '../../../test/support/audio-fixtures.js';
import { decodeFloat, rmsDb } from '../../../test/support/pcm-measure.js';
import { FrameGain, GAIN_STEP_DB, frameCrc, globalGainBits, mpegCrc16, stepsFor } from './gain.js';
import { parseFrameHeader, readWord, type MpegVersion } from './frames.js';
import { silentFrames } from './silence.js';
import { FrameWalker } from './walk.js';
import { frameLayout } from '../../../test/support/mp3-layout.js';

let dir: string;
let cleanup: () => Promise<void>;
beforeAll(async () => ({ dir, cleanup } = await tempDir()));
afterAll(() => cleanup());

/** A copy of the frame's bytes with its global_gain fields (and CRC) zeroed, to compare the rest. */
function withoutGain(buf: Buffer, pos: number, version: MpegVersion, channels: 1 | 2): Buffer {
  const h = parseFrameHeader(readWord(buf, pos))!;
  const copy = Buffer.from(buf.subarray(pos, pos + h.frameLength));
  const at = 4 + (h.crc ? 2 : 0);
  for (const bit of globalGainBits(version, channels)) {
    for (let k = 0; k < 8; k++) {
      const b = bit + k;
      copy[at + (b >>> 3)] &= ~(0x80 >>> (b & 7));
    }
  }
  if (h.crc) copy.fill(0, 4, 6);
  return copy;
}

function gainFields(buf: Buffer, pos: number, version: MpegVersion, channels: 1 | 2): number[] {
  const at = pos + 4 + ((buf[pos + 1] & 1) === 0 ? 2 : 0);
  return globalGainBits(version, channels).map(
    (bit) => (((buf[at + (bit >>> 3)] << 8) | buf[at + (bit >>> 3) + 1]) >>> (8 - (bit & 7))) & 0xff,
  );
}

const formats: Array<{ name: string; version: MpegVersion; rate: number; channels: 1 | 2; bitrate: string }> =
  [
    { name: 'MPEG-1 stereo', version: 1, rate: 44100, channels: 2, bitrate: '128k' },
    { name: 'MPEG-1 mono', version: 1, rate: 48000, channels: 1, bitrate: '64k' },
    { name: 'MPEG-2 stereo', version: 2, rate: 22050, channels: 2, bitrate: '64k' },
    { name: 'MPEG-2.5 mono', version: 2.5, rate: 11025, channels: 1, bitrate: '32k' },
  ];

describe("changing an MP3 frame's gain in place", () => {
  it.each(formats)(
    '$name: decoded audio is n x 1.5 dB louder or quieter, every other byte unchanged',
    async (f) => {
      const file = await makeTone(path.join(dir, `${f.version}-${f.channels}.mp3`), {
        seconds: 3,
        frequency: 330,
        sampleRate: f.rate,
        channels: f.channels,
        codecArgs: ['-c:a', 'libmp3lame', '-b:a', f.bitrate],
      });
      const original = await readFile(file);
      const { starts } = frameLayout(original, f.version, f.rate, f.channels);
      expect(starts.length).toBeGreaterThan(20);
      const before = await decodeFloat(file, f.rate);
      for (const steps of [-4, 3]) {
        const changed = Buffer.from(original);
        const gain = new FrameGain(f.version, f.channels, steps);
        const walker = new FrameWalker(f.version, f.rate, f.channels);
        walker.walk(changed, 0, changed.length, true, (s, e) =>
          gain.applyRun(changed, s, e, (w) => walker.lengthOf(w)),
        );
        const out = path.join(dir, `${f.version}-${f.channels}-${steps}.mp3`);
        await writeFile(out, changed);

        expect(await decodeErrors(out)).toBe('');
        const after = await decodeFloat(out, f.rate);
        const edge = Math.round(f.rate * 0.2);
        const delta = rmsDb(after, edge, after.length - edge) - rmsDb(before, edge, before.length - edge);
        expect(Math.abs(delta - steps * 1.5)).toBeLessThan(0.1);

        // Outside the frames (tags, the Info frame) nothing moved; inside them only global_gain did.
        let cursor = 0;
        for (const p of starts) {
          expect(changed.subarray(cursor, p).equals(original.subarray(cursor, p))).toBe(true);
          expect(
            withoutGain(changed, p, f.version, f.channels).equals(
              withoutGain(original, p, f.version, f.channels),
            ),
          ).toBe(true);
          const was = gainFields(original, p, f.version, f.channels);
          expect(gainFields(changed, p, f.version, f.channels)).toEqual(
            was.map((g) => Math.min(255, Math.max(0, g + steps))),
          );
          cursor = p + parseFrameHeader(readWord(original, p))!.frameLength;
        }
        expect(changed.subarray(cursor).equals(original.subarray(cursor))).toBe(true);
      }
    },
  );

  it('clamps global_gain to 0..255 and counts the fields it had to clamp', () => {
    const frames = silentFrames(0xfffb9064, 2); // all gains 0
    const up = new FrameGain(1, 2, 300);
    up.apply(frames, 0);
    expect(gainFields(frames, 0, 1, 2)).toEqual([255, 255, 255, 255]);
    expect(up.clamped).toBe(4);
    const down = new FrameGain(1, 2, -10);
    down.apply(frames, 417);
    expect(gainFields(frames, 417, 1, 2)).toEqual([0, 0, 0, 0]);
    expect(down.clamped).toBe(4);
    expect(() => new FrameGain(1, 2, 1.5)).toThrow(/whole/);
  });

  it('recomputes the CRC of protected frames over the last two header bytes and the side information', async () => {
    // This ffmpeg's LAME cannot write CRCs: protect silent frames by hand (their side info is zero).
    const count = 40;
    const frames = silentFrames(0xfffb9064, count);
    const len = frames.length / count;
    const setGain = new FrameGain(1, 2, 120);
    for (let i = 0; i < count; i++) {
      const p = i * len;
      frames[p + 1] &= 0xfe; // protection bit 0: a CRC follows the header
      setGain.apply(frames, p); // gives each field a value and the frame its first CRC
    }
    const file = path.join(dir, 'protected.mp3');
    await writeFile(file, frames);
    expect(await decodeErrors(file)).toBe('');

    const lowered = Buffer.from(frames);
    const gain = new FrameGain(1, 2, -7);
    for (let i = 0; i < count; i++) gain.apply(lowered, i * len);
    expect(gainFields(lowered, 0, 1, 2)).toEqual([113, 113, 113, 113]);
    const crcOf = (b: Buffer, p: number) => (b[p + 4] << 8) | b[p + 5];
    for (let i = 0; i < count; i++) {
      expect(crcOf(lowered, i * len)).toBe(frameCrc(lowered, i * len, 32));
      expect(crcOf(lowered, i * len)).not.toBe(crcOf(frames, i * len));
    }
    await writeFile(file, lowered);
    expect(await decodeErrors(file)).toBe('');
  });

  // This ffmpeg does not check Layer III CRCs, so the algorithm is pinned to the catalogue's
  // check value for CRC-16/CMS (polynomial 0x8005, initial 0xffff, unreflected), the MPEG one.
  it('computes the MPEG audio CRC-16 as the standard defines it', () => {
    expect(mpegCrc16(Buffer.from('123456789'), 0, 9)).toBe(0xaee7);
  });

  it('rounds decibels to the nearest whole step of 1.505 dB', () => {
    expect(GAIN_STEP_DB).toBeCloseTo(1.50515, 5);
    expect(stepsFor(6)).toBe(4);
    expect(stepsFor(-6.9)).toBe(-5);
    expect(stepsFor(0.7)).toBe(0);
  });
});
