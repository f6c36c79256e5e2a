// Timing whole processes, alternating contenders (A B A B ...), reporting median, min and max.
import { spawn } from 'node:child_process';
import { openSync, closeSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export interface Command {
  label: string;
  cmd: string;
  args: string[];
  /** Send stdout to this file (for `cat`). */
  stdoutFile?: string;
  env?: NodeJS.ProcessEnv;
  /** Run before every timed run, untimed (e.g. delete the previous output). */
  before?: () => void;
}

export interface Stats {
  median: number;
  min: number;
  max: number;
  samples: number[];
}

export function stats(samples: number[]): Stats {
  const s = [...samples].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  const median = s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
  return { median, min: s[0], max: s[s.length - 1], samples };
}

export interface RunResult {
  seconds: number;
  /** Peak RSS in bytes, for Node processes started with bench/maxrss.cjs preloaded. */
  maxRss?: number;
}

/**
 * The environment of measured processes. NODE_EXTRA_CA_CERTS is left out: where it is set (as on
 * the machines here) every Node start reads and parses a CA bundle, about 50 ms that belong to the
 * site's TLS set-up, not to the product, and that no contender other than Node pays.
 */
export function measuredEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env = { ...process.env, ...extra };
  delete env.NODE_EXTRA_CA_CERTS;
  return env;
}

/** Run one command to completion; reject on a non-zero exit. */
export function runOnce(c: Command): Promise<RunResult> {
  c.before?.();
  const rssFile = path.join(
    os.tmpdir(),
    `audio-merge-bench-rss-${process.pid}-${Math.random().toString(36).slice(2)}`,
  );
  const out = c.stdoutFile ? openSync(c.stdoutFile, 'w') : 'ignore';
  const start = process.hrtime.bigint();
  return new Promise((resolve, reject) => {
    const child = spawn(c.cmd, c.args, {
      stdio: ['ignore', out, 'pipe'],
      env: measuredEnv({ ...c.env, AUDIO_MERGE_BENCH_RSS_FILE: rssFile }),
    });
    let stderr = '';
    child.stderr!.on('data', (d: Buffer) => (stderr = (stderr + d.toString()).slice(-4000)));
    child.on('error', reject);
    child.on('close', (code) => {
      const seconds = Number(process.hrtime.bigint() - start) / 1e9;
      if (typeof out === 'number') closeSync(out);
      let maxRss: number | undefined;
      try {
        maxRss = Number(readFileSync(rssFile, 'utf8'));
        rmSync(rssFile);
      } catch {
        // not a Node process with the hook
      }
      if (code !== 0) reject(new Error(`${c.label}: exit ${code}\n${stderr}`));
      else resolve({ seconds, maxRss });
    });
  });
}

/**
 * Alternate the contenders `rounds` times after one untimed warm-up each (none with warmUp false,
 * for encodes of an hour whose inputs other figures have already read); per-contender stats.
 */
export async function alternate(
  commands: Command[],
  rounds: number,
  progress: (msg: string) => void,
  warmUp = true,
): Promise<Map<string, { time: Stats; rss?: Stats }>> {
  if (warmUp) for (const c of commands) await runOnce(c); // warm the page cache and the binaries
  const times = new Map<string, number[]>(commands.map((c) => [c.label, []]));
  const rss = new Map<string, number[]>(commands.map((c) => [c.label, []]));
  for (let r = 0; r < rounds; r++) {
    for (const c of commands) {
      progress(`${c.label} (${r + 1}/${rounds})`);
      const res = await runOnce(c);
      times.get(c.label)!.push(res.seconds);
      if (res.maxRss !== undefined) rss.get(c.label)!.push(res.maxRss);
    }
  }
  const result = new Map<string, { time: Stats; rss?: Stats }>();
  for (const c of commands) {
    const r = rss.get(c.label)!;
    result.set(c.label, { time: stats(times.get(c.label)!), rss: r.length ? stats(r) : undefined });
  }
  return result;
}
