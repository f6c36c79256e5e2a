// Spawns ffmpeg/ffprobe directly (no shell, arguments as an array) so every byte of a file name
// reaches the tool unchanged, and so the engine owns the child: it dies on abort and with us.
import type { ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { AbortError, ToolError } from '../errors.js';
import { unwatchTool, watchTool } from './watchdog.js';

// Loaded on first use: a join of matching MP3s never spawns, and loading the module costs ~8 ms
// of the command line's start-up (docs/decisions/0006-command-line-commonjs-bundle.md).
const require = createRequire(import.meta.url);
let loaded: typeof import('node:child_process') | undefined;
const childProcess = () => (loaded ??= require('node:child_process') as typeof import('node:child_process'));

export interface FfmpegProgress {
  /** Seconds of output written so far (from out_time_us / out_time_ms). */
  outTimeSeconds: number;
  /** True on the last block (progress=end). */
  end: boolean;
}

export interface RunRequest {
  bin: string;
  args: string[];
  signal?: AbortSignal;
  /** When set, stdout is read as `-progress pipe:1` key=value blocks instead of being collected. */
  onProgress?: (p: FfmpegProgress) => void;
  /** When set, stdout's bytes are handed over as they come (raw audio) instead of being collected. */
  onStdoutBytes?: (chunk: Buffer) => void;
  /** Called with the child's pid as soon as it exists (tests use it to check nothing is left). */
  onSpawn?: (pid: number) => void;
  /** Every chunk of stderr as it comes (analysis filters log there; only the tail is kept otherwise). */
  onStderr?: (chunk: string) => void;
  /** The child's working folder (where relative names in its arguments are found). */
  cwd?: string;
  /** Bytes for the child's stdin (an input named pipe:0); stdin is closed when absent. */
  stdin?: NodeJS.ReadableStream;
  /**
   * More pipes, from fd 3 on (pipe:3, pipe:4 ...): a stream is the child's to read, a function
   * gets what the child writes there.
   */
  pipes?: ReadonlyArray<NodeJS.ReadableStream | ((chunk: Buffer) => void)>;
}

export interface RunResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  /** The last few kilobytes of stderr, for error messages. */
  stderrTail: string;
}

/** Runs one tool to completion. Rejects only for AbortError or a tool that cannot start. */
export type Runner = (req: RunRequest) => Promise<RunResult>;

/** The head of every ffmpeg run: no banner, never reading the console, errors only. */
export const QUIET: readonly string[] = ['-hide_banner', '-nostdin', '-v', 'error'];

/** QUIET for a run that writes files: each output is a name of its own, claimed before the run. */
export const QUIET_WRITE: readonly string[] = [...QUIET, '-y'];

/** How much of a tool's stderr is kept for its failure's words. */
export const STDERR_TAIL = 4096;
/** The niceness tools run at: 0 (as this process) unless a server lowers it (toolNiceness). */
let niceness = 0;

/**
 * Run every tool from now on at this niceness (0 to 19): a server's encodes then give way to
 * its own event loop, so pages and lists stay quick while merges use the rest of the CPU.
 */
export function toolNiceness(value: number): void {
  niceness = Math.max(0, Math.min(19, Math.round(value)));
}
const live = new Set<ChildProcess>();
let exitHookInstalled = false;

// A merge's children must not outlive the process that started them, whatever way it ends.
function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.on('exit', () => {
    for (const child of live) child.kill('SIGKILL');
  });
}

/** Lower a tool's priority to the niceness set for tools (nothing at 0). */
export function lowerPriority(pid: number): void {
  if (niceness === 0) return;
  try {
    os.setPriority(pid, niceness);
  } catch {
    // Gone already, or not allowed here: it runs at the usual priority.
  }
}

/** Feeds `-progress` output in chunks and calls back once per complete block. */
export class ProgressParser {
  private buffer = '';
  private outTime = 0;

  constructor(private readonly onBlock: (p: FfmpegProgress) => void) {}

  push(chunk: string): void {
    this.buffer += chunk;
    let nl: number;
    while ((nl = this.buffer.indexOf('\n')) >= 0) {
      const line = this.buffer.slice(0, nl).trim();
      this.buffer = this.buffer.slice(nl + 1);
      const eq = line.indexOf('=');
      if (eq < 0) continue;
      const key = line.slice(0, eq);
      const value = line.slice(eq + 1);
      // Both out_time_us and out_time_ms are microseconds in ffmpeg (the _ms name is historical).
      if (key === 'out_time_us' || key === 'out_time_ms') {
        const us = Number(value);
        if (Number.isFinite(us) && us >= 0) this.outTime = us / 1e6;
      } else if (key === 'progress') {
        this.onBlock({ outTimeSeconds: this.outTime, end: value === 'end' });
      }
    }
  }
}

