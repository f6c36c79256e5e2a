// Figures for fast paths that fall back: a merge whose fast path's check is made to fail
// (AUDIO_MERGE_FAIL_CHECKS, read by the command line) against what it may cost at most: the
// plain way alone (AUDIO_MERGE_PLAIN_ONLY) plus the fast path's attempt alone, summed round by
// round. Two paths whose check comes last, after all their work: the MP3 join of two five-minute
// MP3s, and two minutes of FLAC at 44.1 and 48 kHz encoded in chunks into M4B.
import path from 'node:path';
import type { Command } from './measure.js';
import { stats } from './measure.js';
import { ours } from './contenders.js';
import type { FigureGroup, Progress } from './race.js';
import { alternate } from './measure.js';
import type { Figure } from './report.js';

/** Round-to-round noise on a shared machine: the sum of two runs is not one run's cost. */
const TARGET = 1.05;

interface Case {
  name: string;
  stage: string;
  inputs: string[];
  ext: string;
}

const withEnv = (c: Command, env: NodeJS.ProcessEnv): Command => ({ ...c, env: { ...c.env, ...env } });

async function fallbackFigure(work: string, rounds: number, progress: Progress, k: Case): Promise<Figure> {
  const out = (n: string) => path.join(work, `${n}.${k.ext}`);
  const forced = withEnv(ours('forced', k.inputs, out('forced')), { AUDIO_MERGE_FAIL_CHECKS: k.stage });
  const fast = ours('fast', k.inputs, out('fast'));
  const plain = withEnv(ours('plain', k.inputs, out('plain')), { AUDIO_MERGE_PLAIN_ONLY: '1' });
  progress(k.name);
  const times = await alternate([forced, fast, plain], rounds, progress);
  const [f, a, p] = ['forced', 'fast', 'plain'].map((l) => times.get(l)!.time);
  return {
    name: `${k.name}, its ${k.stage} check made to fail`,
    ours: f,
    peerName: 'the plain way alone + the fast path alone (per round)',
    peer: stats(p.samples.map((s, i) => s + a.samples[i])),
    target: TARGET,
    note: `plain alone ${p.median.toFixed(2)} s, fast path alone ${a.median.toFixed(2)} s`,
  };
}

export const fallbackFigures: FigureGroup = async (c, work, rounds, progress) => [
  await fallbackFigure(work, rounds, progress, {
    name: 'two five-minute MP3s joined',
    stage: 'mp3-join',
    inputs: c.hourMp3.slice(0, 2),
    ext: 'mp3',
  }),
  await fallbackFigure(work, rounds, progress, {
    name: 'four minutes of FLAC into M4B',
    stage: 'chunked-encode',
    inputs: c.flac.slice(0, 2),
    ext: 'm4b',
  }),
];
