import { describe, expect, it } from 'vitest';
import { BATCH_SIZE, batchArgs, runBatched, type BatchJob } from './batch.js';
import type { RunRequest, RunResult } from './runner.js';

const job = (n: number, extra: Partial<BatchJob> = {}): BatchJob => ({
  input: `/in/${n}.mp3`,
  output: `/out/${n}.f32`,
  head: {},
  outputArgs: ['-f', 'f32le'],
  ...extra,
});

describe('many small jobs in one ffmpeg', () => {
  it('reads every input once and writes each output from its own input, with its own filters', () => {
    const args = batchArgs([
      job(0, { head: { filters: 'volume=2dB' } }),
      job(1, { head: { raw: { sampleFormat: 'f32le', sampleRate: 44100, channels: 2 } } }),
    ]);
    expect(args.join(' ')).toBe(
      '-hide_banner -nostdin -v error -y -i file:/in/0.mp3 -f f32le -ar 44100 -ac 2 -i file:/in/1.mp3 ' +
        '-vn -map 0:a:0 -map_metadata -1 -af volume=2dB -f f32le file:/out/0.f32 ' +
        '-vn -map 1:a:0 -map_metadata -1 -f f32le file:/out/1.f32',
    );
  });

  it('runs in groups, and a group that fails is run again one by one (its errors name the input)', async () => {
    const jobs = Array.from({ length: BATCH_SIZE + 3 }, (_, n) => job(n));
    const runs: string[][] = [];
    const runner = async (req: RunRequest): Promise<RunResult> => {
      runs.push(req.args);
      const failed = req.args.includes('file:/in/1.mp3');
      return { code: failed ? 1 : 0, signal: null, stdout: '', stderrTail: failed ? 'bad frame' : '' };
    };
    const alone: number[] = [];
    await runBatched(jobs, { tools: { ffmpeg: 'ffmpeg' }, runner }, async (n) => {
      alone.push(n);
    });
    expect(runs).toHaveLength(2);
    expect(runs[1].filter((a) => a === '-i')).toHaveLength(3);
    expect(alone).toEqual(Array.from({ length: BATCH_SIZE }, (_, n) => n));

    const refused = runBatched([job(0), job(1)], { tools: { ffmpeg: 'ffmpeg' }, runner }, async (n) => {
      if (n === 1) throw new Error('1.mp3 could not be decoded');
    });
    await expect(refused).rejects.toThrow('1.mp3 could not be decoded');
  });
});
