// Fast paths that fall back (issue 29): each fast path's check is made to fail (the engine's
// failChecks option, an injected fault), and the output made the plain way must still be right:
// its decoded length, a chapter where each input starts, each input's tone there, and the report's
// `fallbacks` saying which. Without a fault the common paths report none. Audio made here.
import { writeFile } from 'node:fs/promises';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  decodeErrors,
  decodePcm,
  dominantFrequency,
  makeTone,
} from '../../../test/support/audio-fixtures.js';
import { decodeFloat, rmsDb } from '../../../test/support/pcm-measure.js';
import { scratchFiles, tools } from '../../../test/support/engine-kit.js';
import { InputError } from '../errors.js';
import type { FallbackStage } from '../plan/fallback.js';
import type { MergeReport } from '../types.js';
import { mergeFiles } from './merge.js';

const p = scratchFiles('fallbacks-');

/** Chapter starts within 30 ms of where each input's audio starts. */
const CHAPTER_MS = 0.03;
/** A decoded length within two MP3 frames (1152 samples at 44.1 kHz) of the plan's: copies keep their delay and padding. */
const LENGTH_S = 0.06;
/** A tone told by zero crossings, within a few per cent. */
const near = (hz: number, want: number) => Math.abs(hz - want) < want * 0.03;

/** What a person checks of an output: it decodes cleanly, to `seconds`, and each `[start, Hz]` plays there. */
async function expectHeard(out: string, seconds: number, tones: Array<[number, number]>): Promise<void> {
  expect(await decodeErrors(out)).toBe('');
  const pcm = await decodePcm(out);
  expect(Math.abs(pcm.length / 8000 - seconds)).toBeLessThan(LENGTH_S);
  for (const [start, hz] of tones) {
    const got = dominantFrequency(pcm, start + 0.2, start + 0.7);
    expect(near(got, hz), `${hz} Hz at ${start} s, heard ${got.toFixed(0)}`).toBe(true);
  }
}

function expectChapters(report: MergeReport, starts: number[]): void {
  expect(report.chapters).toHaveLength(starts.length);
  report.chapters.forEach((c, i) => expect(Math.abs(c.start - starts[i])).toBeLessThan(CHAPTER_MS));
}

/** The one fallback of `stage`, told by the injected fault. */
function expectFellBack(report: MergeReport, stage: FallbackStage): void {
  expect(report.fallbacks).toEqual([{ stage, reason: expect.stringMatching(/injected fault/) }]);
}

