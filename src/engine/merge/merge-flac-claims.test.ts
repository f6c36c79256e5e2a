// FLAC files whose STREAMINFO states another length than their frames hold: a merge keeps what
// they decode to, all of it, and a trim is measured against that.
import { execFile } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mergeFiles } from './merge.js';
import { decodePcm, dominantFrequency, tempDir } from '../../../test/support/audio-fixtures.js';
import { tools } from '../../../test/support/engine-kit.js';
import { flacClaiming } from '../../../test/support/flac-claims.js';

const exec = promisify(execFile);
const RATE = 8000;
/** An MP3 output decodes to its length within a frame (576 samples at 8 kHz), its LAME tag honoured. */
const MP3_FRAME = 576 / RATE;

let dir: string;
let cleanup: () => Promise<void>;
const p = (name: string) => path.join(dir, name);

/** Ten minutes of 8 kHz mono FLAC: 440 Hz, then 1 kHz for its last 10 s (so its end can be told). */
async function tenMinutes(out: string) {
  await exec(tools.ffmpeg, [
    ...['-v', 'error', '-y', '-f', 'lavfi', '-i', `sine=f=440:r=${RATE}:d=590`],
    ...['-f', 'lavfi', '-i', `sine=f=1000:r=${RATE}:d=10`],
    ...['-filter_complex', '[0:a][1:a]concat=n=2:v=0:a=1', '-c:a', 'flac', out],
  ]);
}

const seconds = async (file: string) => (await decodePcm(file)).length / RATE;
const hz = (pcm: Int16Array, from: number, to: number) =>
  Math.round(dominantFrequency(pcm, from, to) / 10) * 10;

beforeAll(async () => {
  ({ dir, cleanup } = await tempDir('merge-flac-claims-'));
  await tenMinutes(p('long.flac'));
  await flacClaiming(p('long.flac'), p('claims-one-second.flac'), RATE);
  await flacClaiming(p('long.flac'), p('claims-unknown.flac'), 0);
  // Every input a FLAC: the chunk encoders decode them all themselves, cut by their lengths.
  await exec(tools.ffmpeg, [
    ...[
      '-v',
      'error',
      '-y',
      '-f',
      'lavfi',
      '-i',
      `sine=f=700:r=${RATE}:d=2`,
      '-c:a',
      'flac',
      p('short.flac'),
    ],
  ]);
});
afterAll(async () => {
  await cleanup?.();
});

describe('merging a FLAC whose STREAMINFO misstates its length', () => {
  it('keeps all ten minutes of one that states 1 s, and of one that states 0 (unknown)', async () => {
    const out = p('whole.mp3');
    const inputs = [p('claims-one-second.flac'), p('short.flac'), p('claims-unknown.flac')];
    const report = await mergeFiles(inputs, out, { tools });

    const starts = report.chapters.map((c) => c.start);
    expect(starts[1]).toBeCloseTo(600, 3);
    expect(starts[2]).toBeCloseTo(602, 3);
    const pcm = await decodePcm(out);
    expect(Math.abs(pcm.length / RATE - 1202)).toBeLessThan(MP3_FRAME);
    expect(Math.abs(report.durationSeconds - 1202)).toBeLessThan(MP3_FRAME);
    // Each FLAC's last seconds are its own 1 kHz, the short one's tone between them.
    expect(hz(pcm, 595, 599.5)).toBe(1000);
    expect(hz(pcm, 600.5, 601.5)).toBe(700);
    expect(hz(pcm, 1197, 1201.5)).toBe(1000);
  });

  it('trims 10-20 s of the one that states 1 s', async () => {
    const out = p('trimmed.mp3');
    const trims = [{ input: 0, start: 10, end: 20 }];
    const report = await mergeFiles([p('claims-one-second.flac'), p('short.flac')], out, { tools, trims });
    expect(report.trims).toEqual(trims);
    expect(Math.abs((await seconds(out)) - 12)).toBeLessThan(MP3_FRAME);
    const pcm = await decodePcm(out);
    expect(hz(pcm, 1, 9)).toBe(440);
    expect(hz(pcm, 10.5, 11.5)).toBe(700);
  });

  it('keeps what a cut-short one decodes to, which is less than it states', async () => {
    const long = await readFile(p('long.flac'));
    await writeFile(p('cut.flac'), long.subarray(0, Math.floor(long.length / 3)));
    const decodes = await seconds(p('cut.flac'));
    expect(decodes).toBeLessThan(250);
    const out = p('cut-merged.mp3');
    await mergeFiles([p('cut.flac'), p('short.flac')], out, { tools });
    const pcm = await decodePcm(out);
    // What decodes of its last frame is the decoder's to say: within a FLAC frame (4608 samples).
    expect(Math.abs(pcm.length / RATE - (decodes + 2))).toBeLessThan(4608 / RATE + MP3_FRAME);
    expect(hz(pcm, decodes + 0.5, decodes + 1.5)).toBe(700);
  });
});
