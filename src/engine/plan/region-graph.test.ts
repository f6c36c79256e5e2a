import { describe, expect, it } from 'vitest';
import { mixGraph, regionSteps, type StreamPiece } from './region-graph.js';

const placements = [
  { start: 0, end: 5000, shift: 0 },
  { start: 5600, end: 20000, shift: 4 },
];

describe('regionSteps', () => {
  it('lays a hard join out as the end of one piece, the silence between, and the start of the next', () => {
    const pieces: StreamPiece[] = [
      { input: 0, rawStart: 2000, length: 4608, streamStart: 0 },
      { input: 1, rawStart: 4608, length: 4608, streamStart: 4608 },
    ];
    const steps = regionSteps({ from: 3000, to: 8000 }, pieces, placements)!;
    expect(steps).toEqual([
      // A from raw 3000 to its end at 5000: stream samples 1000..3000.
      { kind: 'take', from: 1000, to: 3000 },
      { kind: 'silence', samples: 600 },
      // B from its start at 5600 to 8000: stream 4608 + (5600 - 4608) ...
      { kind: 'take', from: 5600, to: 8000 },
    ]);
    const samples = steps.reduce((n, s) => n + (s.kind === 'take' ? s.to - s.from : s.samples), 0);
    expect(samples).toBe(5000);
  });

  it('is silence where no input plays, and undefined where two do (a fade adds them)', () => {
    expect(regionSteps({ from: 0, to: 100 }, [], placements)).toEqual([{ kind: 'silence', samples: 100 }]);
    const overlapping = [
      { start: 0, end: 6000, shift: 0 },
      { start: 5000, end: 9000, shift: 4 },
    ];
    const pieces: StreamPiece[] = [
      { input: 0, rawStart: 0, length: 8000, streamStart: 0 },
      { input: 1, rawStart: 4608, length: 4608, streamStart: 8000 },
    ];
    expect(regionSteps({ from: 4000, to: 8000 }, pieces, overlapping)).toBeUndefined();
  });
});

describe('mixGraph', () => {
  it('trims each take from one split of the stream, makes each silence, and joins them in order', () => {
    const graph = mixGraph(
      [
        [{ kind: 'take', from: 10, to: 20 }],
        [
          { kind: 'silence', samples: 5 },
          { kind: 'take', from: 30, to: 40 },
        ],
      ],
      44100,
      2,
    );
    expect(graph.split(';\n')).toEqual([
      '[0:a]asplit=2[i0][i1]',
      '[i0]atrim=start_sample=10:end_sample=20,asetpts=N/SR/TB,aformat=sample_fmts=fltp[s0]',
      'anullsrc=r=44100:cl=stereo,atrim=end_sample=5,aformat=sample_fmts=fltp[s1]',
      '[i1]atrim=start_sample=30:end_sample=40,asetpts=N/SR/TB,aformat=sample_fmts=fltp[s2]',
      '[s0][s1][s2]concat=n=3:v=0:a=1[out]',
    ]);
  });
});
