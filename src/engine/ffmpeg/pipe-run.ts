// One ffmpeg started before its input exists, fed on stdin and read from stdout. Starting ffmpeg
// costs more than the few frames a cut needs decoded or encoded, so a route starts the process
// first and does its own work (indexing frames, planning) while ffmpeg loads.
import { PassThrough } from 'node:stream';
import { lastLine, spawnRunner, type Runner } from './runner.js';
import type { Tools } from '../types.js';

export interface PipeRunOptions {
  tools: Pick<Tools, 'ffmpeg'>;
  runner?: Runner;
  signal?: AbortSignal;
  /** Everything after `-hide_banner -nostdin -v error`: reads pipe:0, writes pipe:1. */
  args: string[];
}

export class PipeRunFailed extends Error {}

export interface PipeRun {
  write(bytes: Uint8Array): void;
  /** Close stdin; the whole of stdout once ffmpeg has ended well. */
  finish(): Promise<Buffer>;
  /** Give up: the process is ended and its result ignored. */
  cancel(): void;
}

export function startPipeRun(opts: PipeRunOptions): PipeRun {
  const input = new PassThrough();
  const chunks: Buffer[] = [];
  const stop = new AbortController();
  const signal = opts.signal ? AbortSignal.any([opts.signal, stop.signal]) : stop.signal;
  const run = (opts.runner ?? spawnRunner)({
    bin: opts.tools.ffmpeg,
    args: ['-hide_banner', '-nostdin', '-v', 'error', ...opts.args],
    signal,
    stdin: input,
    onStdoutBytes: (chunk) => chunks.push(chunk),
  });
  // Awaited in finish; until then a failure must not count as unhandled.
  run.catch(() => {});
  return {
    write: (bytes) => void input.write(bytes),
    async finish() {
      input.end();
      const r = await run;
      if (r.code !== 0) throw new PipeRunFailed(lastLine(r.stderrTail));
      return Buffer.concat(chunks);
    },
    cancel() {
      input.destroy();
      stop.abort();
    },
  };
}
