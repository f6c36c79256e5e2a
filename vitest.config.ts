import { configDefaults, defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'src/**/*.test.tsx', 'test/**/*.test.ts'],
    // Those need real PostgreSQL, Redis and S3: `npm run test:scaled`.
    exclude: [...configDefaults.exclude, '**/*.scaled.test.ts'],
    // ffmpeg-backed tests spawn real processes; give them room on a 2-core machine.
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
  },
});
