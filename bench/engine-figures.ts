// Figures for the engine's command line, each set against what a person would use instead.
import { rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { resolveToolPaths } from '../src/engine/ffmpeg/tools.js';
import type { Corpus } from './corpus.js';
import { alternate, type Command } from './measure.js';
import type { Figure } from './report.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const tools = resolveToolPaths();

export function ours(label: string, inputs: string[], out: string, extra: string[] = []): Command {
  return {
    label,
    cmd: process.execPath,
    args: [
      '--require',
      path.join(root, 'bench', 'maxrss.cjs'),
      path.join(root, 'bin', 'audio-merge.cjs'),
      '--quiet',
      ...extra,
      '-o',
      out,
      ...inputs,
    ],
    before: () => rmSync(out, { force: true }),
  };
}

export function ffmpegConcatCopy(label: string, inputs: string[], out: string): Command {
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
      '-c',
      'copy',
      out,
    ],
  };
}

function cat(label: string, inputs: string[], out: string): Command {
  return { label, cmd: 'cat', args: inputs, stdoutFile: out };
}

function ffmpegReencode(label: string, inputs: string[], out: string): Command {
  const chains = inputs.map((_, i) => `[${i}:a]aresample=44100[a${i}]`).join(';');
  const labels = inputs.map((_, i) => `[a${i}]`).join('');
  return {
    label,
    cmd: tools.ffmpeg,
    args: [
      '-hide_banner',
      '-loglevel',
      'error',
      '-y',
      ...inputs.flatMap((f) => ['-i', f]),
      '-filter_complex',
      `${chains};${labels}concat=n=${inputs.length}:v=0:a=1[out]`,
      '-map',
      '[out]',
      '-c:a',
      'libmp3lame',
      '-b:a',
      '128k',
      out,
    ],
  };
}

export async function engineFigures(
  c: Corpus,
  work: string,
  rounds: number,
  progress: (m: string) => void,
): Promise<Figure[]> {
  const out = (n: string) => path.join(work, n);
  const figures: Figure[] = [];

  progress('1-hour lossless join');
  const hour = await alternate(
    [
      ours('audio-merge', c.hourMp3, out('ours-hour.mp3')),
      ffmpegConcatCopy('ffmpeg concat copy', c.hourMp3, out('ffmpeg-hour.mp3')),
      cat('cat', c.hourMp3, out('cat-hour.mp3')),
    ],
    rounds,
    progress,
  );
  const h = hour.get('audio-merge')!;
  figures.push(
    {
      name: 'lossless join, 1 hour in 12 MP3s',
      ours: h.time,
      peerName: 'ffmpeg -f concat -c copy',
      peer: hour.get('ffmpeg concat copy')!.time,
      target: 0.5,
    },
    {
      name: 'the same join',
      ours: h.time,
      peerName: 'cat (the floor)',
      peer: hour.get('cat')!.time,
      target: 3,
    },
  );

  progress('120 short clips');
  const clips = await alternate(
    [
      ours('audio-merge', c.clips, out('ours-clips.mp3')),
      ffmpegConcatCopy('ffmpeg concat copy', c.clips, out('ffmpeg-clips.mp3')),
    ],
    rounds,
    progress,
  );
  figures.push({
    name: '120 two-second clips, lossless',
    ours: clips.get('audio-merge')!.time,
    peerName: 'ffmpeg -f concat -c copy',
    peer: clips.get('ffmpeg concat copy')!.time,
    target: 1,
  });

  figures.push(...(await transcodeFigures(c.flac, work, rounds, progress)));

  progress('peak memory, 3-hour join');
  const mem = await alternate(
    [ours('3 hours', c.threeHours, out('ours-3h.mp3')), ours('1 hour', c.hourMp3, out('ours-1h.mp3'))],
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
}

/** 12 minutes of mixed-rate FLAC to MP3, against one ffmpeg concat-filter encode. */
export async function transcodeFigures(
  flacs: string[],
  work: string,
  rounds: number,
  progress: (m: string) => void,
): Promise<Figure[]> {
  const out = (n: string) => path.join(work, n);
  progress('mixed-rate FLAC to MP3');
  const flac = await alternate(
    [
      ours('audio-merge', flacs, out('ours-flac.mp3')),
      ffmpegReencode('ffmpeg concat filter', flacs, out('ffmpeg-flac.mp3')),
    ],
    Math.max(3, Math.ceil(rounds / 2)),
    progress,
  );
  return [
    {
      name: '12 min FLAC (44.1/48 kHz) to MP3',
      ours: flac.get('audio-merge')!.time,
      peerName: 'ffmpeg concat filter, aresample, libmp3lame 128k',
      peer: flac.get('ffmpeg concat filter')!.time,
      target: 0.6,
    },
  ];
}
