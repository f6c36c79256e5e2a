import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { tempDir, tools } from '../../../test/support/audio-fixtures.js';
import { rmsDb } from '../../../test/support/pcm-measure.js';
import { mixOverlap, mixParts } from './pcm-mix.js';

let dir: string;
let cleanup: () => Promise<void>;
beforeAll(async () => ({ dir, cleanup } = await tempDir()));
afterAll(() => cleanup());

async function part(name: string, frames: number, channels: number, value: (k: number, c: number) => number) {
  const f = new Float32Array(frames * channels);
  for (let k = 0; k < frames; k++) for (let c = 0; c < channels; c++) f[k * channels + c] = value(k, c);
  const file = path.join(dir, name);
  await writeFile(file, Buffer.from(f.buffer));
  return { file, frames };
}

const floats = async (file: string) => {
  const b = await readFile(file);
  return new Float32Array(b.buffer, b.byteOffset, b.length / 4);
};

describe('mixing decoded parts', () => {
  it('fades a constant signal into another with constant power: out^2 + in^2 = 1 at every frame', () => {
    const n = 100;
    const mixed = mixOverlap(new Float32Array(n).fill(1), new Float32Array(n).fill(0), 1);
    const other = mixOverlap(new Float32Array(n).fill(0), new Float32Array(n).fill(1), 1);
    for (let k = 0; k < n; k++) expect(mixed[k] ** 2 + other[k] ** 2).toBeCloseTo(1, 6);
    expect(mixed[0]).toBeGreaterThan(0.99);
    expect(other[n - 1]).toBeGreaterThan(0.99);
  });

  it('joins three parts with two overlaps: the length is the sum less the overlaps, each body untouched', async () => {
    const a = await part('a.f32', 1000, 2, (k, c) => 0.1 + c * 0.01);
    const b = await part('b.f32', 600, 2, () => 0.5);
    const c = await part('c.f32', 800, 2, (k) => -k / 1000);
    const out = path.join(dir, 'mixed.f32');
    const written = await mixParts([a, b, c], [200, 0], 2, out);
    expect(written).toBe(1000 + 600 + 800 - 200);
    const pcm = await floats(out);
    expect(pcm.length).toBe(written * 2);
    expect(pcm[0]).toBeCloseTo(0.1, 6);
    expect(pcm[1]).toBeCloseTo(0.11, 6);
    expect(pcm[799 * 2]).toBeCloseTo(0.1, 6); // last frame before the fade
    expect(pcm[900 * 2]).toBeCloseTo(0.1 * Math.SQRT1_2 + 0.5 * Math.SQRT1_2, 2); // mid-fade
    expect(pcm[1000 * 2]).toBeCloseTo(0.5, 6); // b after its head
    expect(pcm[1400 * 2]).toBeCloseTo(-0, 6); // c starts right after b (no fade there)
    expect(pcm[(written - 1) * 2]).toBeCloseTo(-0.799, 6);
  });

  it('crossfades two real noises for 1 s with no dip in loudness at the midpoint', async () => {
    // Unrelated noises at one level: a linear fade would dip 3 dB at the midpoint, this one does not.
    const noise = async (name: string, seed: number) => {
      const file = path.join(dir, name);
      await promisify(execFile)(tools.ffmpeg, [
        '-hide_banner',
        '-v',
        'error',
        '-y',
        '-f',
        'lavfi',
        '-i',
        `anoisesrc=d=4:c=pink:a=0.2:seed=${seed}:r=44100`,
        '-ac',
        '1',
        '-f',
        'f32le',
        file,
      ]);
      return { file, frames: 4 * 44100 };
    };
    const out = path.join(dir, 'fade.f32');
    const written = await mixParts([await noise('n1.f32', 1), await noise('n2.f32', 2)], [44100], 1, out);
    expect(written / 44100).toBeCloseTo(7, 6);
    const pcm = await floats(out);
    const level = (t: number) => rmsDb(pcm, (t - 0.1) * 44100, (t + 0.1) * 44100);
    const before = level(1.5);
    expect(Math.abs(level(3.5) - before)).toBeLessThan(1.5);
    expect(Math.abs(level(3.25) - before)).toBeLessThan(1.5);
    expect(Math.abs(level(5.5) - before)).toBeLessThan(1.5);
  });

  it('mixes an overlap far longer than one buffer piece by piece, frame for frame as if whole', async () => {
    // 8 channels, 300,000 frames of overlap: several pieces, the gains continuing across them.
    const frames = 300_000;
    const a = await part('long-a.f32', frames + 10, 8, (k, c) => Math.sin(k / 50 + c));
    const b = await part('long-b.f32', frames + 10, 8, (k, c) => Math.cos(k / 70 - c));
    const out = path.join(dir, 'long-mixed.f32');
    expect(await mixParts([a, b], [frames], 8, out)).toBe(2 * (frames + 10) - frames);
    const pcm = await floats(out);
    const [tail, head] = [await floats(a.file), await floats(b.file)];
    const whole = mixOverlap(tail.subarray(10 * 8), head.subarray(0, frames * 8), 8);
    const got = pcm.subarray(10 * 8, (10 + frames) * 8);
    let worst = 0;
    for (let i = 0; i < whole.length; i++) worst = Math.max(worst, Math.abs(got[i] - whole[i]));
    expect(worst).toBe(0);
    expect(pcm[(frames + 10) * 8]).toBeCloseTo(Math.cos(frames / 70), 5);
  });
});
