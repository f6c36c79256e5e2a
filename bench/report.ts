// The table of ratios, for the terminal and for bench/RESULTS.md.
import { execFileSync } from 'node:child_process';
import os from 'node:os';
import { resolveToolPaths } from '../src/engine/ffmpeg/tools.js';
import type { Stats } from './measure.js';

export interface Figure {
  name: string;
  ours: Stats;
  peerName: string;
  /** Absent for figures with absolute targets only. */
  peer?: Stats;
  /** Ratio ours/peer must be at most this (when a peer is given). */
  target?: number;
  unit?: 's' | 'KB' | 'MB' | 'ms' | 'req/s';
  /** A further pass/fail condition with its own words. */
  extraTarget?: { label: string; ok: boolean };
  note?: string;
}

function fmt(v: number, unit: Figure['unit'] = 's'): string {
  switch (unit) {
    case 'KB':
      return `${(v / 1024).toFixed(1)} KB`;
    case 'MB':
      return `${(v / 1024 / 1024).toFixed(1)} MB`;
    case 'ms':
      return `${v.toFixed(1)} ms`;
    case 'req/s':
      return `${Math.round(v)} req/s`;
    default:
      return `${v.toFixed(3)} s`;
  }
}

const range = (s: Stats, unit: Figure['unit']) =>
  `${fmt(s.median, unit)} (${fmt(s.min, unit)} to ${fmt(s.max, unit)})`;

export function verdict(f: Figure): string {
  const checks: boolean[] = [];
  if (f.peer && f.target !== undefined) checks.push(f.ours.median / f.peer.median <= f.target);
  if (f.extraTarget) checks.push(f.extraTarget.ok);
  if (!checks.length) return 'reported';
  return checks.every(Boolean) ? 'met' : 'MISSED';
}

export function tableRows(figures: Figure[]): string[] {
  const rows = [
    '| figure | audio-merge, median (min to max) | peer | peer, median (min to max) | ratio | target | verdict |',
    '|---|---|---|---|---|---|---|',
  ];
  for (const f of figures) {
    const ratio = f.peer ? (f.ours.median / f.peer.median).toFixed(2) : '';
    const target = [f.target !== undefined && f.peer ? `≤ ${f.target}` : '', f.extraTarget?.label ?? '']
      .filter(Boolean)
      .join('; ');
    rows.push(
      `| ${f.name} | ${range(f.ours, f.unit)} | ${f.peerName} | ${f.peer ? range(f.peer, f.unit) : ''} | ${ratio} | ${target} | ${verdict(f)}${f.note ? ` (${f.note})` : ''} |`,
    );
  }
  return rows;
}

function versionOf(bin: string): string {
  try {
    return /version (\S+)/.exec(execFileSync(bin, ['-version']).toString())?.[1] ?? 'unknown';
  } catch {
    return 'unknown';
  }
}

const SOURCES = { env: 'FFMPEG_PATH/FFPROBE_PATH', path: 'on PATH', npm: 'the npm fallback' } as const;

/**
 * The ffmpeg both sides of every figure use: the one the product would find, handed to every
 * measured process by FFMPEG_PATH/FFPROBE_PATH so the product cannot pick another. Call before
 * any figure runs; returns the report header's line naming it.
 */
export function pinTools(): string {
  const tools = resolveToolPaths();
  process.env.FFMPEG_PATH = tools.ffmpeg;
  process.env.FFPROBE_PATH = tools.ffprobe;
  return `ffmpeg for audio-merge and its peers alike: ${versionOf(tools.ffmpeg)} at ${tools.ffmpeg}, ffprobe at ${tools.ffprobe} (${SOURCES[tools.source]})`;
}

export function machineLine(): string {
  const cpu = os.cpus()[0]?.model ?? 'unknown CPU';
  const caNote = process.env.NODE_EXTRA_CA_CERTS
    ? '; NODE_EXTRA_CA_CERTS unset for measured processes (+~50 ms per Node start here)'
    : '';
  // The load is what shares the cores with the figures (other work on a shared machine).
  const load = os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' ');
  return `${cpu}, ${os.availableParallelism()} cores, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB, ${os.platform()} ${os.release()}, Node ${process.version}, load ${load} at the end${caNote}`;
}
