// One ffmpeg started before its input exists, fed on stdin and read from stdout. Starting ffmpeg
// costs more than the few frames a cut needs decoded or encoded, so a route starts the process
// first and does its own work (indexing frames, planning) while ffmpeg loads.
import { PassThrough } from 'node:stream';
import { lastLine, spawnRunner, type Runner, QUIET } from './runner.js';
import type { Tools } from '../types.js';

export interface PipeRunOptions {
  tools: Pick<Tools, 'ffmpeg'>;
  runner?: Runner;
  signal?: AbortSignal;
  /** Everything after `-hide_banner -nostdin -v error`: reads pipe:0, writes pipe:1. */
  args: string[];
  /** A text ffmpeg reads from pipe:3 (a filter script), given later with `script`. */
  script?: boolean;
  /** Collect what ffmpeg writes to pipe:4 too (given by `finish` as `side`). */
  side?: boolean;
}

export class PipeRunFailed extends Error {}

export interface PipeRun {
  write(bytes: Uint8Array): void;
  /** The whole text for pipe:3 (a run started with `script`). */
  script(text: string): void;
  /** Close stdin; the whole of stdout once ffmpeg has ended well. */
  finish(): Promise<Buffer>;
  /** What it wrote to pipe:4, once finished (a run started with `side`). */
  side(): Buffer;
  /** Give up: the process is ended and its result ignored. */
  cancel(): void;
}

export function startPipeRun(opts: PipeRunOptions): PipeRun {
  const input = new PassThrough();
  const script = new PassThrough();
  const chunks: Buffer[] = [];
  const side: Buffer[] = [];
  const pipes: Array<NodeJS.ReadableStream | ((chunk: Buffer) => void)> = [];
  if (opts.script || opts.side) pipes.push(script);
  if (opts.side) pipes.push((chunk) => side.push(chunk));
  const stop = new AbortController();
  const signal = opts.signal ? AbortSignal.any([opts.signal, stop.signal]) : stop.signal;
  const run = (opts.runner ?? spawnRunner)({
    bin: opts.tools.ffmpeg,
    args: [...QUIET, ...opts.args],
    signal,
    stdin: input,
    onStdoutBytes: (chunk) => chunks.push(chunk),
    pipes,
  });
  // Awaited in finish; until then a failure must not count as unhandled.
  run.catch(() => {});
  return {
    write: (bytes) => void input.write(bytes),
    script: (text) => void script.end(text),
    side: () => Buffer.concat(side),
    async finish() {
      input.end();
      const r = await run;
      if (r.code !== 0) throw new PipeRunFailed(lastLine(r.stderrTail));
      return Buffer.concat(chunks);
    },
    cancel() {
      input.destroy();
      script.destroy();
      stop.abort();
    },
  };
}
