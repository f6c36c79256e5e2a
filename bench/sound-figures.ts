// Figures for the sound options: loudness matching against ffmpeg's two-pass loudnorm, the cost
// of a gap against the same join without one, and crossfades against ffmpeg's acrossfade chain
// and against our own full-decode mix.
import { rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { resolveToolPaths } from '../src/engine/ffmpeg/tools.js';
import type { Corpus } from './corpus.js';
import { alternate, runOnce, type Command } from './measure.js';
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

/** ffmpeg's way: every input decoded, a chain of acrossfade filters (the same curve), one libmp3lame encode. */
function acrossfadeChain(label: string, inputs: string[], out: string, seconds: number): Command {
  const links = inputs
    .slice(1)
    .map(
      (_, k) =>
        `${k === 0 ? '[0:a]' : `[x${k}]`}[${k + 1}:a]acrossfade=d=${seconds}:c1=qsin:c2=qsin[x${k + 1}]`,
    );
  return {
    label,
    cmd: tools.ffmpeg,
    args: [
      '-hide_banner',
      '-v',
      'error',
      '-y',
      ...inputs.flatMap((f) => ['-i', f]),
      '-filter_complex',
      links.join(';'),
      '-map',
      `[x${inputs.length - 1}]`,
      '-c:a',
      'libmp3lame',
      '-b:a',
      '128k',
      out,
    ],
    before: () => rmSync(out, { force: true }),
  };
}

export async function soundFigures(
  c: Corpus,
  work: string,
  rounds: number,
  progress: (m: string) => void,
): Promise<Figure[]> {
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
    [
      ours('with --gap 2', c.hourMp3, out('ours-gap.mp3'), ['--gap', '2']),
      ours('plain', c.hourMp3, out('ours-plain.mp3'), []),
    ],
    rounds,
    progress,
  );
  figures.push({
    name: '1-hour join with --gap 2',
    ours: gap.get('with --gap 2')!.time,
    peerName: 'the same join without a gap',
    peer: gap.get('plain')!.time,
    target: 1.1,
  });

  figures.push(...(await crossfadeFigures(c, work, rounds, progress)));
  return figures;
}

/** Crossfades: ours (only the fades re-encoded) against ffmpeg's acrossfade chain and our own full-decode mix. */
export async function crossfadeFigures(
  c: Corpus,
  work: string,
  rounds: number,
  progress: (m: string) => void,
): Promise<Figure[]> {
  const out = (n: string) => path.join(work, n);
  progress('crossfades, 1 hour in 12 MP3s');
  const mine = ours('--crossfade 2', c.hourMp3, out('ours-fade.mp3'), ['--crossfade', '2']);
  await runOnce(mine); // the untimed warm-up (page cache, binaries); the peers decode minutes and need none
  // --gapless sends the same crossfades through the mixing route: every input decoded, one encode.
  const fade = await alternate(
    [
      mine,
      ours('--crossfade 2, all decoded', c.hourMp3, out('ours-fade-mixed.mp3'), [
        '--crossfade',
        '2',
        '--gapless',
      ]),
      acrossfadeChain('ffmpeg acrossfade', c.hourMp3, out('ffmpeg-fade.mp3'), 2),
    ],
    // The peers take minutes a run: fewer rounds.
    Math.max(1, Math.min(rounds, 2)),
    progress,
    false,
  );
  const time = fade.get('--crossfade 2')!.time;
  return [
    {
      name: 'crossfades of 2 s, 1 hour in 12 MP3s (copied)',
      ours: time,
      peerName: 'ffmpeg acrossfade chain + libmp3lame',
      peer: fade.get('ffmpeg acrossfade')!.time,
      target: 0.3,
    },
    {
      name: 'the same crossfades',
      ours: time,
      peerName: 'our full-decode mix (the --gapless route)',
      peer: fade.get('--crossfade 2, all decoded')!.time,
    },
  ];
}
