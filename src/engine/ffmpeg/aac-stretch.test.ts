import { describe, expect, it } from 'vitest';
import { aacStretchArgs } from './aac-stretch.js';
import { fileArg } from './runner.js';

const target = { sampleRate: 44100, channels: 2, bitRateKbps: 128 };

describe('aacStretchArgs', () => {
  it('reads each range from a whole second at least one second before it, cut by sample count', () => {
    const args = aacStretchArgs(
      [
        { file: 'a.m4a', from: 100_000, to: 103_000 },
        { silence: 500 },
        { file: 'b.m4a', from: 20, to: 4_000 },
      ],
      'out.m4a',
      target,
    );
    expect(args.slice(args.indexOf('-ss'), args.indexOf('-filter_complex'))).toEqual([
      '-ss',
      '1',
      '-i',
      fileArg('a.m4a'),
      '-ss',
      '0',
      '-i',
      fileArg('b.m4a'),
    ]);
    const graph = args[args.indexOf('-filter_complex') + 1];
    expect(graph).toContain('[0:a:0]');
    expect(graph).toContain(`atrim=start_sample=${100_000 - 44_100}:end_sample=${103_000 - 44_100}`);
    expect(graph).toContain('anullsrc=r=44100:cl=stereo,atrim=end_sample=500');
    expect(graph).toContain('[1:a:0]');
    expect(graph).toContain('atrim=start_sample=20:end_sample=4000');
    expect(graph).toMatch(/\[p0\]\[p1\]\[p2\]concat=n=3:v=0:a=1\[feed\]$/);
    expect(args.slice(args.indexOf('-c:a'), args.indexOf('-c:a') + 4)).toEqual([
      '-c:a',
      'aac',
      '-b:a',
      '128k',
    ]);
    expect(args.at(-1)).toBe(fileArg('out.m4a'));
  });
});
