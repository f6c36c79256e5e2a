// What METRICS_PORT costs the web side: getDataJson throughput (200 items, 50 connections) on a
// server with METRICS_PORT set and scraped every second (Prometheus's default is 15 s), against the
// same server without it, in alternating rounds of equal length on two servers started alike.
import autocannon from 'autocannon';
import type { Corpus } from './corpus.js';
import { stats } from './measure.js';
import type { Figure } from './report.js';
import { uploadMany } from './server-calls.js';
import { freePort, headers, openSession, startServer, type RunningServer } from './server-process.js';

const LOAD_SECONDS = 5;

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
  try {
    return await work();
  } finally {
    clearInterval(timer);
    if (failed > 0) throw new Error(`${failed} scrapes of ${url} failed`);
  }
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
    return [
      {
        name: 'getDataJson, 200 items, 50 connections, with METRICS_PORT scraped every second: throughput',
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
