// Whether a process is still running, for tests that check nothing is left behind.
import { readdirSync, readFileSync } from 'node:fs';
import { until } from './until.js';

/**
 * True while `pid` exists and is not a zombie. An orphan killed after its parent exited stays a
 * zombie when PID 1 does not reap (as in some containers); it runs nothing, so it counts as gone.
 */
export function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return false;
  }
}

/** Wait (bounded) for the kernel to deliver a kill: whether `pid` is gone. No test asserts on how long it took. */
export function waitUntilGone(pid: number, timeoutMs = 2000): Promise<boolean> {
  return until(() => !isRunning(pid), { timeoutMs, intervalMs: 20, what: `process ${pid} ending` }).then(
    () => true,
    () => false,
  );
}

/** Live processes whose parent is `parent` and whose command name contains `name` (Linux /proc). */
export function childrenNamed(name: string, parent = process.pid): number[] {
  const found: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const comm = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      const [state, ppid] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(ppid) === parent && state !== 'Z' && comm.includes(name)) found.push(Number(entry));
    } catch {
      // Gone while we looked.
    }
  }
  return found;
}
