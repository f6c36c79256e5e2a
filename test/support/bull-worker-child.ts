// A merge worker in its own process, for tests that kill one mid-merge: it takes jobs from the
// queue named by AM_QUEUE and works on them until it is killed, saying "started <jobId>" on stdout.
import { startBullWorker } from '../../src/server/jobs/bullmq/bullmq-worker.js';

await startBullWorker(
  async (data, progress, signal) => {
    process.stdout.write(`started ${data.jobId}\n`);
    progress(5);
    await new Promise((_resolve, reject) =>
      signal.addEventListener('abort', () => reject(new Error('aborted'))),
    );
    return { resultId: 'never', durationSeconds: 1, inputs: 2 };
  },
  {
    redisUrl: process.env.REDIS_URL as string,
    names: { name: process.env.AM_QUEUE as string },
    concurrency: 1,
    lockMs: Number(process.env.AM_LOCK_MS),
    stalledCheckMs: Number(process.env.AM_LOCK_MS) / 2,
  },
);
process.stdout.write('ready\n');
