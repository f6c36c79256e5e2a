import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeErrors, decodePcm, tempDir } from '../../../test/support/audio-fixtures.js';
import { tools } from '../../../test/support/engine-kit.js';
import { findOnsets, makeOnsetInput, ONSET_KINDS, type OnsetInput } from '../../../test/support/onsets.js';
import { scanMp3 } from '../mp3/scan.js';
import type { MergeReport } from '../types.js';
import { mergeFiles } from './merge.js';

const exec = promisify(execFile);
const kind = (ext: string): OnsetInput => ONSET_KINDS.find((k) => k.ext === ext)!;

/** Samples of `file` as decoded at `rate` (MP3 and Opus without their encoder delay and padding). */
async function decodedSamples(file: string, rate: number): Promise<number> {
  const { stdout } = await exec(
    tools.ffmpeg,
    ['-v', 'error', '-i', file, '-ar', String(rate), '-ac', '1', '-f', 's16le', '-'],
    { encoding: 'buffer', maxBuffer: 64 << 20 },
  );
  return (stdout as Buffer).length / 2;
}

/** Inputs of these kinds, 2.2 to 2.9 s each (never whole frames), each its own tone. */
function makeInputs(dir: string, name: string, exts: string[]): Promise<string[]> {
  return Promise.all(
    exts.map((ext, i) =>
      makeOnsetInput(
        path.join(dir, `${name}-${i}.${ext}`),
        kind(ext),
        2.2 + ((i * 7) % 8) / 10 + 0.0017 * i,
        400 + 50 * i,
      ),
    ),
  );
}

/**
 * What a player gets of `out`: as long as the report says (the LAME tag trims the delay and
 * padding), no decode errors, and each chapter within 5 ms of the onset of its input's tone.
 */
async function expectPlaysAsReported(out: string, report: MergeReport, inputs: number): Promise<void> {
  const rate = report.sampleRate;
  expect(Math.abs((await decodedSamples(out, rate)) - report.durationSeconds * rate)).toBeLessThanOrEqual(1);
  expect(await decodeErrors(out)).toBe('');
  const onsets = findOnsets(await decodePcm(out));
  expect(onsets).toHaveLength(inputs);
  report.chapters.forEach((c, i) => expect(Math.abs(c.start - onsets[i])).toBeLessThanOrEqual(0.005));
}

describe('encoded inputs into MP3 as one timeline', () => {
  let dir: string;
  let cleanup: () => Promise<void>;
  beforeAll(async () => ({ dir, cleanup } = await tempDir()));
  afterAll(() => cleanup());

  it('encodes FLACs, WAVs and Opus into an MP3 as long as the inputs together within one frame, chapters within 5 ms', async () => {
    // 12 inputs, about 30 s in one run: two chunks that meet mid-input.
    const inputs = await makeInputs(
      dir,
      'all',
      Array.from({ length: 12 }, (_, i) => ['flac', 'wav', 'opus'][i % 3]),
    );
    const out = path.join(dir, 'all-encoded.mp3');
    const report = await mergeFiles(inputs, out, { tools, concurrency: 2 });
    expect(report.transcoded).toEqual(inputs.map((_, i) => i));
    const rate = report.sampleRate;
    const sum = (await Promise.all(inputs.map((f) => decodedSamples(f, rate)))).reduce((a, b) => a + b, 0);
    expect(Math.abs(report.durationSeconds * rate - sum)).toBeLessThanOrEqual(1152);
    await expectPlaysAsReported(out, report, inputs.length);
  }, 60_000);

  it('joins copied MP3s and runs of encoded inputs within one frame per input of what each carries, chapters within 5 ms', async () => {
    const exts = ['mp3', 'flac', 'wav', 'mp3', 'opus', 'mp3', 'wav', 'flac', 'flac'];
    const inputs = await makeInputs(dir, 'mixed', exts);
    const out = path.join(dir, 'mixed.mp3');
    const report = await mergeFiles(inputs, out, { tools, concurrency: 2 });
    expect(report.transcoded).toEqual(exts.flatMap((e, i) => (e === 'mp3' ? [] : [i])));
    const rate = report.sampleRate;
    // A copied MP3 brings its frames, its own delay and padding with them; every other input its decoded samples.
    const carried = await Promise.all(
      inputs.map(async (f, i) => {
        if (exts[i] !== 'mp3') return decodedSamples(f, rate);
        const s = await scanMp3(f);
        if (!s.ok) throw new Error(s.reason);
        return s.scan.frames * s.scan.samplesPerFrame;
      }),
    );
    const sum = carried.reduce((a, b) => a + b, 0);
    expect(Math.abs(report.durationSeconds * rate - sum)).toBeLessThanOrEqual(1152 * inputs.length);
    await expectPlaysAsReported(out, report, inputs.length);
  }, 60_000);
});
