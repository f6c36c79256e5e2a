import { describe, expect, it } from 'vitest';
import { aacStretchArgs } from './aac-stretch.js';
import { fileArg } from './runner.js';

const target = { sampleRate: 44100, channels: 2, bitRateKbps: 128 };

describe('aacStretchArgs', () => {
  it('reads each range from a whole second at least one second before it, cut by sample count', () => {
    const args = aacStretchArgs(
      [
        {
          feed: [
            { file: 'a.m4a', from: 100_000, to: 103_000 },
            { silence: 500 },
            { file: 'b.m4a', from: 20, to: 4_000 },
          ],
          output: 'out.m4a',
        },
      ],
      target,
    );
    // A range within the first two seconds is read from the start, without a seek.
    expect(args.slice(args.indexOf('-ss'), args.indexOf('-filter_complex'))).toEqual([
      '-ss',
      '1',
      '-i',
      fileArg('a.m4a'),
      '-i',
      fileArg('b.m4a'),
    ]);
    const graph = args[args.indexOf('-filter_complex') + 1];
    expect(graph).toContain('[0:a:0]');
    expect(graph).toContain(`atrim=start_sample=${100_000 - 44_100}:end_sample=${103_000 - 44_100}`);
    expect(graph).toContain('anullsrc=r=44100:cl=stereo,atrim=end_sample=500');
    expect(graph).toContain('[1:a:0]');
    expect(graph).toContain('atrim=start_sample=20:end_sample=4000');
    expect(graph).toMatch(/\[p0_0\]\[p0_1\]\[p0_2\]concat=n=3:v=0:a=1\[f0\]$/);
    expect(args.slice(args.indexOf('-c:a'), args.indexOf('-c:a') + 4)).toEqual([
      '-c:a',
      'aac',
      '-b:a',
      '128k',
    ]);
    expect(args.at(-1)).toBe(fileArg('out.m4a'));
  });

  it('encodes many stretches in one ffmpeg, each from its own inputs to its own file', () => {
    const args = aacStretchArgs(
      [
        { feed: [{ file: 'a.m4a', from: 0, to: 10 }], output: 'one.m4a' },
        { feed: [{ file: 'b.m4a', from: 0, to: 10 }], output: 'two.m4a' },
      ],
      target,
    );
    const graph = args[args.indexOf('-filter_complex') + 1];
    expect(graph).toContain('[0:a:0]');
    expect(graph).toContain('[1:a:0]');
    expect(graph).toContain('[p1_0]concat=n=1:v=0:a=1[f1]');
    const maps = args.flatMap((a, i) => (a === '-map' ? [args[i + 1]] : []));
    expect(maps).toEqual(['[f0]', '[f1]']);
    expect(args.indexOf(fileArg('one.m4a'))).toBeLessThan(args.indexOf('[f1]'));
    expect(args.at(-1)).toBe(fileArg('two.m4a'));
  });
});
