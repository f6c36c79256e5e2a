// Whether a process is still running, for tests that check nothing is left behind.
import { readFileSync } from 'node:fs';

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

/** Wait (bounded) for the kernel to deliver a kill; no test asserts on how long it took. */
export async function waitUntilGone(pid: number, attempts = 100): Promise<boolean> {
  for (let i = 0; i < attempts && isRunning(pid); i++) await new Promise((r) => setTimeout(r, 20));
  return !isRunning(pid);
}
