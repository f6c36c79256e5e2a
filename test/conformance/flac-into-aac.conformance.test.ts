// An hour of FLAC into M4B, as an audiobook's CD rips come: long enough that every chunk of the
// parallel AAC encode starts inside an input, which once failed the merge (an encode whose edit
// list said its priming was 1008 samples, or held two edits). Slow: run by the conformance script.
import { execFile, spawn } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../support/audio-fixtures.js';
import { tools } from '../support/engine-kit.js';
import { ffprobeChapters } from '../support/chapter-readers.js';
import { mergeFiles } from '../../src/engine/index.js';

const exec = promisify(execFile);
const RATE = 44100;
/** Samples per AAC frame: a decoder that ignores the edit list's end may add at most one of padding. */
const AAC_FRAME = 1024;

/** A tone of `seconds` (sample-exact) as 16-bit stereo FLAC. */
async function flacTone(file: string, seconds: number, frequency: number): Promise<string> {
  await exec(tools.ffmpeg, [
    ...['-hide_banner', '-v', 'error', '-y', '-f', 'lavfi'],
    ...['-i', `sine=frequency=${frequency}:sample_rate=${RATE}:duration=${seconds}`],
    ...['-ac', '2', '-c:a', 'flac', file],
  ]);
  return file;
}

/** Samples of `file` as ffmpeg decodes it (counted as they stream, never held), and its errors. */
function decodedSamples(file: string): Promise<{ samples: number; errors: string }> {
  return new Promise((resolve, reject) => {
    const ff = spawn(tools.ffmpeg, ['-v', 'error', '-i', file, '-ac', '1', '-f', 's16le', '-']);
    let bytes = 0;
    let errors = '';
    ff.stdout.on('data', (b: Buffer) => (bytes += b.length));
    ff.stderr.on('data', (b: Buffer) => (errors += b.toString()));
    ff.on('error', reject);
    ff.on('close', () => resolve({ samples: bytes / 2, errors: errors.trim() }));
  });
}

/** The output's audio length by its container (the edit list), in samples. */
async function statedSamples(file: string): Promise<number> {
  const { stdout } = await exec(tools.ffprobe, [
    ...['-v', 'error', '-select_streams', 'a:0', '-show_entries', 'stream=duration_ts'],
    ...['-of', 'csv=p=0', file],
  ]);
  return Number(stdout.trim());
}

describe('an hour of FLAC into M4B', () => {
  let dir: string;
  let cleanup: () => Promise<void>;
  beforeAll(async () => ({ dir, cleanup } = await tempDir()));
  afterAll(() => cleanup());

  it("joins a 60-minute FLAC and a 2-minute one: decoded length the inputs', chapters where each starts", async () => {
    const lengths = [3600.0123, 120.5];
    const inputs = [
      await flacTone(path.join(dir, 'part-1.flac'), lengths[0], 440),
      await flacTone(path.join(dir, 'part-2.flac'), lengths[1], 660),
    ];
    const out = path.join(dir, 'book.m4b');
    const report = await mergeFiles(inputs, out, { tools });
    const want = lengths.reduce((n, s) => n + Math.round(s * RATE), 0);
    expect(report.transcoded).toEqual([0, 1]);
    expect(Math.round(report.durationSeconds * RATE)).toBe(want);
    expect(await statedSamples(out)).toBe(want);
    const { samples, errors } = await decodedSamples(out);
    expect(errors).toBe('');
    expect(samples - want).toBeGreaterThanOrEqual(0);
    expect(samples - want).toBeLessThan(AAC_FRAME);
    const chapters = await ffprobeChapters(out);
    expect(chapters.map((c) => c.title)).toEqual(['part-1', 'part-2']);
    expect(Math.abs(chapters[0].start)).toBeLessThanOrEqual(0.03);
    expect(Math.abs(chapters[1].start - Math.round(lengths[0] * RATE) / RATE)).toBeLessThanOrEqual(0.03);
    expect(Math.abs(chapters[1].end - want / RATE)).toBeLessThanOrEqual(0.03);
  }, 1_800_000);
});
