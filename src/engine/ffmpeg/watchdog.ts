// The tools a process starts must not outlive it, even when it is killed with SIGKILL (which runs
// no exit hook). One small shell per process keeps the list of its running tools, told through a
// pipe whose writing end only this process holds: when this process dies, the kernel closes that
// end, the shell reads the end of its input and kills every tool still on its list. It is in a
// session of its own and ignores the terminal's signals, so a Ctrl-C that kills this process
// does not kill it first. POSIX only; elsewhere the exit hook in runner.ts is all there is.
import type { ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';

/** "+pid" adds a tool, "-pid" takes it off; at the end of input, every tool left is killed. */
export const WATCHDOG_SCRIPT = [
  "trap '' INT HUP TERM QUIT PIPE",
  "live=' '",
  'while IFS= read -r line; do',
  '  case $line in',
  '    +*) live="$live${line#+} " ;;',
  `    -*) n=' '; for p in $live; do [ "$p" = "\${line#-}" ] || n="$n$p "; done; live=$n ;;`,
  '  esac',
  'done',
  'for p in $live; do kill -s KILL "$p" 2>/dev/null; done',
].join('\n');

const require = createRequire(import.meta.url);
let watchdog: ChildProcess | undefined;

function start(): ChildProcess | undefined {
  if (process.platform === 'win32') return undefined;
  const { spawn } = require('node:child_process') as typeof import('node:child_process');
  let child: ChildProcess;
  try {
    child = spawn('/bin/sh', ['-c', WATCHDOG_SCRIPT], {
      stdio: ['pipe', 'ignore', 'ignore'],
      detached: true,
    });
  } catch {
    return undefined;
  }
  // It must never keep this process alive, nor end it by an unheard error.
  child.unref();
  (child.stdin as unknown as { unref?: () => void }).unref?.();
  child.on('error', () => forget(child));
  child.on('exit', () => forget(child));
  child.stdin!.on('error', () => forget(child));
  return child;
}

function forget(child: ChildProcess): void {
  if (watchdog === child) watchdog = undefined;
}

function tell(line: string): void {
  watchdog ??= start();
  const stdin = watchdog?.stdin;
  if (stdin && !stdin.destroyed) stdin.write(`${line}\n`);
}

/** A tool has started: it dies with this process. */
export function watchTool(pid: number): void {
  tell(`+${pid}`);
}

/** A tool has ended: its pid may be reused by another process, which must not be killed. */
export function unwatchTool(pid: number): void {
  if (watchdog) tell(`-${pid}`);
}
