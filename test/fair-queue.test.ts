// Merges are taken fairly across sessions: one session's queued merges never keep another's
// waiting behind more than one of them, a session has at most 3 queued or running (429
// `too-many-merges` beyond), and each person is told their own place in line.
import path from 'node:path';
import { expect, it } from 'vitest';
import { mergeFiles } from '../src/engine/index.js';
import { makeTone } from './support/audio-fixtures.js';
import { useMediaApp } from './support/media-app.js';
import type { TestSession } from './support/server-harness.js';

/** The session of each merge, in the order the merges started. */
const started: string[] = [];
let releaseFirst!: () => void;
const firstHeld = new Promise<void>((r) => (releaseFirst = r));

const env = useMediaApp({
  prefix: 'fair-queue-',
  media: (file) => makeTone(file('a.mp3'), { seconds: 1 }),
  config: { mergeConcurrency: 1 },
  deps: {
    merge: async (inputs, output, opts) => {
      // The upload's path holds its session's id: uploads/<sid>/<name>.
      started.push(path.basename(path.dirname(inputs[0])));
      if (started.length === 1) await firstHeld;
      return mergeFiles(inputs, output, opts);
    },
  },
});

async function sessionWithItem(): Promise<TestSession & { item: string }> {
  const { s, items } = await env.sessionWith(['a.mp3']);
  return { ...s, item: items[0].id };
}

const merge = (s: TestSession & { item: string }, requestId: string) => env.merge(s, [s.item], { requestId });

async function statusText(s: TestSession, requestId: string): Promise<string | null | undefined> {
  const jobs = await env.app.store.jobsWithStatus('queued');
  return jobs.find((j) => j.sid === s.sid && j.requestId === requestId)?.statusText;
}

it("serves a second and third session before the first session's later merges, and caps each at 3", async () => {
  const [a, b, c] = [await sessionWithItem(), await sessionWithItem(), await sessionWithItem()];
  const answers = [merge(a, 'a1')];
  await expect.poll(() => started.length).toBe(1);
  answers.push(merge(a, 'a2'), merge(a, 'a3'));
  await expect.poll(async () => (await env.app.store.jobsWithStatus('queued')).length).toBe(2);

  // A fourth of the same session is refused at once, nothing recorded for it.
  const fourth = await merge(a, 'a4');
  expect(fourth.statusCode).toBe(429);
  expect(fourth.json()).toMatchObject({ code: 'too-many-merges', error: expect.stringMatching(/3 merges/) });

  answers.push(merge(b, 'b1'), merge(c, 'c1'));
  await expect.poll(async () => (await env.app.store.jobsWithStatus('queued')).length).toBe(4);
  // Each is told its own place: b and c go next, then a's own two.
  await expect.poll(() => statusText(b, 'b1')).toBe('Waiting: 1 merge ahead of yours');
  expect(await statusText(c, 'c1')).toBe('Waiting: 2 merges ahead of yours');
  expect(await statusText(a, 'a2')).toBe('Waiting: 3 merges ahead of yours');
  expect(await statusText(a, 'a3')).toBe('Waiting: 4 merges ahead of yours');

  releaseFirst();
  const done = await Promise.all(answers);
  expect(done.map((r) => r.statusCode)).toEqual([200, 200, 200, 200, 200]);
  expect(started).toEqual([a.sid, b.sid, c.sid, a.sid, a.sid]);
  // With its merges done, the session may queue again.
  expect((await merge(a, 'a5')).statusCode).toBe(200);
});
