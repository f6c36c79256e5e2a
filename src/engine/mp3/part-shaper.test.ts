import { execFile } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeErrors, tempDir, tools } from '../../../test/support/audio-fixtures.js';
import { decodeFloat, peakOf, rmsDb } from '../../../test/support/pcm-measure.js';
import { PartShaper, type PartSound } from './part-shaper.js';
import { scanMp3 } from './scan.js';
import { FrameWalker } from './walk.js';

const exec = promisify(execFile);
let dir: string;
let cleanup: () => Promise<void>;
beforeAll(async () => ({ dir, cleanup } = await tempDir()));
afterAll(() => cleanup());

/** Stream `data` through a walker and a shaper in `chunk`-byte reads, as the join does. */
function shapeStream(data: Buffer, chunk: number, sound: PartSound): { out: Buffer; shaper: PartShaper } {
  const walker = new FrameWalker(1, 44100, 2);
  const shaper = new PartShaper(1, 2, sound, (w) => walker.lengthOf(w));
  const pieces: Buffer[] = [];
  let buf = Buffer.alloc(0);
  for (let pos = 0; ;) {
    const next = data.subarray(pos, pos + chunk);
    pos += next.length;
    buf = Buffer.concat([buf, next]);
    const final = pos >= data.length;
    const runs: number[] = [];
    const consumed = walker.walk(buf, 0, buf.length, final, (s, e) => void runs.push(s, e));
    const shaped = shaper.shape(buf, runs);
    if (shaped.prefix) pieces.push(shaped.prefix);
    for (let i = 0; i < shaped.runs.length; i += 2)
      pieces.push(Buffer.from(buf.subarray(shaped.runs[i], shaped.runs[i + 1])));
    if (final) break;
    buf = buf.subarray(consumed);
  }
  return { out: Buffer.concat(pieces), shaper };
}

describe('shaping a copied MP3 part', () => {
  it('keeps the wanted frames after silent carriers, with the gain, and decodes clean at any chunk size', async () => {
    // 2 s silence, 3 s tone, 2 s silence: VBR, so the reservoir is in use around the cut.
    const file = path.join(dir, 'padded.mp3');
    await exec(tools.ffmpeg, [
      '-hide_banner',
      '-v',
      'error',
      '-y',
      '-f',
      'lavfi',
      '-i',
      'sine=f=500:d=3',
      '-af',
      'adelay=2000|2000,apad=whole_len=308700',
      '-ac',
      '2',
      '-c:a',
      'libmp3lame',
      '-q:a',
      '2',
      '-write_xing',
      '0',
      file,
    ]);
    const data = await readFile(file);
    const frame = 1152 / 44100;
    const first = Math.floor(1.9 / frame);
    const end = Math.ceil(5.1 / frame);
    let reference: Buffer | undefined;
    for (const chunk of [700, 5000, 1 << 20]) {
      const { out, shaper } = shapeStream(data, chunk, { gainSteps: -2, keep: { first, end } });
      reference ??= out;
      expect(out.equals(reference)).toBe(true);
      const carriers = shaper.written - (end - first);
      expect(carriers).toBeGreaterThanOrEqual(1);
      const cut = path.join(dir, `cut-${chunk}.mp3`);
      await writeFile(cut, out);
      expect(await decodeErrors(cut)).toBe('');
      const pcm = await decodeFloat(cut);
      // Decoder delay (529 samples) aside, the length is the frames written.
      expect(Math.abs(pcm.length - shaper.written * 1152)).toBeLessThanOrEqual(1152);
      const toneStart = (2 - first * frame + carriers * frame) * 44100;
      expect(peakOf(pcm, 0, toneStart - 0.12 * 44100)).toBeLessThan(0.003);
      expect(rmsDb(pcm, toneStart + 0.2 * 44100, toneStart + 2.8 * 44100)).toBeGreaterThan(-30);
    }
  });

  it('with neither gain nor trim passes every frame through untouched', async () => {
    const file = path.join(dir, 'plain.mp3');
    await exec(tools.ffmpeg, [
      '-hide_banner',
      '-v',
      'error',
      '-y',
      '-f',
      'lavfi',
      '-i',
      'sine=d=2',
      '-ac',
      '2',
      '-c:a',
      'libmp3lame',
      '-write_xing',
      '0',
      '-id3v2_version',
      '0',
      file,
    ]);
    const data = await readFile(file);
    const { out, shaper } = shapeStream(data, 3000, {});
    expect(out.equals(data)).toBe(true);
    const scan = await scanMp3(file);
    expect(scan.ok && shaper.written === scan.scan.frames).toBe(true);
  });
});
