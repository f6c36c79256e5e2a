// Trimmed copied AAC at its edges: a span shorter than one frame, a span to the input's very end,
// cuts exactly on the input's frame grid, and an input whose own edit list starts it mid-frame.
// Each kept span is compared sample for sample with its input's own decode.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { decodeErrors, ffprobeJson } from '../../../test/support/audio-fixtures.js';
import { decodeFloat } from '../../../test/support/pcm-measure.js';
import { makeToneWindow } from '../../../test/support/tone-edges.js';
import { mergeFiles } from './merge.js';
import { scratchFiles, tools } from '../../../test/support/engine-kit.js';
import type { TrimRequest } from '../index.js';

const exec = promisify(execFile);
const RATE = 44100;
const FRAME = 1024;
const MS = 0.001;
const AAC = ['-c:a', 'aac', '-b:a', '128k'];

const p = scratchFiles();

/** A steady tone high enough that a span off by a sample or two differs from its source. */
const tone = (name: string, seconds: number, frequency: number) =>
  makeToneWindow(p(name), { seconds, from: 0, to: seconds + 1, frequency, codec: AAC });

/** The RMS difference of the worst 1024-sample block of a[atA..] against b[atB..] over `length`. */
function worstBlockError(a: Float32Array, atA: number, b: Float32Array, atB: number, length: number): number {
  let worst = 0;
  for (let k = 0; k < length; k += FRAME) {
    const n = Math.min(FRAME, length - k);
    let sum = 0;
    for (let j = k; j < k + n; j++) sum += (a[atA + j] - b[atB + j]) ** 2;
    worst = Math.max(worst, Math.sqrt(sum / n));
  }
  return worst;
}

/** Merge the inputs with the trims, then check each kept span where its chapter says, exact. */
async function expectExact(inputs: string[], trims: TrimRequest[], out: string) {
  const report = await mergeFiles(inputs, p(out), { tools, trims });
  expect(await decodeErrors(p(out))).toBe('');
  const decoded = await decodeFloat(p(out), RATE);
  const sources = await Promise.all(inputs.map((f) => decodeFloat(f, RATE)));
  let end = 0;
  for (const [i, source] of sources.entries()) {
    // An untrimmed input whole: as long as it says (ffmpeg decodes its end padding too).
    const t = report.trims?.find((x) => x.input === i) ?? {
      start: 0,
      end: Number((await ffprobeJson(inputs[i])).format.duration),
    };
    const start = report.chapters[i].start;
    // Each input starts within a frame after the one before ends, never over it.
    expect(start).toBeGreaterThanOrEqual(end - MS);
    expect(start - end).toBeLessThan(FRAME / RATE);
    const length = Math.round((t.end - t.start) * RATE);
    const error = worstBlockError(
      decoded,
      Math.round(start * RATE),
      source,
      Math.round(t.start * RATE),
      length,
    );
    expect(error, `input ${i}`).toBeLessThan(0.05);
    end = start + length / RATE;
  }
  expect(Math.abs(report.durationSeconds - end)).toBeLessThan(MS);
  expect(decoded.length / RATE).toBeGreaterThanOrEqual(end - MS);
  return report;
}

describe('trimmed copied AAC at its edges', () => {
  it('keeps the shortest span a trim may keep (0.05 s, about two frames), exactly, between copied neighbours', async () => {
    const inputs = [await tone('a.m4a', 3, 1500), await tone('b.m4a', 3, 2500), await tone('c.m4a', 3, 1800)];
    await expectExact(inputs, [{ input: 1, start: 1.2, end: 1.25 }], 'short.m4b');
  });

  it('keeps a span to the very end of an input, and one that ends exactly at it', async () => {
    const inputs = [await tone('d.m4a', 3, 1500), await tone('e.m4a', 3, 2500)];
    await expectExact(
      inputs,
      [
        { input: 0, start: 2.5 },
        { input: 1, start: 0.7, end: 3 },
      ],
      'ends.m4a',
    );
  });

  it('cuts exactly on the input frame grid', async () => {
    const inputs = [await tone('f.m4a', 3, 1500), await tone('g.m4a', 3, 2500)];
    const at = (n: number) => (n * FRAME) / RATE;
    await expectExact(
      inputs,
      [
        { input: 0, start: at(20), end: at(100) },
        { input: 1, start: at(43), end: at(86) },
      ],
      'grid.m4b',
    );
  });

  it('cuts an input whose own edit list starts it mid-frame, by the audio it plays', async () => {
    const whole = await tone('h-whole.m4a', 4, 1500);
    // Stream-copied from 0.3 s: the edit list skips into its first packet.
    await exec(tools.ffmpeg, ['-v', 'error', '-y', '-ss', '0.3', '-i', whole, '-c', 'copy', p('h.m4a')]);
    const inputs = [p('h.m4a'), await tone('i.m4a', 3, 2500)];
    await expectExact(
      inputs,
      [
        { input: 0, start: 0.5, end: 2.5 },
        { input: 1, start: 0.25, end: 2 },
      ],
      'own-edit.m4b',
    );
  });
});
