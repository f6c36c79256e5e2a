// What one session can make the server do, measured on the built server: its RSS during the
// worst crossfade (two 70 s 8-channel 192 kHz WavPacks, 30 s fade, to WAV), the cost of the
// merge budget check on a 500-item merge, and getDataJson's throughput while 4 merges run.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import autocannon from 'autocannon';
import { ffmpeg } from './contenders.js';
import type { Corpus } from './corpus.js';
import { stats } from './measure.js';
import type { FigureGroup } from './race.js';
import type { Figure } from './report.js';
import { withPeakRss } from './server-calls.js';
import { headers, openSession, withServer, type BrowserSession } from './server-process.js';

const MB = 1024 * 1024;

async function uploadOne(base: string, s: BrowserSession, file: string): Promise<{ id: string }> {
  const form = new FormData();
  form.append('appid', s.appid);
  form.append('files', new Blob([await readFile(file)]), path.basename(file));
  const res = await fetch(`${base}/app/merge/upload`, {
    method: 'POST',
    headers: { ...headers(s, false), accept: 'application/json' },
    body: form,
  });
  if (!res.ok) throw new Error(`upload of ${file} answered ${res.status}`);
  return ((await res.json()) as { items: Array<{ id: string }> }).items[0];
}

const merge = (base: string, s: BrowserSession, ids: string[], options?: object) =>
  fetch(`${base}/app/merge/mergemp3`, {
    method: 'POST',
    headers: headers(s),
    body: JSON.stringify({ items: ids.map((id) => ({ id })), options }),
  });

async function worstCrossfade(work: string, progress: (m: string) => void): Promise<Figure> {
  progress('limits: making two 70 s 8-channel 192 kHz WavPacks');
  const files = ['a', 'b'].map((n) => path.join(work, `hires-${n}.wv`));
  for (const [i, f] of files.entries())
    await ffmpeg([
      ...['-f', 'lavfi', '-i', `sine=f=${300 + 200 * i}:r=192000:d=70`],
      ...['-af', 'pan=7.1|c0=c0|c1=c0|c2=c0|c3=c0|c4=c0|c5=c0|c6=c0|c7=c0', '-c:a', 'wavpack', f],
    ]);
  return withServer({ MAX_FILE_MB: '2000' }, async (server, s) => {
    const items = [];
    for (const f of files) items.push(await uploadOne(server.base, s, f));
    progress('limits: the worst crossfade');
    const ids = items.map((i) => i.id);
    const { value: res, peak } = await withPeakRss(server, () =>
      merge(server.base, s, ids, { format: 'wav', crossfade: 30 }),
    );
    if ((await res.json()) !== 'success') throw new Error(`the crossfade answered ${res.status}`);
    const rss = stats([peak]);
    return {
      name: 'server RSS during a 30 s crossfade of two 70 s 8-channel 192 kHz inputs',
      ours: rss,
      peerName: '',
      unit: 'MB',
      extraTarget: { label: 'at most 768 MB', ok: rss.max <= 768 * MB },
    };
  });
}

async function budgetCheck(c: Corpus, rounds: number, progress: (m: string) => void): Promise<Figure> {
  return withServer({ MAX_FILES: '1000' }, async (server, s) => {
    progress('limits: the budget check on 500 items');
    // An hour in one file, used 500 times: 500 hours, refused before any work.
    const item = await uploadOne(server.base, s, c.threeHours[0]);
    const ids = Array<string>(500).fill(item.id);
    const times: number[] = [];
    // The refusal's whole round trip (ownership, durations, the budget) is the check's cost.
    for (let r = 0; r < Math.max(5, rounds) + 1; r++) {
      const t = process.hrtime.bigint();
      const res = await merge(server.base, s, ids);
      if (res.status !== 413) throw new Error(`a 500-hour merge answered ${res.status}`);
      await res.arrayBuffer();
      if (r > 0) times.push(Number(process.hrtime.bigint() - t) / 1e6);
    }
    const cost = stats(times);
    return {
      name: 'merge budget check of a 500-item merge (the 413 round trip)',
      ours: cost,
      peerName: '',
      unit: 'ms',
      extraTarget: { label: 'at most 50 ms', ok: cost.median <= 50 },
    };
  });
}

async function listingUnderMerges(c: Corpus, progress: (m: string) => void): Promise<Figure> {
  return withServer({ MERGE_CONCURRENCY: '4' }, async (server, reader) => {
    for (const clip of c.clips.slice(0, 50)) await uploadOne(server.base, reader, clip);
    const load = {
      url: `${server.base}/app/merge/getDataJson`,
      method: 'POST' as const,
      connections: 20,
      headers: headers(reader),
      body: JSON.stringify({ appid: reader.appid }),
      duration: 5,
    };
    progress('limits: getDataJson idle');
    await autocannon({ ...load, duration: 2 });
    const idle = (await autocannon(load)).requests.average;
    // Four sessions, each merging an hour of MP3 to M4B (a full re-encode), all at once; stopped
    // once measured.
    const mergers = [];
    for (let i = 0; i < 4; i++) {
      const s = await openSession(server.base);
      const ids = [];
      for (const f of c.hourMp3) ids.push((await uploadOne(server.base, s, f)).id);
      mergers.push({ s, ids });
    }
    progress('limits: getDataJson while 4 merges run');
    let ended = 0;
    const running = mergers.map((m) =>
      merge(server.base, m.s, m.ids, { format: 'm4b' }).finally(() => ended++),
    );
    await new Promise((r) => setTimeout(r, 1000));
    const busy = (await autocannon(load)).requests.average;
    // A merge that ended before the measurement did would make "busy" partly idle.
    if (ended > 0) throw new Error(`${ended} of the 4 merges ended before the busy measurement did`);
    for (const m of mergers)
      await fetch(`${server.base}/app/merge/cancel`, { method: 'POST', headers: headers(m.s), body: '{}' });
    await Promise.all(running);
    return {
      name: 'getDataJson throughput while 4 merges run',
      ours: stats([busy]),
      peerName: 'the same, idle',
      peer: stats([idle]),
      unit: 'req/s',
      extraTarget: { label: 'at least half of idle', ok: busy >= idle / 2 },
    };
  });
}

export const limitsFigures: FigureGroup = async (c, work, rounds, progress) => {
  return [
    await worstCrossfade(work, progress),
    await budgetCheck(c, rounds, progress),
    await listingUnderMerges(c, progress),
  ];
};
