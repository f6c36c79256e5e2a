import { defineConfig } from 'vitest/config';

// `npm run test:scaled`: the suites that need real PostgreSQL, Redis and an S3-compatible server,
// which test/support/scaled-setup.ts starts once for the run.
export default defineConfig({
  test: {
    include: ['src/**/*.scaled.test.ts', 'test/**/*.scaled.test.ts'],
    globalSetup: ['test/support/scaled-setup.ts'],
    testTimeout: 120_000,
    hookTimeout: 180_000,
    pool: 'forks',
    fileParallelism: false,
    // Real services and processes on a shared CI machine: a case that fails once runs once more.
    retry: 1,
  },
});
