// The waveform's decode, run on a worker thread: ffmpeg is spawned from there and every sample is
// folded there, so the per-sample work (seconds of CPU for hours of many-channel audio) never
// holds the event loop of the process that asked. Only the finished table (a few KB) comes back.
// The worker's source is text (a worker cannot load this project's TypeScript under the test
// runner, nor from the command line's bundle): a few lines of glue around the fold's own source.
import { Worker } from 'node:worker_threads';
import { FIRST_BIN, MIN_BINS, peakFolder, type FoldedPeaks } from '../../shared/peaks.js';
import { AbortError, ToolError } from '../errors.js';
import { cannotRun, lowerPriority, STDERR_TAIL } from '../ffmpeg/runner.js';
import { unwatchTool, watchTool } from '../ffmpeg/watchdog.js';

const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const { spawn } = require('node:child_process');
// A compiler that keeps function names (esbuild's keepNames, as tsx runs) wraps them in __name().
const __name = (f) => f;
const makeFolder = (${peakFolder.toString()});
const folder = makeFolder(workerData.channels, workerData.firstBin, workerData.capacity);
const child = spawn(workerData.bin, workerData.args, { stdio: ['ignore', 'pipe', 'pipe'], windowsHide: true });
let tail = '';
let done = false;
const end = (message) => {
  if (done) return;
  done = true;
  parentPort.postMessage(message);
  parentPort.close();
};
if (child.pid !== undefined) parentPort.postMessage({ pid: child.pid });
parentPort.on('message', () => child.kill('SIGKILL'));
let bytes = 0;
let told = 0;
child.stdout.on('data', (chunk) => {
  folder.push(chunk);
  bytes += chunk.length;
  if (workerData.tellEvery > 0 && bytes - told >= workerData.tellEvery) {
    told = bytes;
    parentPort.postMessage({ bytes });
  }
});
child.stderr.setEncoding('utf8');
child.stderr.on('data', (text) => { tail = (tail + text).slice(-${STDERR_TAIL}); });
child.on('error', (err) => {
  if (child.pid === undefined) end({ spawnError: { code: err.code, message: err.message } });
});
child.on('close', (code, signal) => end({ code, signal, stderrTail: tail, folded: folder.finish() }));
`;

export interface FoldRequest {
  bin: string;
  args: string[];
  channels: number;
  /** Samples per bin and bins kept before neighbours merge (the waveform's by default). */
  firstBin?: number;
  capacity?: number;
  /** Told the bytes decoded so far, about every 8 MB (a long decode's progress). */
  onBytes?: (bytes: number) => void;
  signal?: AbortSignal;
  /** The ffmpeg child's pid as soon as it exists (tests check nothing is left). */
  onSpawn?: (pid: number) => void;
}

export interface FoldResult {
  code: number | null;
  stderrTail: string;
  folded: FoldedPeaks;
}

function killQuietly(pid: number): void {
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    // Gone already.
  }
}

/** Bytes of samples between two progress messages: a few a second, none for a short file. */
const TELL_EVERY = 8 << 20;

/** What the worker says: its ffmpeg's pid, how far it is, and how it ended. */
type WorkerMessage = Progress | Answer;
type Progress = { bytes: number };
type Answer =
  | { pid: number }
  | { spawnError: { code?: string; message: string } }
  | (FoldResult & { signal: NodeJS.Signals | null });

/** Run `args` (writing 16-bit samples to pipe:1) and fold them into peak bins, all on a worker. */
export function foldOnWorker(req: FoldRequest): Promise<FoldResult> {
  return new Promise<FoldResult>((resolve, reject) => {
    if (req.signal?.aborted) {
      reject(new AbortError());
      return;
    }
    const worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: {
        bin: req.bin,
        args: req.args,
        channels: req.channels,
        firstBin: req.firstBin ?? FIRST_BIN,
        capacity: req.capacity ?? 2 * MIN_BINS,
        tellEvery: req.onBytes ? TELL_EVERY : 0,
      },
    });
    let pid: number | undefined;
    let aborted = false;
    let failure: Error | undefined;
    let answer: Answer | undefined;
    // The worker kills its ffmpeg; ending the worker alone would leave that child to run on.
    const onAbort = () => {
      aborted = true;
      worker.postMessage('stop');
    };
    req.signal?.addEventListener('abort', onAbort, { once: true });
    worker.on('message', (m: WorkerMessage) => {
      if ('bytes' in m) req.onBytes?.(m.bytes);
      else if ('pid' in m) {
        pid = m.pid;
        // The watchdog kills it should this process die before the worker could.
        watchTool(pid);
        lowerPriority(pid);
        req.onSpawn?.(pid);
      } else answer = m;
    });
    worker.on('error', (err) => {
      failure = err;
      // A worker that failed cannot end its ffmpeg any more.
      if (pid !== undefined) killQuietly(pid);
    });
    worker.on('exit', () => {
      req.signal?.removeEventListener('abort', onAbort);
      if (pid !== undefined) unwatchTool(pid);
      if (aborted) reject(new AbortError());
      else if (failure) reject(failure);
      else if (!answer || 'pid' in answer)
        reject(new ToolError(`the waveform's decode of ${req.bin} ended without a result`));
      else if ('spawnError' in answer) reject(cannotRun(req.bin, answer.spawnError));
      else resolve({ code: answer.code, stderrTail: answer.stderrTail, folded: answer.folded });
    });
  });
}
