import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../../../test/support/audio-fixtures.js';
import { tools } from '../../../test/support/engine-kit.js';
import { loudnessOf, toneAtLoudness } from '../../../test/support/loudness-fixtures.js';
import { mergeFiles } from './merge.js';

const exec = promisify(execFile);

/**
 * A quiet voice-like tone (about -27 LUFS) with a loud 3 ms burst every 2 s (near 0 dBFS): the
 * bursts set the true peak but carry little of the loudness, as a laugh or a plosive in an interview.
 */
async function peakyQuiet(file: string, codec: string[]): Promise<string> {
  const expr = '0.05*sin(2*PI*440*t)+0.85*sin(2*PI*1000*t)*lt(mod(t\\,2)\\,0.003)';
  await exec(tools.ffmpeg, [
    '-v',
    'error',
    '-y',
    '-f',
    'lavfi',
    '-i',
    `aevalsrc=exprs=${expr}|${expr}:s=44100:d=12`,
    ...codec,
    file,
  ]);
  return file;
}

describe('loudness matching of an input whose peaks hold a plain gain back', () => {
  let dir: string;
  let cleanup: () => Promise<void>;
  beforeAll(async () => ({ dir, cleanup } = await tempDir()));
  afterAll(() => cleanup());

  it.each([
    ['flac', ['-c:a', 'pcm_s16le'], 'wav'],
    ['mp3', ['-c:a', 'libmp3lame', '-b:a', '128k'], 'mp3'],
    ['opus', ['-c:a', 'pcm_s16le'], 'wav'],
    ['m4b', ['-c:a', 'flac'], 'flac'],
  ] as const)(
    'brings it within 1 LU of the target with its true peak at most -1 dBTP (%s)',
    async (format, codec, ext) => {
      const peaky = await peakyQuiet(path.join(dir, `peaky-${format}.${ext}`), [...codec]);
      const before = await loudnessOf(peaky);
      // The input is what the case is about: a plain gain to -16 LUFS would pass the ceiling by far.
      expect(-16 - before.lufs).toBeGreaterThan(-1 - before.peak + 5);
      const steady = await toneAtLoudness(path.join(dir, `steady-${format}.${ext}`), -20, 4);
      const out = path.join(dir, `limited.${format}`);
      const report = await mergeFiles([steady, peaky], out, { tools, loudness: -16, concurrency: 2 });
      const start = report.chapters[1].start;
      const after = await loudnessOf(out, start + 0.05);
      expect(Math.abs(after.lufs - -16)).toBeLessThanOrEqual(1);
      expect(after.peak).toBeLessThanOrEqual(-1);
      const whole = await loudnessOf(out);
      expect(whole.peak).toBeLessThanOrEqual(-1);
      expect(report.loudness?.[1]).toMatchObject({ input: 1, limiter: true });
      // A copied MP3 that needs the limiter is decoded and re-encoded, and says so.
      if (format === 'mp3') expect(report.transcoded).toContain(1);
      expect(report.durationSeconds).toBeCloseTo(16, 1);
    },
  );

  it.each(['m4b', 'mp3', 'wav'] as const)(
    'keeps noisy transients (a drum-like FLAC) at most -1 dBTP into %s, their loudness settled after the limiter',
    async (format) => {
      // Decaying noise bursts over a quiet tone: their peaks lie between samples, and an encoder's
      // ringing lifts them further (a limiter on the samples alone let +2.1 dBTP through).
      const expr = '0.05*sin(2*PI*220*t)+0.9*(random(0)*2-1)*exp(-mod(t\\,0.5)*60)';
      const drums = path.join(dir, `drums-${format}.flac`);
      await exec(tools.ffmpeg, [
        ...['-v', 'error', '-y', '-f', 'lavfi', '-i', `aevalsrc=exprs=${expr}|${expr}:s=44100:d=8`],
        ...['-c:a', 'flac', drums],
      ]);
      expect((await loudnessOf(drums)).peak).toBeGreaterThan(2);
      const steady = await toneAtLoudness(path.join(dir, `steady-drums-${format}.flac`), -20, 4);
      const out = path.join(dir, `drums.${format}`);
      const report = await mergeFiles([steady, drums], out, { tools, loudness: -16, concurrency: 2 });
      expect(report.loudness?.[1]).toMatchObject({ input: 1, limiter: true });
      expect((await loudnessOf(out)).peak).toBeLessThanOrEqual(-1);
      // Their loudness lies in the transients the limiter lowers: the gain is settled after it.
      // (A lossy encoder's low-pass takes up to another 0.8 LU of this white noise's top octave,
      // which the settling, measured before the encode, does not see.)
      const after = await loudnessOf(out, report.chapters[1].start + 0.05);
      expect(Math.abs(after.lufs - -16)).toBeLessThanOrEqual(format === 'wav' ? 1 : 1.5);
    },
  );
});
