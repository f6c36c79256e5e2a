// Figures for the server: upload memory, getDataJson throughput, merge overhead.
import { spawn } from 'node:child_process';
import { openAsBlob, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import autocannon from 'autocannon';
import type { Corpus } from './corpus.js';
import { runOnce, stats } from './measure.js';
import type { Figure } from './report.js';
import { headers, openSession, startServer, type BrowserSession } from './server-process.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export function curlUpload(base: string, s: BrowserSession, file: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const start = process.hrtime.bigint();
    const child = spawn('curl', [
      '-s',
      '-o',
      '/dev/null',
      '-w',
      '%{http_code}',
      '-H',
      `cookie: ${s.cookie}`,
      '-H',
      `x-csrf-token: ${s.csrf}`,
      '-F',
      `appid=${s.appid}`,
      '-F',
      `files=@${file}`,
      `${base}/app/merge/upload`,
    ]);
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.on('error', reject);
    child.on('close', () => {
      if (out !== '200') reject(new Error(`upload answered ${out}`));
      else resolve(Number(process.hrtime.bigint() - start) / 1e9);
    });
  });
}

async function uploadMany(base: string, s: BrowserSession, files: string[]): Promise<Array<{ id: string }>> {
  const items: Array<{ id: string }> = [];
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
    items.push(...((await res.json()) as { items: Array<{ id: string }> }).items);
  }
  return items;
}

export async function serverFigures(
  c: Corpus,
  work: string,
  rounds: number,
  progress: (m: string) => void,
): Promise<Figure[]> {
  const figures: Figure[] = [];
  const server = await startServer({ MAX_FILE_MB: '2000', MAX_FILES: '1000' });
  try {
    const s = await openSession(server.base);

    // Upload of about 1 GB: server RSS growth while it streams, and time against curl to a file.
    const growth: number[] = [];
    const uploadTimes: number[] = [];
    const curlTimes: number[] = [];
    const copy = path.join(work, 'curl-copy.wav');
    for (let r = 0; r < Math.max(3, Math.ceil(rounds / 2)); r++) {
      progress(`1 GB upload (${r + 1})`);
      const before = server.rss();
      let peak = before;
      const timer = setInterval(() => (peak = Math.max(peak, server.rss())), 20);
      uploadTimes.push(await curlUpload(server.base, s, c.bigWav));
      clearInterval(timer);
      growth.push(Math.max(0, peak - before));
      curlTimes.push(
        (
          await runOnce({
            label: 'curl',
            cmd: 'curl',
            args: ['-s', '-o', copy, pathToFileURL(c.bigWav).href],
          })
        ).seconds,
      );
      rmSync(copy, { force: true });
    }
    figures.push({
      name: 'upload of a 1 GB file over loopback',
      ours: stats(uploadTimes),
      peerName: 'curl writing the same bytes to a file',
      peer: stats(curlTimes),
      extraTarget: { label: 'server RSS grows by at most 64 MB', ok: stats(growth).max <= 64 * 1024 * 1024 },
      note: `RSS growth ${(stats(growth).median / 2 ** 20).toFixed(1)} MB median, ${(stats(growth).max / 2 ** 20).toFixed(1)} MB max`,
    });

    // getDataJson with 200 items, 50 connections.
    progress('getDataJson load');
    const s2 = await openSession(server.base);
    await uploadMany(server.base, s2, [...c.clips, ...c.clips].slice(0, 200));
    const loadOptions = {
      url: `${server.base}/app/merge/getDataJson`,
      method: 'POST',
      connections: 50,
      headers: headers(s2),
      body: JSON.stringify({ appid: s2.appid }),
    };
    // An untimed warm-up first, as for every other figure: the first second is the JIT's.
    await autocannon({ ...loadOptions, duration: 2 });
    const load = await autocannon({ ...loadOptions, duration: 10 });
    if (load.non2xx > 0) throw new Error(`getDataJson answered ${load.non2xx} non-2xx`);
    const rps = stats([load.requests.average]);
    const p99 = stats([load.latency.p99]);
    figures.push(
      {
        name: 'getDataJson, 200 items, 50 connections: throughput',
        ours: rps,
        peerName: '',
        unit: 'req/s',
        extraTarget: { label: 'at least 3,000 req/s', ok: rps.median >= 3000 },
      },
      {
        name: 'getDataJson, 200 items, 50 connections: p99 latency',
        ours: p99,
        peerName: '',
        unit: 'ms',
        extraTarget: { label: 'p99 at most 25 ms', ok: p99.median <= 25 },
      },
    );

    // mergemp3 round trip against the engine's own time on the same files.
    const s3 = await openSession(server.base);
    const three = c.hourMp3.slice(0, 3);
    const items = await uploadMany(server.base, s3, three);
    const { mergeFiles } = (await import(
      pathToFileURL(path.join(root, 'dist', 'engine', 'index.js')).href
    )) as typeof import('../src/engine/index.js');
    const rt: number[] = [];
    const engine: number[] = [];
    const out = path.join(work, 'engine-only.mp3');
    for (let r = 0; r < rounds; r++) {
      progress(`mergemp3 round trip (${r + 1}/${rounds})`);
      let t = process.hrtime.bigint();
      const res = await fetch(`${server.base}/app/merge/mergemp3`, {
        method: 'POST',
        headers: headers(s3),
        body: JSON.stringify({ items }),
      });
      if ((await res.json()) !== 'success') throw new Error(`mergemp3 answered ${res.status}`);
      rt.push(Number(process.hrtime.bigint() - t) / 1e6);
      t = process.hrtime.bigint();
      await mergeFiles(three, out);
      engine.push(Number(process.hrtime.bigint() - t) / 1e6);
      rmSync(out, { force: true });
    }
    const overhead = stats(rt.map((v, i) => v - engine[i]));
    figures.push({
      name: 'mergemp3 round trip minus the engine (3 x 5 min MP3)',
      ours: overhead,
      peerName: '',
      unit: 'ms',
      extraTarget: { label: 'overhead at most 100 ms', ok: overhead.median <= 100 },
      note: `round trip ${stats(rt).median.toFixed(0)} ms, engine ${stats(engine).median.toFixed(0)} ms`,
    });
  } finally {
    await server.stop();
  }
  return figures;
}
