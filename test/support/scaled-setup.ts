// vitest globalSetup for `npm run test:scaled`: one Redis, one PostgreSQL and one s3rver for the
// whole run, their addresses handed to the suites through `inject`, all stopped at the end.
import type { TestProject } from 'vitest/node';
import { startPostgres, startRedis, startS3, S3_TEST_CREDENTIALS, type Service } from './services.js';

declare module 'vitest' {
  export interface ProvidedContext {
    databaseUrl: string;
    redisUrl: string;
    s3: { endpoint: string; bucket: string; region: string; accessKeyId: string; secretAccessKey: string };
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const started: Service[] = [];
  try {
    const [pg, redis, s3] = await Promise.all([startPostgres(), startRedis(), startS3('audio-merge-test')]);
    started.push(pg, redis, s3);
    project.provide('databaseUrl', pg.url);
    project.provide('redisUrl', redis.url);
    project.provide('s3', { endpoint: s3.url, bucket: s3.bucket, ...S3_TEST_CREDENTIALS });
  } catch (err) {
    await Promise.allSettled(started.map((s) => s.stop()));
    throw err;
  }
  return async () => {
    await Promise.allSettled(started.map((s) => s.stop()));
  };
}
