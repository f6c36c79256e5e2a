// METRICS_PORT's own listener: GET /metrics and nothing else, apart from the public port, so a
// firewall or a Kubernetes service can keep it to the Prometheus that scrapes it.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { noMetrics, type Metrics, type MetricSources } from './metrics.js';
import type { PrometheusMetrics } from './prometheus.js';

export interface MetricsServer {
  /** The port listened on (useful when METRICS_PORT is 0). */
  readonly port: number;
  close(): Promise<void>;
}

export async function listenMetrics(
  metrics: Pick<PrometheusMetrics, 'text' | 'contentType'>,
  at: { host: string; port: number },
  log: { warn(obj: object, msg: string): void },
): Promise<MetricsServer> {
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? '').split('?')[0];
    if (req.method !== 'GET' || path !== '/metrics') {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('Not found: the metrics are at /metrics\n');
      return;
    }
    metrics.text().then(
      (text) => res.writeHead(200, { 'content-type': metrics.contentType }).end(text),
      (err: unknown) => {
        log.warn({ err }, 'metrics: a scrape failed');
        res.writeHead(500, { 'content-type': 'text/plain' }).end('The metrics could not be read\n');
      },
    );
  });
  // A scraper keeps its connection; closing must not wait for it.
  server.keepAliveTimeout = 5000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(at.port, at.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** A process's metrics: the recorder its parts are given, and the listener when METRICS_PORT is set. */
export interface ProcessMetrics {
  recorder: Metrics;
  /** What a scrape reads on the spot (nothing when off). */
  watch(sources: MetricSources): void;
  /** The metrics port listened on; null when off. */
  readonly port: number | null;
  close(): Promise<void>;
}

/** Off (a recorder that does nothing, no port) unless `metricsPort` is set. */
export async function startProcessMetrics(
  config: { host: string; metricsPort?: number },
  log: { warn(obj: object, msg: string): void },
): Promise<ProcessMetrics> {
  if (config.metricsPort === undefined)
    return { recorder: noMetrics, watch() {}, port: null, close: async () => undefined };
  const { createPrometheusMetrics } = await import('./prometheus.js');
  const metrics = createPrometheusMetrics();
  const server = await listenMetrics(metrics, { host: config.host, port: config.metricsPort }, log);
  return { recorder: metrics, watch: metrics.watch, port: server.port, close: server.close };
}
