// What the server figures ask of a running server, the widget's way: uploads, merges, load on the
// list, and the server's RSS sampled while it works.
import { openAsBlob, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import autocannon from 'autocannon';
import { runOnce, stats } from './measure.js';
import type { Figure } from './report.js';
import { headers, type BrowserSession, type RunningServer } from './server-process.js';

export interface Item {
  id: string;
}

type Load = Awaited<ReturnType<typeof autocannon>>;

/** `files` uploaded in forms of 20 files; the stored items, in order. */
export async function uploadMany(base: string, s: BrowserSession, files: string[]): Promise<Item[]> {
  const items: Item[] = [];
  for (let i = 0; i < files.length; i += 20) {
    const form = new FormData();
    form.append('appid', s.appid);
    for (const f of files.slice(i, i + 20)) form.append('files', await openAsBlob(f), path.basename(f));
    const res = await fetch(`${base}/app/merge/upload`, {
      method: 'POST',
      headers: headers(s, false),
      body: form,
    });
    if (!res.ok) throw new Error(`upload answered ${res.status}: ${await res.text()}`);
    items.push(...((await res.json()) as { items: Item[] }).items);
  }
  return items;
}

/** The headers that create a tus upload of `file` for session `s`. */
export function tusCreation(s: BrowserSession, file: string): Record<string, string> {
  const b64 = (v: string) => Buffer.from(v).toString('base64');
  return {
    'upload-length': String(statSync(file).size),
    'upload-metadata': `filename ${b64(path.basename(file))},appid ${b64(s.appid)}`,
  };
}

/** One mergemp3 of `items`: milliseconds from the request to its answer. */
export async function mergeRoundTrip(base: string, s: BrowserSession, items: Item[]): Promise<number> {
  const t = process.hrtime.bigint();
  const res = await fetch(`${base}/app/merge/mergemp3`, {
    method: 'POST',
    headers: headers(s),
    body: JSON.stringify({ items }),
  });
  if ((await res.json()) !== 'success') throw new Error(`mergemp3 answered ${res.status}`);
  return Number(process.hrtime.bigint() - t) / 1e6;
}

/** Session `s`'s getDataJson loaded by 50 connections: 2 s untimed (the JIT's), then 10 s measured. */
export async function loadList(base: string, s: BrowserSession): Promise<Load> {
  const options = {
    url: `${base}/app/merge/getDataJson`,
    method: 'POST',
    connections: 50,
    headers: headers(s),
    body: JSON.stringify({ appid: s.appid }),
  };
  await autocannon({ ...options, duration: 2 });
  const load = await autocannon({ ...options, duration: 10 });
  if (load.non2xx > 0) throw new Error(`getDataJson answered ${load.non2xx} non-2xx`);
  return load;
}

/** A list load's throughput and p99 latency figures, named `name: …`; beside a peer's when given. */
export function loadFigures(name: string, load: Load, peer?: { name: string; load: Load }): Figure[] {
  const rps = stats([load.requests.average]);
  const p99 = stats([load.latency.p99]);
  const beside = (of: (l: Load) => number) =>
    peer ? { peerName: peer.name, peer: stats([of(peer.load)]) } : { peerName: '' };
  return [
    {
      name: `${name}: throughput`,
      ours: rps,
      ...beside((l) => l.requests.average),
      unit: 'req/s',
      extraTarget: { label: 'at least 3,000 req/s', ok: rps.median >= 3000 },
    },
    {
      name: `${name}: p99 latency`,
      ours: p99,
      ...beside((l) => l.latency.p99),
      unit: 'ms',
      extraTarget: { label: 'p99 at most 25 ms', ok: p99.median <= 25 },
    },
  ];
}

/** `work` done while the server's RSS is read every 20 ms: what it gave, the RSS before, the peak. */
export async function withPeakRss<T>(
  server: RunningServer,
  work: () => Promise<T>,
): Promise<{ value: T; before: number; peak: number }> {
  const before = server.rss();
  let peak = before;
  const timer = setInterval(() => (peak = Math.max(peak, server.rss())), 20);
  try {
    return { value: await work(), before, peak };
  } finally {
    clearInterval(timer);
  }
}

export interface BigUpload {
  server: RunningServer;
  /** The file, about 1 GB. */
  file: string;
  /** Where curl writes its copy. */
  copy: string;
  rounds: number;
  /** The progress line's words, before the round. */
  step: string;
  /** One upload of `file` to `server`, seconds. */
  upload: () => Promise<number>;
}

/**
 * The big upload against curl writing the same bytes to a file, alternately (at least 3 rounds),
 * with the server's RSS growth during each upload: the figure named `name`.
 */
export async function bigUploadFigure(
  b: BigUpload,
  progress: (m: string) => void,
  figure: Pick<Figure, 'name' | 'target'>,
): Promise<Figure> {
  const growth: number[] = [];
  const ours: number[] = [];
  const curl: number[] = [];
  for (let r = 0; r < Math.max(3, Math.ceil(b.rounds / 2)); r++) {
    progress(`${b.step} (${r + 1})`);
    const { value, before, peak } = await withPeakRss(b.server, b.upload);
    ours.push(value);
    growth.push(Math.max(0, peak - before));
    const copied = await runOnce({
      label: 'curl',
      cmd: 'curl',
      args: ['-s', '-o', b.copy, pathToFileURL(b.file).href],
    });
    curl.push(copied.seconds);
    rmSync(b.copy, { force: true });
  }
  const grown = stats(growth);
  return {
    ...figure,
    ours: stats(ours),
    peerName: 'curl writing the same bytes to a file',
    peer: stats(curl),
    extraTarget: { label: 'server RSS grows by at most 64 MB', ok: grown.max <= 64 * 1024 * 1024 },
    note: `RSS growth ${(grown.median / 2 ** 20).toFixed(1)} MB median, ${(grown.max / 2 ** 20).toFixed(1)} MB max`,
  };
}
