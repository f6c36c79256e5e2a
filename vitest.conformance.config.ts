import { defineConfig } from 'vitest/config';

// `npm run test:conformance`: the conformance matrix (test/conformance/), the files people have
// through every output format. Minutes, not seconds: not part of `npm test`. Two cases at a time
// (each merge and each check is one or two processes); CONFORMANCE=engine runs the smaller set.
export default defineConfig({
  test: {
    include: ['test/conformance/**/*.conformance.test.ts'],
    testTimeout: 600_000,
    hookTimeout: 1_800_000,
    maxConcurrency: 2,
    pool: 'forks',
  },
});
