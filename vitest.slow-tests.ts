// The test files `npm test` leaves to `npm run test:slow` (vitest.slow.config.ts): each takes over
// about 30 s on the 2-core machine, alone (wall time of the file, setup included).
export const SLOW_TESTS = [
  'test/crossfade-memory.test.ts', // 68 s: two 70 s 8-channel 192 kHz inputs, a 30 s fade
  'test/merge-budget.test.ts', // 124 s: 600 s files merged whole and in spans
  'test/tools-die-with-parent.test.ts', // 47 s: a server and its ffmpeg killed mid-merge
];
