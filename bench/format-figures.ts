// Figures for the output formats: an hour into M4B (encoded, and copied), and what chapters cost
// the lossless MP3 join, each against what a person would run instead.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { resolveToolPaths } from '../src/engine/ffmpeg/tools.js';
import type { Corpus } from './corpus.js';
import { ffmpegConcatCopy, ours } from './engine-figures.js';
import { alternate, type Command } from './measure.js';
import type { Figure } from './report.js';

const tools = resolveToolPaths();

/** The usual way to make an M4B of many files: one ffmpeg, concat demuxer, its AAC encoder. */
function ffmpegConcatAac(label: string, inputs: string[], out: string): Command {
  const list = `${out}.txt`;
  writeFileSync(list, inputs.map((p) => `file '${p.replace(/'/g, "'\\''")}'`).join('\n'));
  return {
    label,
    cmd: tools.ffmpeg,
    args: [
      '-hide_banner',
      '-loglevel',
      'error',
      '-y',
      '-f',
      'concat',
      '-safe',
      '0',
      '-i',
      list,
      '-vn',
      '-c:a',
      'aac',
      '-b:a',
      '128k',
      out,
    ],
  };
}

export async function formatFigures(
  c: Corpus,
  work: string,
  rounds: number,
  progress: (m: string) => void,
): Promise<Figure[]> {
  const out = (n: string) => path.join(work, n);
  const figures: Figure[] = [];
  // An hour of AAC encoding takes minutes of CPU: fewer rounds, and no warm-up (the inputs are the
  // 1-hour MP3s every other figure has read).
  const heavy = Math.max(1, Math.ceil(rounds / 3));

  progress('1 hour of MP3 to M4B');
  const m4b = await alternate(
    [
      ours('audio-merge', c.hourMp3, out('ours-hour.m4b')),
      ffmpegConcatAac('ffmpeg concat aac', c.hourMp3, out('ffmpeg-hour.m4b')),
    ],
    heavy,
    progress,
    false,
  );
  figures.push({
    name: '1 hour in 12 MP3s to M4B (AAC 128k)',
    ours: m4b.get('audio-merge')!.time,
    peerName: 'ffmpeg -f concat, -c:a aac 128k',
    peer: m4b.get('ffmpeg concat aac')!.time,
    target: 0.6,
  });

  progress('1 hour of AAC to M4B');
  const copy = await alternate(
    [
      ours('audio-merge', c.hourM4a, out('ours-aac.m4b')),
      ffmpegConcatCopy('ffmpeg concat copy', c.hourM4a, out('ffmpeg-aac.m4b')),
    ],
    rounds,
    progress,
  );
  figures.push({
    name: '1 hour in 12 AAC M4As to M4B, copied',
    ours: copy.get('audio-merge')!.time,
    peerName: 'ffmpeg -f concat -c copy',
    peer: copy.get('ffmpeg concat copy')!.time,
    target: 1,
  });

  progress('MP3 join with and without chapters');
  const chapters = await alternate(
    [
      ours('with chapters', c.hourMp3, out('ours-ch.mp3')),
      ours('without', c.hourMp3, out('ours-noch.mp3'), ['--no-chapters']),
    ],
    rounds,
    progress,
  );
  figures.push({
    name: 'lossless 1-hour MP3 join, chapters on',
    ours: chapters.get('with chapters')!.time,
    peerName: 'the same join, --no-chapters',
    peer: chapters.get('without')!.time,
    target: 1.05,
  });
  return figures;
}
