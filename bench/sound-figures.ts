// Figures for the sound options: loudness matching against ffmpeg's two-pass loudnorm, the cost
// of a gap against the same join without one, and crossfades against ffmpeg's acrossfade chain
// and against our own full-decode mix.
import path from 'node:path';
import { ffmpegCommand, ours, twoPassLoudnorm } from './contenders.js';
import { alternate, runOnce, type Command } from './measure.js';
import { duels, type FigureGroup } from './race.js';

/** ffmpeg's way: every input decoded, a chain of acrossfade filters (the same curve), one libmp3lame encode. */
function acrossfadeChain(label: string, inputs: string[], out: string, seconds: number): Command {
  const links = inputs
    .slice(1)
    .map(
      (_, k) =>
        `${k === 0 ? '[0:a]' : `[x${k}]`}[${k + 1}:a]acrossfade=d=${seconds}:c1=qsin:c2=qsin[x${k + 1}]`,
    );
  const args = [...inputs.flatMap((f) => ['-i', f]), '-filter_complex', links.join(';')];
  const encode = ['-map', `[x${inputs.length - 1}]`, '-c:a', 'libmp3lame', '-b:a', '128k'];
  return ffmpegCommand(label, [...args, ...encode], out, true);
}

export const soundFigures: FigureGroup = async (c, work, rounds, progress) => {
  const out = (n: string) => path.join(work, n);
  const loud = {
    step: 'loudness matching, 1 hour in 12 MP3s',
    contenders: [
      ours('audio-merge --loudness', c.hourMp3, out('ours-loud.mp3'), ['--loudness', '-16']),
      twoPassLoudnorm('ffmpeg two-pass loudnorm', c.hourMp3, out('ffmpeg-loud.mp3')),
    ],
    // The peer takes minutes a run (loudnorm resamples to 192 kHz twice per input): fewer rounds.
    rounds: Math.max(1, Math.min(rounds, 2)),
    figure: {
      name: 'loudness matching, 1 hour in 12 MP3s (copied)',
      peerName: 'ffmpeg two-pass loudnorm + libmp3lame, concat copy',
      target: 0.3,
    },
  };
  const gap = {
    step: 'gap join vs plain join',
    contenders: [
      ours('with --gap 2', c.hourMp3, out('ours-gap.mp3'), ['--gap', '2']),
      ours('plain', c.hourMp3, out('ours-plain.mp3')),
    ],
    rounds,
    figure: { name: '1-hour join with --gap 2', peerName: 'the same join without a gap', target: 1.1 },
  };
  return [...(await duels(progress, [loud, gap])), ...(await crossfadeFigures(c, work, rounds, progress))];
};

/** Crossfades: ours (only the fades re-encoded) against ffmpeg's acrossfade chain and our own full-decode mix. */
export const crossfadeFigures: FigureGroup = async (c, work, rounds, progress) => {
  const out = (n: string) => path.join(work, n);
  progress('crossfades, 1 hour in 12 MP3s');
  const mine = ours('--crossfade 2', c.hourMp3, out('ours-fade.mp3'), ['--crossfade', '2']);
  await runOnce(mine); // the untimed warm-up (page cache, binaries); the peers decode minutes and need none
  // --gapless sends the same crossfades through the mixing route: every input decoded, one encode.
  const mixed = ['--crossfade', '2', '--gapless'];
  const fade = await alternate(
    [
      mine,
      ours('--crossfade 2, all decoded', c.hourMp3, out('ours-fade-mixed.mp3'), mixed),
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
};
