import { describe, expect, it } from 'vitest';
import { tools } from '../../../test/support/audio-fixtures.js';
import { PipeRunFailed, startPipeRun } from './pipe-run.js';

const pcmThrough = [
  '-f',
  's16le',
  '-ar',
  '8000',
  '-ac',
  '1',
  '-i',
  'pipe:0',
  '-c:a',
  'pcm_s16le',
  '-f',
  's16le',
  'pipe:1',
];

describe('startPipeRun', () => {
  it('gives back what ffmpeg made of the bytes written after it started', async () => {
    const run = startPipeRun({ tools, args: pcmThrough });
    const samples = Int16Array.from({ length: 8000 }, (_, i) => Math.round(8000 * Math.sin(i / 5)));
    const bytes = Buffer.from(samples.buffer);
    run.write(bytes.subarray(0, 6000));
    run.write(bytes.subarray(6000));
    expect((await run.finish()).equals(bytes)).toBe(true);
  });

  it('says why when ffmpeg fails, and ends at once when cancelled', async () => {
    const bad = startPipeRun({
      tools,
      args: ['-f', 'no-such-format', '-i', 'pipe:0', '-f', 's16le', 'pipe:1'],
    });
    await expect(bad.finish()).rejects.toBeInstanceOf(PipeRunFailed);
    const idle = startPipeRun({ tools, args: pcmThrough });
    idle.cancel();
    await expect(idle.finish()).rejects.toThrow();
  });
});
