// Figures for the output formats: an hour into M4B (encoded, and copied), and what chapters cost
// the lossless MP3 join, each against what a person would run instead.
import path from 'node:path';
import { againstConcatCopy, CONCAT_COPY, ffmpegConcat, oursRss } from './contenders.js';
import { duels, type FigureGroup } from './race.js';

export const formatFigures: FigureGroup = async (c, work, rounds, progress) => {
  const out = (n: string) => path.join(work, n);
  // An hour of AAC encoding takes minutes of CPU: fewer rounds, and no warm-up (the inputs are the
  // 1-hour MP3s every other figure has read).
  const heavy = Math.max(1, Math.ceil(rounds / 3));

  const m4b = {
    step: '1 hour of MP3 to M4B',
    contenders: [
      oursRss('audio-merge', c.hourMp3, out('ours-hour.m4b')),
      // The usual way to make an M4B of many files: one ffmpeg, concat demuxer, its AAC encoder.
      ffmpegConcat('ffmpeg concat aac', c.hourMp3, out('ffmpeg-hour.m4b'), [
        '-vn',
        '-c:a',
        'aac',
        '-b:a',
        '128k',
      ]),
    ],
    rounds: heavy,
    warmUp: false,
    figure: {
      name: '1 hour in 12 MP3s to M4B (AAC 128k)',
      peerName: 'ffmpeg -f concat, -c:a aac 128k',
      target: 0.6,
    },
  };
  const copy = {
    step: '1 hour of AAC to M4B',
    contenders: againstConcatCopy(c.hourM4a, out, 'aac.m4b'),
    rounds,
    figure: { name: '1 hour in 12 AAC M4As to M4B, copied', peerName: CONCAT_COPY.peerName, target: 1 },
  };
  const chapters = {
    step: 'MP3 join with and without chapters',
    contenders: [
      oursRss('with chapters', c.hourMp3, out('ours-ch.mp3')),
      oursRss('without', c.hourMp3, out('ours-noch.mp3'), ['--no-chapters']),
    ],
    rounds,
    figure: {
      name: 'lossless 1-hour MP3 join, chapters on',
      peerName: 'the same join, --no-chapters',
      target: 1.05,
    },
  };
  return duels(progress, [m4b, copy, chapters]);
};
