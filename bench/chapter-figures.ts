// Figures for chapters found in silences: an hour of MP3s (12 five-minute files) joined by copying
// with --chapters-at silences, against what m4b-tool runs for the same (ffmpeg silencedetect over
// each input, one after another, then a copy join), and against the same join with file chapters.
import path from 'node:path';
import { resolveToolPaths } from '../src/engine/ffmpeg/tools.js';
import { ffmpegConcatCopy, ours } from './contenders.js';
import type { Command } from './measure.js';
import { race, type FigureGroup } from './race.js';

const tools = resolveToolPaths();

/** silencedetect at the command line's defaults over each input in turn, then `join`. */
function silencedetectThenJoin(label: string, inputs: string[], join: Command): Command {
  const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
  const detect = inputs.map(
    (f) =>
      `${quote(tools.ffmpeg)} -hide_banner -nostdin -v info -i ${quote(f)} -af silencedetect=n=-45dB:d=2 -f null - 2>/dev/null`,
  );
  const joinLine = [join.cmd, ...join.args].map(quote).join(' ');
  return { label, cmd: 'sh', args: ['-c', [...detect, joinLine].join(' && ')] };
}

export const chapterFigures: FigureGroup = async (c, work, rounds, progress) => {
  const out = (n: string) => path.join(work, n);
  const join = ffmpegConcatCopy('concat copy', c.hourMp3, out('ffmpeg-chapters.mp3'));
  return race(
    progress,
    {
      step: 'chapters at silences, 12 five-minute MP3s',
      contenders: [
        ours('at silences', c.hourMp3, out('ours-silences.mp3'), ['--chapters-at', 'silences']),
        ours('at files', c.hourMp3, out('ours-files.mp3')),
        silencedetectThenJoin('silencedetect + concat copy', c.hourMp3, join),
      ],
      rounds,
    },
    {
      name: 'chapters at silences, 12 five-minute MP3s joined (copied)',
      ours: 'at silences',
      peerName: 'ffmpeg silencedetect over each input, then concat copy (m4b-tool)',
      peer: 'silencedetect + concat copy',
      target: 0.6,
    },
    {
      name: 'the same, what finding the silences adds',
      ours: 'at silences',
      peerName: 'the same join, chapters at the files',
      peer: 'at files',
      note: 'one decode of each input, two at a time on two cores',
    },
  );
};
