// What METRICS_PORT costs the web side. (1) getDataJson throughput (200 items, 50 connections) on a
// server with METRICS_PORT set and scraped every second (Prometheus's default is 15 s), against the
// same server without it, in alternating rounds of equal length on two servers started alike. On a
// machine shared with other work that ratio swings by more than the 2 % it is held to, so (2) the
// CPU time one scrape costs the server (from /proc, which the machine's load does not inflate), as
// a share of the one core a web process's event loop has at one scrape a second.
import { readFileSync } from 'node:fs';
import autocannon from 'autocannon';
import type { Corpus } from './corpus.js';
import { stats } from './measure.js';
import type { Figure } from './report.js';
import { uploadMany } from './server-calls.js';
import { freePort, headers, openSession, startServer, type RunningServer } from './server-process.js';

const LOAD_SECONDS = 5;
const SCRAPES = 300;

/** The process's CPU time so far (user + system), ms; /proc counts in ticks of 10 ms. */
function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/** CPU ms the server spends per scrape, over SCRAPES scrapes one after another. */
async function cpuPerScrape(server: RunningServer, url: string): Promise<number> {
  const before = cpuMs(server.pid);
  for (let i = 0; i < SCRAPES; i++) await (await fetch(url)).text();
  return (cpuMs(server.pid) - before) / SCRAPES;
}

async function listLoad(base: string, s: Awaited<ReturnType<typeof openSession>>, seconds: number) {
  const load = await autocannon({
    url: `${base}/app/merge/getDataJson`,
    method: 'POST',
    connections: 50,
    duration: seconds,
    headers: headers(s),
    body: JSON.stringify({ appid: s.appid }),
  });
  if (load.non2xx > 0) throw new Error(`getDataJson answered ${load.non2xx} non-2xx`);
  return load.requests.average;
}

/** `work` while /metrics is read every second; how many scrapes answered. */
async function scraped<T>(url: string | null, work: () => Promise<T>): Promise<T> {
  if (!url) return work();
  let failed = 0;
  const timer = setInterval(() => {
    void fetch(url)
      .then((r) => r.text().then(() => (failed += r.ok ? 0 : 1)))
      .catch(() => failed++);
  }, 1000);
  let value: T;
  try {
    value = await work();
  } finally {
    clearInterval(timer);
  }
  if (failed > 0) throw new Error(`${failed} scrapes of ${url} failed`);
  return value;
}

export async function metricsFigures(
  c: Corpus,
  rounds: number,
  progress: (m: string) => void,
): Promise<Figure[]> {
  const metricsPort = await freePort();
  const servers: RunningServer[] = [];
  try {
    const plain = await startServer({});
    servers.push(plain);
    const measured = await startServer({ METRICS_PORT: String(metricsPort) });
    servers.push(measured);
    const metricsUrl = `http://127.0.0.1:${metricsPort}/metrics`;
    const sessions = await Promise.all(servers.map((srv) => openSession(srv.base)));
    for (const [i, srv] of servers.entries())
      await uploadMany(srv.base, sessions[i], [...c.clips, ...c.clips].slice(0, 200));
    // The JIT's warm-up, untimed, on both.
    for (const [i, srv] of servers.entries()) await listLoad(srv.base, sessions[i], 2);
    const without: number[] = [];
    const withMetrics: number[] = [];
    for (let r = 0; r < rounds; r++) {
      progress(`metrics: getDataJson without and with METRICS_PORT (${r + 1}/${rounds})`);
      without.push(await listLoad(plain.base, sessions[0], LOAD_SECONDS));
      withMetrics.push(await scraped(metricsUrl, () => listLoad(measured.base, sessions[1], LOAD_SECONDS)));
    }
    const ours = stats(withMetrics);
    const peer = stats(without);
    const share = ours.median / peer.median;
    const perScrape: number[] = [];
    for (let r = 0; r < rounds; r++) {
      progress(`metrics: CPU per scrape (${r + 1}/${rounds})`);
      perScrape.push(await cpuPerScrape(measured, metricsUrl));
    }
    const cpu = stats(perScrape);
    return [
      {
        name: 'METRICS_PORT: server CPU per /metrics scrape (1 a second: % of a core)',
        ours: cpu,
        peerName: '',
        unit: 'ms',
        extraTarget: { label: 'at most 2 % (20 ms)', ok: cpu.median <= 20 },
        note: `${(cpu.median / 10).toFixed(2)} %`,
      },
      {
        name: 'getDataJson throughput, METRICS_PORT set and scraped every second',
        ours,
        peerName: 'the same without METRICS_PORT',
        peer,
        unit: 'req/s',
        extraTarget: { label: 'at least 0.98 of without', ok: share >= 0.98 },
      },
    ];
  } finally {
    await Promise.allSettled(servers.map((s) => s.stop()));
  }
}