export const spawnRunner: Runner = (req) =>
  new Promise<RunResult>((resolve, reject) => {
    if (req.signal?.aborted) {
      reject(new AbortError());
      return;
    }
    installExitHook();
    const child = childProcess().spawn(req.bin, req.args, {
      shell: false,
      stdio: [req.stdin ? 'pipe' : 'ignore', 'pipe', 'pipe', ...(req.pipes ?? []).map(() => 'pipe' as const)],
      windowsHide: true,
      cwd: req.cwd,
    });
    live.add(child);
    if (req.stdin && child.stdin) {
      // A child that stops reading (it failed, or was killed) says why on stderr and by its exit code.
      child.stdin.on('error', () => {});
      req.stdin.pipe(child.stdin);
    }
    req.pipes?.forEach((pipe, k) => {
      const end = child.stdio[3 + k] as NodeJS.ReadWriteStream | null;
      if (!end) return;
      end.on('error', () => {});
      if (typeof pipe === 'function') end.on('data', pipe);
      else pipe.pipe(end);
    });
    const pid = child.pid;
    if (pid !== undefined) {
      watchTool(pid);
      lowerPriority(pid);
      req.onSpawn?.(pid);
    }

    let stdout = '';
    let stderrTail = '';
    let aborted = false;
    let spawnError: Error | undefined;
    const parser = req.onProgress ? new ProgressParser(req.onProgress) : undefined;

    const bytes = req.onStdoutBytes;
    if (bytes) child.stdout!.on('data', (chunk: Buffer) => bytes(chunk));
    else {
      child.stdout!.setEncoding('utf8');
      child.stdout!.on('data', (chunk: string) => {
        if (parser) parser.push(chunk);
        else stdout += chunk;
      });
    }
    child.stderr!.setEncoding('utf8');
    child.stderr!.on('data', (chunk: string) => {
      req.onStderr?.(chunk);
      stderrTail = (stderrTail + chunk).slice(-STDERR_TAIL);
    });

    const onAbort = () => {
      aborted = true;
      child.kill('SIGKILL');
    };
    req.signal?.addEventListener('abort', onAbort, { once: true });

    let settled = false;
    const settle = (code: number | null, signal: NodeJS.Signals | null) => {
      if (settled) return;
      settled = true;
      live.delete(child);
      if (pid !== undefined) unwatchTool(pid);
      req.signal?.removeEventListener('abort', onAbort);
      if (aborted) reject(new AbortError());
      else if (spawnError) reject(cannotRun(req.bin, spawnError as NodeJS.ErrnoException));
      else resolve({ code, signal, stdout, stderrTail });
    };
    child.on('error', (err) => {
      spawnError = err;
      // A child that never started has no 'close' to wait for.
      if (child.pid === undefined) settle(null, null);
    });
    // 'close' comes after the child is reaped, so its pid is gone when we settle.
    child.on('close', settle);
  });

/** A tool that could not be started, and what to do. */
export function cannotRun(bin: string, err: { code?: string; message: string }): ToolError {
  const why = err.code === 'ENOENT' ? 'no such file' : err.code === 'EACCES' ? 'not executable' : err.message;
  return new ToolError(`cannot run ${bin} (${why}); set FFMPEG_PATH and FFPROBE_PATH to working binaries`);
}

/** The last meaningful line of a tool's stderr, for a one-line error message. */
export function lastLine(stderrTail: string): string {
  const lines = stderrTail
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter(Boolean);
  return lines.at(-1) ?? 'no error output';
}

/**
 * What a tool's failing line says of the machine rather than the input: a full disk (or spent
 * quota) or a read-only one. ffmpeg says so only in words, so its words are read here, once.
 */
export function machineFault(line: string): 'disk-full' | 'output-unwritable' | undefined {
  if (/No space left|Disk quota/i.test(line)) return 'disk-full';
  if (/Read-only file system/i.test(line)) return 'output-unwritable';
  return undefined;
}

/** ffmpeg reads `a:b` as a protocol and `-x` as an option; `file:` plus an absolute path keeps names names. */
export function fileArg(file: string): string {
  return `file:${path.resolve(file)}`;
}
