// Figures for the sound options: loudness matching against ffmpeg's two-pass loudnorm, and the
// cost of a gap against the same join without one.
import { rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { resolveToolPaths } from '../src/engine/ffmpeg/tools.js';
import type { Corpus } from './corpus.js';
import { alternate, type Command } from './measure.js';
import type { Figure } from './report.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const tools = resolveToolPaths();

function ours(label: string, inputs: string[], out: string, options: string[]): Command {
  return {
    label,
    cmd: process.execPath,
    args: [path.join(root, 'bin', 'audio-merge.cjs'), '--quiet', '-o', out, ...options, ...inputs],
    before: () => rmSync(out, { force: true }),
  };
}

function twoPassLoudnorm(label: string, inputs: string[], out: string): Command {
  return {
    label,
    cmd: process.execPath,
    args: [path.join(root, 'bench', 'loudnorm-two-pass.mjs'), tools.ffmpeg, '-16', out, ...inputs],
    before: () => rmSync(out, { force: true }),
  };
}

export async function soundFigures(c: Corpus, work: string, rounds: number, progress: (m: string) => void): Promise<Figure[]> {
  const out = (n: string) => path.join(work, n);
  const figures: Figure[] = [];

  progress('loudness matching, 1 hour in 12 MP3s');
  // The peer takes minutes a run (loudnorm resamples to 192 kHz twice per input): fewer rounds.
  const loud = await alternate(
    [
      ours('audio-merge --loudness', c.hourMp3, out('ours-loud.mp3'), ['--loudness', '-16']),
      twoPassLoudnorm('ffmpeg two-pass loudnorm', c.hourMp3, out('ffmpeg-loud.mp3')),
    ],
    Math.max(1, Math.min(rounds, 2)),
    progress,
  );
  figures.push({
    name: 'loudness matching, 1 hour in 12 MP3s (copied)',
    ours: loud.get('audio-merge --loudness')!.time,
    peerName: 'ffmpeg two-pass loudnorm + libmp3lame, concat copy',
    peer: loud.get('ffmpeg two-pass loudnorm')!.time,
    target: 0.3,
  });

  progress('gap join vs plain join');
  const gap = await alternate(
    [ours('with --gap 2', c.hourMp3, out('ours-gap.mp3'), ['--gap', '2']), ours('plain', c.hourMp3, out('ours-plain.mp3'), [])],
    rounds,
    progress,
  );
  figures.push({ name: '1-hour join with --gap 2', ours: gap.get('with --gap 2')!.time, peerName: 'the same join without a gap', peer: gap.get('plain')!.time, target: 1.1 });
  return figures;
}
