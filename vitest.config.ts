import { createRequire } from 'node:module';
import path from 'node:path';
import { configDefaults, defineConfig } from 'vitest/config';
import { SLOW_TESTS } from './vitest.slow-tests.js';

const require = createRequire(import.meta.url);
// The widget runs tus-js-client's browser build; tests under jsdom must get the same one (the
// package's `browser` field, which only the bundler reads), not its Node build.
const tusBrowser = path.join(
  path.dirname(require.resolve('tus-js-client/package.json')),
  'lib.esm/browser/index.js',
);

export default defineConfig({
  resolve: {
    alias: [{ find: /^tus-js-client$/, replacement: tusBrowser }],
  },
  test: {
    include: ['src/**/*.test.ts', 'src/**/*.test.tsx', 'test/**/*.test.ts'],
    // Those need real PostgreSQL, Redis and S3 (`npm run test:scaled`); the slow ones (real lengths,
    // real minutes) run with `npm run test:slow` (vitest.slow-tests.ts names them), the conformance
    // matrix with `npm run test:conformance`.
    exclude: [...configDefaults.exclude, '**/*.scaled.test.ts', 'test/conformance/**', ...SLOW_TESTS],
    // ffmpeg-backed tests spawn real processes; give them room on a 2-core machine.
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
  },
});
