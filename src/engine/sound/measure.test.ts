import { describe, expect, it } from 'vitest';
import type { RunRequest, Runner } from '../ffmpeg/runner.js';
import type { Tools } from '../types.js';
import { measureAll } from './measure.js';

const tools: Tools = { ffmpeg: '/bin/ffmpeg', ffprobe: '/bin/ffprobe', source: 'env', ffmpegVersion: 'test' };

/** A runner that answers each input with a loudness read from its name, after a delay. */
function slowRunner(): { runner: Runner; peak: () => number; asked: RunRequest[] } {
  let inFlight = 0;
  let most = 0;
  const asked: RunRequest[] = [];
  const runner: Runner = async (req) => {
    asked.push(req);
    inFlight++;
    most = Math.max(most, inFlight);
    await new Promise((r) => setTimeout(r, 20));
    inFlight--;
    const lufs = /(-\d+)\.wav/.exec(req.args.join(' '))![1];
    req.onProgress?.({ outTimeSeconds: 3, end: true });
    return {
      code: 0,
      signal: null,
      stdout: '',
      stderrTail: `Summary:\n  I:   ${lufs}.0 LUFS\n  True peak:\n    Peak:  -3.0 dBFS\n`,
    };
  };
  return { runner, peak: () => most, asked };
}

describe('measuring the inputs', () => {
  it('measures the asked inputs in parallel, at most `concurrency` at once, one decode each', async () => {
    const inputs = ['/a/-30.wav', '/a/-20.wav', '/a/-10.wav', '/a/-12.wav', '/a/-18.wav'];
    const { runner, peak, asked } = slowRunner();
    const progress: string[] = [];
    const got = await measureAll(inputs, [0, 2, 3, 4], {
      tools,
      runner,
      concurrency: 2,
      onProgress: (i, f) => progress.push(`${i}:${f}`),
    });
    expect(peak()).toBe(2);
    expect(asked).toHaveLength(4);
    expect([...got.keys()].sort()).toEqual([0, 2, 3, 4]);
    expect(got.get(3)).toMatchObject({ integratedLufs: -12, truePeakDb: -3, decodedSeconds: 3 });
    expect(got.has(1)).toBe(false);
    expect(progress.sort()).toEqual(['0:1', '2:1', '3:1', '4:1']);
  });
});
