// Figures for the engine's command line, each set against what a person would use instead.
import path from 'node:path';
import { againstConcatCopy, CONCAT_COPY, ffmpegCommand, oursRss } from './contenders.js';
import { alternate, type Command } from './measure.js';
import { duel, race, type FigureGroup } from './race.js';
import type { Figure } from './report.js';

function cat(label: string, inputs: string[], out: string): Command {
  return { label, cmd: 'cat', args: inputs, stdoutFile: out };
}

function ffmpegReencode(label: string, inputs: string[], out: string): Command {
  const chains = inputs.map((_, i) => `[${i}:a]aresample=44100[a${i}]`).join(';');
  const labels = inputs.map((_, i) => `[a${i}]`).join('');
  return ffmpegCommand(
    label,
    [
      ...inputs.flatMap((f) => ['-i', f]),
      ...['-filter_complex', `${chains};${labels}concat=n=${inputs.length}:v=0:a=1[out]`],
      ...['-map', '[out]', '-c:a', 'libmp3lame', '-b:a', '128k'],
    ],
    out,
  );
}

export const engineFigures: FigureGroup = async (c, work, rounds, progress) => {
  const out = (n: string) => path.join(work, n);
  const figures: Figure[] = [];

  const hour = {
    step: '1-hour lossless join',
    contenders: [
      ...againstConcatCopy(c.hourMp3, out, 'hour.mp3'),
      cat('cat', c.hourMp3, out('cat-hour.mp3')),
    ],
    rounds,
  };
  figures.push(
    ...(await race(
      progress,
      hour,
      { name: 'lossless join, 1 hour in 12 MP3s', ...CONCAT_COPY, target: 0.5 },
      { name: 'the same join', ours: 'audio-merge', peerName: 'cat (the floor)', peer: 'cat', target: 3 },
    )),
  );

  const clips = {
    step: '120 short clips',
    contenders: againstConcatCopy(c.clips, out, 'clips.mp3'),
    rounds,
    figure: { name: '120 two-second clips, lossless', peerName: CONCAT_COPY.peerName, target: 1 },
  };
  figures.push(await duel(progress, clips));

  figures.push(...(await transcodeFigures(c.flac, work, rounds, progress)));

  progress('peak memory, 3-hour join');
  const mem = await alternate(
    [oursRss('3 hours', c.threeHours, out('ours-3h.mp3')), oursRss('1 hour', c.hourMp3, out('ours-1h.mp3'))],
    rounds,
    progress,
  );
  const three = mem.get('3 hours')!.rss!;
  const one = mem.get('1 hour')!.rss!;
  figures.push({
    name: 'peak RSS, 3-hour join vs 1-hour join',
    ours: three,
    peerName: '1-hour join',
    peer: one,
    target: 1.1,
    unit: 'MB',
    extraTarget: { label: '3-hour peak at most 150 MB', ok: three.median <= 150 * 1024 * 1024 },
  });
  return figures;
};

/** 12 minutes of mixed-rate FLAC to MP3, against one ffmpeg concat-filter encode. */
export async function transcodeFigures(
  flacs: string[],
  work: string,
  rounds: number,
  progress: (m: string) => void,
): Promise<Figure[]> {
  const out = (n: string) => path.join(work, n);
  const flac = {
    step: 'mixed-rate FLAC to MP3',
    contenders: [
      oursRss('audio-merge', flacs, out('ours-flac.mp3')),
      ffmpegReencode('ffmpeg concat filter', flacs, out('ffmpeg-flac.mp3')),
    ],
    rounds: Math.max(3, Math.ceil(rounds / 2)),
    figure: {
      name: '12 min FLAC (44.1/48 kHz) to MP3',
      peerName: 'ffmpeg concat filter, aresample, libmp3lame 128k',
      target: 0.6,
    },
  };
  return [await duel(progress, flac)];
}
