// Many people uploading at the same moment: the server runs at most its upload pool's work at once
// (the probes counted as they run, the ffprobe and ffmpeg processes counted in /proc), and takes
// the files in the order they arrived, each answered as soon as its turn is done.
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { probeFile } from '../src/engine/index.js';
import { makeTone, tempDir } from './support/audio-fixtures.js';
import { childrenNamed } from './support/processes.js';
import { openSession, startTestApp, upload, type TestApp } from './support/server-harness.js';
import { until } from './support/until.js';

const POOL = 2;
let t: TestApp;
let media: { dir: string; cleanup: () => Promise<void> };
let mp3: string;
let flac: string;
/** The files in the order their probes started, and the probes running at most at once. */
let probed: string[] = [];
let probing = 0;
let mostProbing = 0;
/** While set, the first POOL probes wait for it, so the rest can be sent one after another behind them. */
let held: Promise<void> | undefined;

beforeAll(async () => {
  media = await tempDir('upload-pool-');
  mp3 = await makeTone(path.join(media.dir, 'tone.mp3'), { seconds: 0.5 });
  // Not an MP3: its head is decoded by ffmpeg, then the whole of it measured.
  flac = await makeTone(path.join(media.dir, 'tone.flac'), { seconds: 0.5 });
  t = await startTestApp(
    { uploadConcurrency: POOL, uploadRateLimit: 1000, sessionRateLimit: 1000 },
    {
      // The MP3s' waveforms would be upload work too; left out, the probes are the pool's only work.
      peaksAtUpload: false,
      probe: async (file, opts) => {
        probed.push(String(opts.displayName));
        probing++;
        mostProbing = Math.max(mostProbing, probing);
        try {
          if (held && probed.length <= POOL) await held;
          return await probeFile(file, opts);
        } finally {
          probing--;
        }
      },
    },
  );
});
afterAll(async () => {
  await t.dispose();
  await media.cleanup();
});

function reset() {
  probed = [];
  mostProbing = 0;
}

it('60 one-file uploads at once are taken in order of arrival, at most the pool at a time, and answered in order', async () => {
  reset();
  const people = 60;
  const sessions = await Promise.all(Array.from({ length: people }, () => openSession(t.app)));
  let release = () => {};
  held = new Promise<void>((resolve) => (release = resolve));
  const answered: number[] = [];
  /** For each answer as it came, how many probes had started by then. */
  const probesBefore: number[] = [];
  try {
    // Each file arrives once the one before it waits in the pool: the order of arrival is known.
    const answers = [];
    for (let i = 0; i < people; i++) {
      answers.push(
        upload(t.app, sessions[i], [{ path: mp3, filename: `person-${i}.mp3` }]).then((res) => {
          answered.push(i);
          probesBefore.push(probed.length);
          return res.statusCode;
        }),
      );
      await until(
        () =>
          t.uploadWork.active === Math.min(i + 1, POOL) && t.uploadWork.waiting === Math.max(0, i + 1 - POOL),
        { timeoutMs: 20_000, what: `upload ${i} in the pool` },
      );
    }
    release();
    expect(await Promise.all(answers)).toEqual(answers.map(() => 200));
  } finally {
    release();
    held = undefined;
  }
  expect(probed).toEqual(Array.from({ length: people }, (_, i) => `person-${i}.mp3`));
  expect(mostProbing).toBe(POOL);
  // Answered as the work is done, not all at the end together: the first ten people have their
  // answers before the last ten files are even started (the pool takes them in order), whatever
  // the machine's pace.
  expect(answered.slice(0, 10).every((i) => i < 20)).toBe(true);
  expect(probesBefore.slice(0, 10).every((n) => n < people - 10)).toBe(true);
});

it('uploads that decode: never more ffmpeg and ffprobe processes alive than the pool', async () => {
  reset();
  const people = 6;
  const sessions = await Promise.all(Array.from({ length: people }, () => openSession(t.app)));
  let mostAlive = 0;
  // Sampled: the processes alive now and then, which is never more than the pool's.
  const watch = setInterval(() => (mostAlive = Math.max(mostAlive, childrenNamed('ff').length)), 25);
  try {
    const answers = await Promise.all(
      sessions.map((s, i) => upload(t.app, s, [{ path: flac, filename: `person-${i}.flac` }])),
    );
    expect(answers.map((a) => a.statusCode)).toEqual(answers.map(() => 200));
  } finally {
    clearInterval(watch);
  }
  expect(mostProbing).toBeLessThanOrEqual(POOL);
  expect(mostAlive).toBeGreaterThan(0);
  expect(mostAlive).toBeLessThanOrEqual(POOL);
});
