// ROLE=worker: merges from the queue, no HTTP and no realtime port. Progress reaches the browsers
// through Redis; rows go to PostgreSQL and files to the bucket.
import pino, { type Logger } from 'pino';
import { locateTools } from '../engine/index.js';
import { openBackends } from './backends.js';
import { describeConfig, type AppConfig } from './config.js';
import { startMergeWorker } from './jobs/bullmq/merge-worker.js';

export interface WorkerProcess {
  log: Logger;
  close(): Promise<void>;
}

export async function startWorkerProcess(config: AppConfig & { redisUrl: string }): Promise<WorkerProcess> {
  const log = pino({ level: config.logLevel });
  log.info(describeConfig(config), 'audio-merge: worker starting');
  const backends = await openBackends(config, log);
  try {
    const tools = await locateTools(
      config.ffmpegPath && config.ffprobePath
        ? { FFMPEG_PATH: config.ffmpegPath, FFPROBE_PATH: config.ffprobePath }
        : undefined,
    );
    log.info(
      { ffmpeg: tools.ffmpeg, version: tools.ffmpegVersion },
      `using ffmpeg ${tools.ffmpegVersion} at ${tools.ffmpeg}`,
    );
    // Whatever is in this process's scratch area was left by a run that is gone.
    await backends.disk.clearScratch();
    const worker = await startMergeWorker({
      config,
      store: backends.store,
      files: backends.files,
      tools,
      log,
    });
    log.info({ concurrency: config.mergeConcurrency }, 'audio-merge: worker ready');
    return {
      log,
      async close() {
        await worker.close();
        await backends.close();
      },
    };
  } catch (err) {
    await backends.close();
    throw err;
  }
}
