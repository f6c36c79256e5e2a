// `npm run test:slow`: the tests that take real lengths of audio or real minutes, kept out of
// `npm test` so it stays quick; CI runs both (.ci/run). The same settings, these files only.
import { configDefaults, defineConfig } from 'vitest/config';
import base from './vitest.config.js';
import { SLOW_TESTS } from './vitest.slow-tests.js';

export default defineConfig({
  ...base,
  test: { ...base.test, include: [...SLOW_TESTS], exclude: [...configDefaults.exclude] },
});
