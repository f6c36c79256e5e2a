import { execFile } from 'node:child_process';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { tempDir, tools } from '../../../test/support/audio-fixtures.js';
import { childrenNamed, waitUntilGone } from '../../../test/support/processes.js';
import { PeakAccumulator, poolPeaks } from '../../shared/peaks.js';
import { AbortError, ToolError } from '../errors.js';
import { spawnRunner } from '../ffmpeg/runner.js';
import { decodePeaks } from './peaks.js';

const exec = promisify(execFile);
let dir: string;
let cleanup: () => Promise<void>;
let quietLoud: string;
let manyChannels: string;

/** `seconds` of silence then `seconds` of a full-scale-ish tone, stereo 8 kHz. */
async function silenceThenTone(file: string, seconds: number): Promise<string> {
  await exec(tools.ffmpeg, [
    ...['-hide_banner', '-v', 'error', '-y'],
    ...['-f', 'lavfi', '-t', String(seconds), '-i', 'anullsrc=r=8000:cl=stereo'],
    ...['-f', 'lavfi', '-i', `sine=frequency=440:sample_rate=8000:duration=${seconds}`],
    ...['-filter_complex', '[1]volume=6,aformat=channel_layouts=stereo[t];[0][t]concat=n=2:v=0:a=1'],
    ...['-c:a', 'pcm_s16le', file],
  ]);
  return file;
}

/** Minutes of 7.1 silence at 96 kHz: a small FLAC that decodes to many samples. */
async function longSilence(file: string, seconds: number): Promise<string> {
  await exec(tools.ffmpeg, [
    ...['-hide_banner', '-v', 'error', '-y'],
    ...['-f', 'lavfi', '-t', String(seconds), '-i', 'anullsrc=r=96000:cl=7.1'],
    ...['-c:a', 'flac', file],
  ]);
  return file;
}

beforeAll(async () => {
  ({ dir, cleanup } = await tempDir());
  quietLoud = await silenceThenTone(path.join(dir, 'quiet-loud.wav'), 1);
  manyChannels = await longSilence(path.join(dir, 'silence-7.1.flac'), 60);
});
afterAll(() => cleanup());

describe('decodePeaks', () => {
  it('folds on a worker the very table this thread folds: every sample counted, quiet then loud', async () => {
    const job = { tools, channels: 2, sampleRate: 8000 };
    const onWorker = await decodePeaks(quietLoud, job);
    const here = await decodePeaks(quietLoud, { ...job, runner: spawnRunner });
    expect(onWorker).toEqual(here);
    expect(onWorker.samples).toBe(16000);
    const [quiet, loud] = poolPeaks(onWorker, 2);
    expect(quiet).toBe(0);
    expect(loud).toBeGreaterThan(0.3);
  });

  it('does no per-sample work on the thread that asked', async () => {
    const push = vi.spyOn(PeakAccumulator.prototype, 'push');
    const before = performance.eventLoopUtilization();
    try {
      const table = await decodePeaks(manyChannels, { tools, channels: 8, sampleRate: 96000 });
      expect(table.samples).toBe(60 * 96000);
      expect(push).not.toHaveBeenCalled();
      // 46 million samples folded on this thread kept its loop busy most of the decode; on a
      // worker it only waits. Half is far from either, whatever the machine's load.
      expect(performance.eventLoopUtilization(before).utilization).toBeLessThan(0.5);
    } finally {
      push.mockRestore();
    }
  });

  it('ends its ffmpeg when aborted, and rejects with an AbortError', async () => {
    const stop = new AbortController();
    let pid = 0;
    const decoding = decodePeaks(manyChannels, {
      tools,
      channels: 8,
      sampleRate: 96000,
      signal: stop.signal,
      onSpawn: (p) => {
        pid = p;
        stop.abort();
      },
    });
    await expect(decoding).rejects.toBeInstanceOf(AbortError);
    expect(pid).toBeGreaterThan(0);
    expect(await waitUntilGone(pid)).toBe(true);
    expect(childrenNamed('ffmpeg')).toEqual([]);
  });

  it('says which tool could not be started', async () => {
    const missing = { ...tools, ffmpeg: path.join(dir, 'no-such-ffmpeg') };
    await expect(decodePeaks(quietLoud, { tools: missing, channels: 2, sampleRate: 8000 })).rejects.toThrow(
      ToolError,
    );
    await expect(decodePeaks(quietLoud, { tools: missing, channels: 2, sampleRate: 8000 })).rejects.toThrow(
      /no-such-ffmpeg \(no such file\)/,
    );
  });
});
