// What a run leaves beside its output while it works: the `.partial` file and the temporary
// folder. Their names carry the run's pid and start time, so a later run can tell the leftovers
// of a killed run (its process is gone, or its pid now belongs to a newer process) from the files
// of a run that is still working, which are never touched.
import { readFileSync } from 'node:fs';
import { lstat, readdir, rm } from 'node:fs/promises';
import path from 'node:path';

/** This process's start, in ms since the epoch (to the second, as /proc can tell it back). */
const STARTED_AT = Math.floor((Date.now() - process.uptime() * 1000) / 1000) * 1000;

/** `{pid}-{start}`: the part of a leftover's name that says which run made it. */
export const RUN_TAG = `${process.pid}-${STARTED_AT.toString(36)}`;

/** Prefix of a run's temporary folder (mkdtemp adds six random characters). */
export const TEMP_PREFIX = `.audio-merge-${RUN_TAG}-`;

const PARTIAL = /\.(\d+)-([0-9a-z]+)-[0-9a-z]+\.partial$/;
const TEMP = /^\.audio-merge-(\d+)-([0-9a-z]+)-[A-Za-z0-9]{6}$/;

export interface RunOwner {
  pid: number;
  startedAt: number;
}

/** The run a leftover's name belongs to, or undefined for any other name. */
export function ownerOf(name: string): RunOwner | undefined {
  if (!name.startsWith('.')) return undefined;
  const m = TEMP.exec(name) ?? PARTIAL.exec(name);
  if (!m) return undefined;
  const pid = Number(m[1]);
  const startedAt = parseInt(m[2], 36);
  if (!Number.isSafeInteger(pid) || pid <= 0 || !Number.isSafeInteger(startedAt)) return undefined;
  return { pid, startedAt };
}

export interface ProcessInfo {
  /** When it started, ms since the epoch. */
  startedAt: number;
  /** Killed and not yet reaped by its parent: it runs nothing any more. */
  zombie: boolean;
}

/** What Linux's /proc says of a process, or undefined when it cannot be told (another system). */
export function processInfo(pid: number): ProcessInfo | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields from the third on, counted after the command name in parentheses (it may hold spaces).
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = Number(fields[19]);
    const bootLine = /^btime (\d+)$/m.exec(readFileSync('/proc/stat', 'utf8'));
    if (!bootLine || !Number.isFinite(ticks)) return undefined;
    // /proc counts in USER_HZ, which Linux fixes at 100 for every architecture's user space.
    return { startedAt: Number(bootLine[1]) * 1000 + ticks * 10, zombie: fields[0] === 'Z' };
  } catch {
    return undefined;
  }
}

/** Clock differences between two ways of reading a start time stay well within this. */
const START_SLACK_MS = 5000;

/**
 * True when the run is certainly gone: no such process, a killed one not yet reaped, or one that
 * started later and so only reuses the pid. Anything unsure counts as running.
 */
export function runIsGone(
  owner: RunOwner,
  info: (pid: number) => ProcessInfo | undefined = processInfo,
): boolean {
  try {
    process.kill(owner.pid, 0);
  } catch (err) {
    // EPERM: a process of another user holds the pid: it exists.
    return (err as NodeJS.ErrnoException).code === 'ESRCH';
  }
  const now = info(owner.pid);
  return now !== undefined && (now.zombie || now.startedAt > owner.startedAt + START_SLACK_MS);
}

/**
 * Remove the leftovers of killed runs in `dir`; resolves with the names removed. Never throws:
 * a folder that cannot be read or a file that cannot be removed is simply left.
 */
export async function sweepLeftovers(
  dir: string,
  gone: (owner: RunOwner) => boolean = runIsGone,
): Promise<string[]> {
  const names = await readdir(dir).catch(() => [] as string[]);
  const removed: string[] = [];
  for (const name of names) {
    const owner = ownerOf(name);
    if (!owner || (owner.pid === process.pid && owner.startedAt === STARTED_AT) || !gone(owner)) continue;
    const target = path.join(dir, name);
    const info = await lstat(target).catch(() => undefined);
    if (!info) continue;
    // A temporary folder is removed with what is in it; anything else (a link too) only unlinked.
    const ok = await rm(target, { recursive: info.isDirectory() && TEMP.test(name), force: true }).then(
      () => true,
      () => false,
    );
    if (ok) removed.push(name);
  }
  return removed;
}
