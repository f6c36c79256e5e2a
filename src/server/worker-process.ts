// ROLE=worker: merges from the queue, no HTTP and no realtime port. Progress reaches the browsers
// through Redis; rows go to PostgreSQL and files to the bucket.
import pino, { type Logger } from 'pino';
import { locateTools } from '../engine/index.js';
import { announceTools, openBackends } from './backends.js';
import { describeConfig, type AppConfig } from './config.js';
import { startMergeWorker } from './jobs/bullmq/merge-worker.js';
import { statfsFreeSpace } from './files/disk-space.js';
import { startProcessMetrics } from './ops/metrics-server.js';

export interface WorkerProcess {
  log: Logger;
  /** The metrics listener's port; null when METRICS_PORT is unset. */
  metricsPort: number | null;
  close(): Promise<void>;
}

export async function startWorkerProcess(config: AppConfig & { redisUrl: string }): Promise<WorkerProcess> {
  const log = pino({ level: config.logLevel });
  log.info(describeConfig(config), 'audio-merge: worker starting');
  const backends = await openBackends(config, log);
  // A worker has no queue reader and no realtime: its own merges and disk are what it tells.
  const metrics = await startProcessMetrics(config, log).catch(async (err: unknown) => {
    await backends.close();
    throw err;
  });
  metrics.watch({ diskFree: () => statfsFreeSpace(config.dataDir) });
  try {
    const tools = await locateTools(
      config.ffmpegPath && config.ffprobePath
        ? { FFMPEG_PATH: config.ffmpegPath, FFPROBE_PATH: config.ffprobePath }
        : undefined,
    );
    announceTools(log, tools);
    // Whatever is in this process's scratch area was left by a run that is gone.
    await backends.disk.clearScratch();
    const worker = await startMergeWorker({
      config,
      store: backends.store,
      files: backends.files,
      tools,
      log,
      metrics: metrics.recorder,
    });
    log.info({ concurrency: config.mergeConcurrency }, 'audio-merge: worker ready');
    if (metrics.port !== null) log.info({ metricsPort: metrics.port }, 'audio-merge: metrics on /metrics');
    return {
      log,
      metricsPort: metrics.port,
      async close() {
        await worker.close();
        await metrics.close();
        await backends.close();
      },
    };
  } catch (err) {
    await metrics.close();
    await backends.close();
    throw err;
  }
}
