// The merge route's refusals that come from the app around it: CSRF, the per-session rate limit,
// the per-request item limit. None of them records a job.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openSession, postJson, startTestApp, type TestApp } from './support/server-harness.js';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp({ mergeRateLimit: 3, maxFiles: 4 });
});
afterAll(() => app?.dispose());

const allJobs = async () =>
  (
    await Promise.all(
      (['queued', 'running', 'succeeded', 'failed', 'cancelled'] as const).map((s) =>
        app.store.jobsWithStatus(s),
      ),
    )
  ).flat();

it('refuses mergemp3 without the CSRF token', async () => {
  const s = await openSession(app.app);
  const res = await postJson(app.app, s, '/app/merge/mergemp3', { items: [{ id: 'x' }] }, { csrf: null });
  expect(res.statusCode).toBe(403);
  expect(JSON.parse(res.body).error).toMatch(/CSRF/);
  expect(await allJobs()).toEqual([]);
});

it('refuses more items than MAX_FILES in one merge', async () => {
  const s = await openSession(app.app);
  const res = await postJson(app.app, s, '/app/merge/mergemp3', {
    items: Array.from({ length: 5 }, (_, i) => ({ id: `i${i}` })),
  });
  expect(res.statusCode).toBe(400);
  expect(JSON.parse(res.body).error).toMatch(/At most 4 items/);
});

it('limits merges per session per minute, and the next session is not affected', async () => {
  const s = await openSession(app.app);
  const statuses: number[] = [];
  for (let i = 0; i < 4; i++)
    statuses.push(
      (await postJson(app.app, s, '/app/merge/mergemp3', { items: [{ id: 'nope' }] })).statusCode,
    );
  expect(statuses).toEqual([403, 403, 403, 429]);
  const other = await openSession(app.app);
  expect(
    (await postJson(app.app, other, '/app/merge/mergemp3', { items: [{ id: 'nope' }] })).statusCode,
  ).toBe(403);
  expect(await allJobs()).toEqual([]);
});
