// The metrics port on prom-client: one registry per process (never the library's global one, so
// two apps in one test process keep apart), the default process metrics, the audio-merge series.
// The queue, the disk and the connections are read when Prometheus scrapes, the queue through a
// short cache, so however often it is scraped Redis answers one cheap count a few seconds at most.
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { OUTPUT_FORMATS } from '../../shared/output-formats.js';
import { cachedFor } from './cached.js';
import type { Metrics, MetricSources, QueueCounts } from './metrics.js';

/** A scrape every 15 s is Prometheus's default: the queue is counted once per scrape at most. */
export const QUEUE_COUNTS_CACHE_MS = 2000;

/** Merge times, seconds: a short song's join to a long book's encode. */
const MERGE_SECONDS_BUCKETS = [0.5, 1, 2, 5, 10, 20, 30, 60, 120, 300, 600, 1200, 3600];

export interface PrometheusMetrics extends Metrics {
  /** What a scrape reads on the spot; sources given later add to those given before. */
  watch(sources: MetricSources): void;
  /** The exposition text. */
  text(): Promise<string>;
  readonly contentType: string;
}

const OUTCOMES = ['succeeded', 'failed', 'cancelled'] as const;
const QUEUE_STATES: (keyof QueueCounts)[] = ['waiting', 'active', 'delayed'];

export function createPrometheusMetrics(): PrometheusMetrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const registers = [registry];
  const sources: MetricSources = {};
  let queueCounts: (() => Promise<QueueCounts>) | undefined;

  const merges = new Counter({
    name: 'audio_merge_merges_total',
    help: 'Merges ended on this process, by outcome and output format',
    labelNames: ['outcome', 'format'],
    registers,
  });
  const mergeSeconds = new Histogram({
    name: 'audio_merge_merge_seconds',
    help: 'Seconds from a successful merge run starting on this process to its result stored, by output format',
    labelNames: ['format'],
    buckets: MERGE_SECONDS_BUCKETS,
    registers,
  });
  const fallbacks = new Counter({
    name: 'audio_merge_fallbacks_total',
    help: 'Fast paths that fell back to the plain way, by stage',
    labelNames: ['stage'],
    registers,
  });
  const uploads = new Counter({
    name: 'audio_merge_uploads_total',
    help: 'Uploads kept as items (accepted) or refused, multipart and tus',
    labelNames: ['outcome'],
    registers,
  });
  const uploadBytes = new Counter({
    name: 'audio_merge_upload_bytes_total',
    help: 'Bytes of the uploads kept',
    registers,
  });
  new Gauge({
    name: 'audio_merge_queue_jobs',
    help: 'Merges in the queue by state (read at most every 2 s)',
    labelNames: ['state'],
    registers,
    async collect() {
      const counts = await queueCounts?.().catch(() => undefined);
      if (!counts) return;
      for (const state of QUEUE_STATES) this.set({ state }, counts[state]);
    },
  });
  new Gauge({
    name: 'audio_merge_disk_free_bytes',
    help: "Bytes free on DATA_DIR's disk",
    registers,
    async collect() {
      const free = await sources.diskFree?.().catch(() => undefined);
      if (free !== undefined) this.set(free);
    },
  });
  new Gauge({
    name: 'audio_merge_realtime_connections',
    help: 'Realtime (socket.io) connections open on this process',
    registers,
    collect() {
      if (sources.connections) this.set(sources.connections());
    },
  });

  // Every series is there from the first scrape, at zero: a rate() needs a start.
  for (const format of OUTPUT_FORMATS) {
    for (const outcome of OUTCOMES) merges.labels(outcome, format).inc(0);
    mergeSeconds.zero({ format });
  }
  uploads.labels('accepted').inc(0);
  uploads.labels('refused').inc(0);

  return {
    mergeEnded(end) {
      merges.labels(end.outcome, end.format).inc();
      if (end.outcome === 'succeeded') mergeSeconds.labels(end.format).observe(end.seconds);
    },
    fallback(stage) {
      fallbacks.labels(stage).inc();
    },
    upload(outcome, bytes) {
      uploads.labels(outcome).inc();
      if (outcome === 'accepted' && bytes > 0) uploadBytes.inc(bytes);
    },
    watch(more) {
      Object.assign(sources, more);
      if (more.queueCounts) queueCounts = cachedFor(QUEUE_COUNTS_CACHE_MS, more.queueCounts);
    },
    text: () => registry.metrics(),
    contentType: registry.contentType,
  };
}