describe('fast paths that fall back', () => {
  let mp3s: string[];
  let aacs: string[];
  let flac: string;
  beforeAll(async () => {
    mp3s = await Promise.all([
      makeTone(p('a.mp3'), { seconds: 2, frequency: 440 }),
      makeTone(p('b.mp3'), { seconds: 3, frequency: 660 }),
      makeTone(p('c.mp3'), { seconds: 2, frequency: 880 }),
    ]);
    aacs = await Promise.all([
      makeTone(p('a.m4a'), { seconds: 2, frequency: 440 }),
      makeTone(p('b.m4a'), { seconds: 3, frequency: 660 }),
    ]);
    // Long enough for two chunks of an MP3 or AAC timeline with two encoders.
    flac = await makeTone(p('long.flac'), { seconds: 30, frequency: 550 });
  });

  it('MP3 copies: joined frame by frame without a fault; a failed join check makes the whole output by decoding', async () => {
    const fast = await mergeFiles(mp3s, p('join.mp3'), { tools });
    expect(fast.fallbacks).toEqual([]);
    expect(fast.transcoded).toEqual([]);
    const out = p('join-fallback.mp3');
    const report = await mergeFiles(mp3s, out, { tools, failChecks: ['mp3-join'] });
    expectFellBack(report, 'mp3-join');
    expect(report.transcoded).toEqual([0, 1, 2]);
    expectChapters(report, [0, 2, 5]);
    await expectHeard(out, 7, [
      [0, 440],
      [2, 660],
      [5, 880],
    ]);
  });

  it('MP3 gain in frames: a failed gain check applies the same gain in the decode', async () => {
    const opts = { tools, loudness: -20, gap: 0.5 };
    const fast = await mergeFiles(mp3s, p('gain.mp3'), opts);
    expect(fast.fallbacks).toEqual([]);
    const out = p('gain-fallback.mp3');
    const report = await mergeFiles(mp3s, out, { ...opts, failChecks: ['mp3-gain'] });
    expectFellBack(report, 'mp3-gain');
    expectChapters(report, [0, 2.5, 6]);
    await expectHeard(out, 8, [
      [0, 440],
      [2.5, 660],
      [6, 880],
    ]);
    // The gain the frames would have had, within what a re-encode changes.
    const [a, b] = [await decodeFloat(p('gain.mp3')), await decodeFloat(out)];
    for (const at of [0.5, 3, 6.5]) {
      const [from, to] = [at * 44100, (at + 1) * 44100];
      expect(Math.abs(rmsDb(a, from, to) - rmsDb(b, from, to))).toBeLessThan(0.5);
    }
  });

  it('MP3 crossfades spliced into copies: a failed splice check mixes the decoded inputs', async () => {
    const out = p('splice-fallback.mp3');
    const report = await mergeFiles(mp3s, out, { tools, crossfade: 0.5, failChecks: ['mp3-splice'] });
    expectFellBack(report, 'mp3-splice');
    expectChapters(report, [0, 1.5, 4]);
    await expectHeard(out, 6, [
      [0, 440],
      [2.1, 660],
      [4.6, 880],
    ]);
  });

  it('AAC copies into M4B: copied without a fault; a failed copy check encodes the decoded inputs once', async () => {
    const fast = await mergeFiles(aacs, p('copy.m4b'), { tools });
    expect(fast.fallbacks).toEqual([]);
    expect(fast.transcoded).toEqual([]);
    const out = p('copy-fallback.m4b');
    const report = await mergeFiles(aacs, out, { tools, failChecks: ['aac-copy'] });
    expectFellBack(report, 'aac-copy');
    expect(report.transcoded).toEqual([0, 1]);
    expectChapters(report, [0, 2]);
    await expectHeard(out, 5, [
      [0, 440],
      [2, 660],
    ]);
  });

  it('AAC copies cut at the sample: a failed splice check decodes the kept spans', async () => {
    const out = p('aac-splice-fallback.m4a');
    const trims = [
      { input: 0, start: 0.5 },
      { input: 1, end: 2 },
    ];
    const report = await mergeFiles(aacs, out, { tools, trims, failChecks: ['aac-splice'] });
    expectFellBack(report, 'aac-splice');
    expectChapters(report, [0, 1.5]);
    await expectHeard(out, 3.5, [
      [0, 440],
      [1.5, 660],
    ]);
  });

  it('FLAC into MP3: encoded in chunks without a fault; a failed chunk check encodes once', async () => {
    const inputs = [flac, mp3s[1]];
    const fast = await mergeFiles(inputs, p('chunks.mp3'), { tools, concurrency: 2 });
    expect(fast.fallbacks).toEqual([]);
    const out = p('chunks-fallback.mp3');
    const report = await mergeFiles(inputs, out, { tools, concurrency: 2, failChecks: ['chunked-encode'] });
    expectFellBack(report, 'chunked-encode');
    expectChapters(report, [0, 30]);
    await expectHeard(out, 33, [
      [0, 550],
      [15, 550],
      [30, 660],
    ]);
  });

  it('FLAC into M4B: a failed chunk check encodes the decoded input once', async () => {
    const out = p('chunks-fallback.m4b');
    const report = await mergeFiles([flac, aacs[1]], out, {
      tools,
      concurrency: 2,
      failChecks: ['chunked-encode'],
    });
    expect(report.fallbacks).toHaveLength(1);
    expect(report.fallbacks[0].stage).toBe('chunked-encode');
    expectChapters(report, [0, 30]);
    await expectHeard(out, 33, [
      [0, 550],
      [15, 550],
      [30, 660],
    ]);
  });

  it("an input that cannot be read still fails with its own code, named, whatever fast path's check fails", async () => {
    const bad = p('broken.mp3');
    await writeFile(bad, Buffer.alloc(4096, 0x55));
    const merged = mergeFiles([mp3s[0], bad], p('never.mp3'), { tools, failChecks: ['mp3-join'] });
    await expect(merged).rejects.toBeInstanceOf(InputError);
    await expect(merged).rejects.toMatchObject({ index: 1 });
  });
});
