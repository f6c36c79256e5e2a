import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeErrors, makeTone, tempDir } from '../../../test/support/audio-fixtures.js';
import { decodeFloat } from '../../../test/support/pcm-measure.js';
import { parseFrameHeader, readWord } from './frames.js';
import { mainDataBegin } from './reservoir.js';
import {
  carryReservoir,
  mainDataSize,
  ownDataBytes,
  reservoirBytes,
  spliceBitRate,
  splitFrames,
  type StreamFormat,
} from './splice.js';

const STEREO: StreamFormat = { version: 1, sampleRate: 44100, channels: 2 };

let dir: string;
let cleanup: () => Promise<void>;
beforeAll(async () => ({ dir, cleanup } = await tempDir()));
afterAll(() => cleanup());

/** The same tone encoded twice: with the bit reservoir (a copied stream) and without (spliced frames). */
async function twoEncodes(name: string, bitRate = '128k'): Promise<{ copied: Buffer[]; spliced: Buffer[] }> {
  const tone = (file: string, extra: string[]) =>
    makeTone(path.join(dir, file), {
      seconds: 3,
      frequency: 523,
      codecArgs: ['-c:a', 'libmp3lame', '-b:a', bitRate, ...extra, '-write_xing', '0'],
    });
  const copied = splitFrames(await readFile(await tone(`${name}.mp3`, [])), STEREO);
  const spliced = splitFrames(await readFile(await tone(`${name}-r0.mp3`, ['-reservoir', '0'])), STEREO);
  return { copied, spliced };
}

describe('frames encoded without the reservoir, spliced ahead of copied frames', () => {
  it('reads how much main data a frame uses from its side information', async () => {
    const { copied, spliced } = await twoEncodes('own');
    for (const f of spliced) {
      expect(mainDataBegin(f, 0, 1)).toBe(0);
      expect(ownDataBytes(f, STEREO)).toBeLessThanOrEqual(mainDataSize(f, STEREO));
    }
    // In a stream with the reservoir, each frame's data ends where the next one's begins.
    for (let k = 10; k + 1 < 60; k++) {
      const begin = (i: number) =>
        copied.slice(10, i).reduce((n, f) => n + mainDataSize(f, STEREO), 0) - mainDataBegin(copied[i], 0, 1);
      const gap = begin(k + 1) - (begin(k) + ownDataBytes(copied[k], STEREO));
      expect(gap).toBeGreaterThanOrEqual(0);
      expect(gap).toBeLessThan(mainDataSize(copied[k + 1], STEREO));
    }
  });

  it('carries the reservoir bytes the first copied frame reads, so the copy decodes as it did', async () => {
    const { copied, spliced } = await twoEncodes('carry');
    const cut = copied.findIndex((f, k) => k > 40 && mainDataBegin(f, 0, 1) > 100);
    expect(cut).toBeGreaterThan(0);
    const carried = reservoirBytes(copied.slice(cut - 16, cut), copied.slice(cut, cut + 16), STEREO);
    expect(carried.length).toBeGreaterThanOrEqual(mainDataBegin(copied[cut], 0, 1));
    // The bytes are the end of the main data before the cut.
    const last = copied[cut - 1];
    expect(carried.subarray(carried.length - 10)).toEqual(last.subarray(last.length - 10));

    const head = spliced.slice(0, cut);
    const withCarry = [
      ...head.slice(0, -1),
      carryReservoir(head[head.length - 1], carried, STEREO),
      ...copied.slice(cut),
    ];
    const without = [...head, ...copied.slice(cut)];
    const good = path.join(dir, 'carried.mp3');
    const bad = path.join(dir, 'uncarried.mp3');
    await writeFile(good, Buffer.concat(withCarry));
    await writeFile(bad, Buffer.concat(without));
    await writeFile(path.join(dir, 'copied.mp3'), Buffer.concat(copied));
    expect(await decodeErrors(good)).toBe('');
    const reference = await decodeFloat(path.join(dir, 'copied.mp3'));
    const spliceAt = cut * 1152;
    const diff = async (file: string) => {
      const pcm = await decodeFloat(file);
      let worst = 0;
      // From one frame after the cut (the filterbank overlap of two encodes settles there) on.
      for (let i = spliceAt + 1152; i < spliceAt + 20 * 1152; i++)
        worst = Math.max(worst, Math.abs(pcm[i] - reference[i]));
      return worst;
    };
    expect(await diff(good)).toBeLessThan(1e-6);
    // The control: without the carried bytes the first copied frames decode wrong.
    expect(await diff(bad)).toBeGreaterThan(0.01);
  });

  it('keeps the frame bit rate when its own data leaves room, and raises it when not', async () => {
    const { spliced } = await twoEncodes('room', '64k');
    const frame = spliced[30];
    const own = ownDataBytes(frame, STEREO);
    const small = Buffer.alloc(Math.max(1, mainDataSize(frame, STEREO) - own - 1), 7);
    const same = carryReservoir(frame, small, STEREO);
    expect(same.length).toBe(frame.length);
    expect(readWord(same, 0)).toBe(readWord(frame, 0));
    const big = Buffer.alloc(400, 9);
    const raised = carryReservoir(frame, big, STEREO);
    const h = parseFrameHeader(readWord(raised, 0))!;
    expect(h.frameLength).toBe(raised.length);
    expect(h.bitRateIndex).toBeGreaterThan(parseFrameHeader(readWord(frame, 0))!.bitRateIndex);
    expect(raised.subarray(4, 36 + own)).toEqual(frame.subarray(4, 36 + own));
    expect(raised.subarray(raised.length - 400)).toEqual(big);
  });

  it('lowers the bit rate of spliced frames only as far as a full reservoir needs', () => {
    expect(spliceBitRate(STEREO, 128, 511)).toBe(128);
    expect(spliceBitRate(STEREO, 320, 0)).toBe(320);
    expect(spliceBitRate(STEREO, 320, 511)).toBe(160);
    expect(spliceBitRate({ version: 2, sampleRate: 22050, channels: 2 }, 160, 255)).toBe(80);
  });
});
