// The commands the figures time: the product's command line, and the ffmpeg runs a person would
// use instead. Every figure file builds its contenders from these, so a peer is the same command
// wherever it is set against the product.
import { execFile } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { resolveToolPaths } from '../src/engine/ffmpeg/tools.js';
import type { Command } from './measure.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const tools = resolveToolPaths();
const exec = promisify(execFile);

/** ffmpeg's opening words for a run that says only what failed and overwrites its output. */
const QUIET = ['-hide_banner', '-loglevel', 'error', '-y'];

/** The untimed step before every run that removes the previous output. */
const removing = (out: string) => () => rmSync(out, { force: true });

/** The product's command line joining `inputs` into `out` with `options`; with `rss`, under bench/maxrss.cjs. */
function cli(label: string, inputs: string[], out: string, options: string[], rss: boolean): Command {
  return {
    label,
    cmd: process.execPath,
    args: [
      ...(rss ? ['--require', path.join(root, 'bench', 'maxrss.cjs')] : []),
      path.join(root, 'bin', 'audio-merge.cjs'),
      '--quiet',
      '-o',
      out,
      ...options,
      ...inputs,
    ],
    before: removing(out),
  };
}

export const ours = (label: string, inputs: string[], out: string, options: string[] = []) =>
  cli(label, inputs, out, options, false);

/** The product's command line reporting its peak RSS, as the engine's and the formats' figures run it. */
export const oursRss = (label: string, inputs: string[], out: string, options: string[] = []) =>
  cli(label, inputs, out, options, true);

/** ffmpeg with `args`, quiet, writing `out`; with `fresh`, the previous output removed before each run. */
export function ffmpegCommand(label: string, args: string[], out: string, fresh = false): Command {
  return {
    label,
    cmd: tools.ffmpeg,
    args: [...QUIET, ...args, out],
    ...(fresh ? { before: removing(out) } : {}),
  };
}

/** One ffmpeg reading `inputs` through the concat demuxer (a list beside `out`), then `codec`. */
export function ffmpegConcat(label: string, inputs: string[], out: string, codec: string[]): Command {
  const list = `${out}.txt`;
  writeFileSync(list, inputs.map((p) => `file '${p.replace(/'/g, "'\\''")}'`).join('\n'));
  return ffmpegCommand(label, ['-f', 'concat', '-safe', '0', '-i', list, ...codec], out);
}

export const ffmpegConcatCopy = (label: string, inputs: string[], out: string): Command =>
  ffmpegConcat(label, inputs, out, ['-c', 'copy']);

/**
 * The product's lossless join of `inputs` (`audio-merge`, its peak RSS reported) and ffmpeg's
 * concat demuxer copying them (`ffmpeg concat copy`), into `out('ours-' + file)` and
 * `out('ffmpeg-' + file)`.
 */
export const againstConcatCopy = (inputs: string[], out: (n: string) => string, file: string): Command[] => [
  oursRss('audio-merge', inputs, out(`ours-${file}`)),
  ffmpegConcatCopy('ffmpeg concat copy', inputs, out(`ffmpeg-${file}`)),
];

/** A figure's sides when its contenders are `againstConcatCopy`'s. */
export const CONCAT_COPY = {
  ours: 'audio-merge',
  peerName: 'ffmpeg -f concat -c copy',
  peer: 'ffmpeg concat copy',
};

/** ffmpeg's two-pass loudnorm to -16 LUFS of each input, then a copied join (loudnorm-two-pass.mjs). */
export function twoPassLoudnorm(label: string, inputs: string[], out: string): Command {
  return {
    label,
    cmd: process.execPath,
    args: [path.join(root, 'bench', 'loudnorm-two-pass.mjs'), tools.ffmpeg, '-16', out, ...inputs],
    before: removing(out),
  };
}

/** Run ffmpeg quietly, untimed: for making a figure's inputs. */
export const ffmpeg = (args: string[]) =>
  exec(tools.ffmpeg, [...QUIET, ...args], { maxBuffer: 16 * 1024 * 1024 });
