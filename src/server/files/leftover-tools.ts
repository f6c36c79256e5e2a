// At start-up, before scratch is cleared: a tool still running from a process that is gone (a
// machine where its watchdog could not run, a kill between a tool's start and its watch) would
// keep writing into files about to be deleted. Any ffmpeg or ffprobe of this user whose
// arguments name this scratch folder belongs to no one now, and is killed. Linux (/proc) only.
import { readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';

const TOOL = /^(ffmpeg|ffprobe)/;

/** The pids killed. */
export async function killLeftoverTools(scratchDir: string): Promise<number[]> {
  const entries = await readdir('/proc').catch(() => [] as string[]);
  const inside = path.resolve(scratchDir) + path.sep;
  const uid = process.getuid?.();
  const killed: number[] = [];
  for (const entry of entries) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    try {
      const [comm, cmdline, owner] = await Promise.all([
        readFile(`/proc/${entry}/comm`, 'utf8'),
        readFile(`/proc/${entry}/cmdline`, 'utf8'),
        stat(`/proc/${entry}`),
      ]);
      if (!TOOL.test(comm.trim()) || (uid !== undefined && owner.uid !== uid)) continue;
      if (!cmdline.split('\0').some((arg) => arg.replace(/^file:/, '').startsWith(inside))) continue;
      process.kill(Number(entry), 'SIGKILL');
      killed.push(Number(entry));
    } catch {
      // Gone while we looked, or not ours to read.
    }
  }
  return killed;
}
