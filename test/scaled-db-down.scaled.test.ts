// Every request ends, with the real services: PostgreSQL of its own (stopped while a merge runs,
// so neither the run's end, nor its retry's start, nor the web process's settling can be
// recorded), Redis and the bucket, and real `node dist/main.js` web and worker processes. The
// browser's mergemp3 gets an answer, 503 with its code, instead of staying open for good.
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { tempDir, tools } from './support/audio-fixtures.js';
import { httpPost, httpUpload, openHttpSession } from './support/http-session.js';
import { freshDatabase, type TestDatabase } from './support/pg-db.js';
import { scaledEnv, startProcess, type ClusterProcess } from './support/scaled-cluster.js';
import { startPostgres, type PostgresService } from './support/services.js';
import { until } from './support/until.js';

let pg: PostgresService;
let db: TestDatabase;
let media: { dir: string; cleanup(): Promise<void> };
let web: ClusterProcess;
let worker: ClusterProcess;
const file = (name: string) => path.join(media.dir, name);

beforeAll(async () => {
  media = await tempDir('am-scaled-db-down-');
  pg = await startPostgres();
  db = await freshDatabase(pg.url);
  // Twenty minutes of 8 kHz silence: a small upload whose merge runs a few seconds.
  await promisify(execFile)(tools.ffmpeg, [
    ...['-v', 'error', '-y', '-f', 'lavfi', '-i', 'anullsrc=r=8000:cl=mono', '-t', '1200'],
    ...['-c:a', 'flac', file('long.flac')],
  ]);
  const env = { ...scaledEnv(db.url), MERGE_CONCURRENCY: '1' };
  [web, worker] = await Promise.all([startProcess('web', env), startProcess('worker', env)]);
});

afterAll(async () => {
  await Promise.allSettled([web, worker].filter(Boolean).map((p) => p.stop()));
  await Promise.allSettled([pg?.stop(), media?.cleanup()]);
});

it('answers mergemp3 503 endNotRecorded when PostgreSQL is down as the merge ends', async () => {
  const s = await openHttpSession(web.url);
  const content = await readFile(file('long.flac'));
  const uploaded = await httpUpload(web.url, s, [{ filename: 'long.flac', content }]);
  expect(uploaded.status, uploaded.text).toBe(200);
  const id = uploaded.json<{ items: Array<{ id: string }> }>().items[0].id;
  const answer = httpPost(web.url, s, '/app/merge/mergemp3', { items: [{ id }], requestId: 'down' });
  await until(
    async () =>
      (await db.query<{ status: string }>('SELECT status FROM jobs WHERE sid = $1', [s.sid]))[0]?.status ===
      'running',
    { timeoutMs: 60_000, intervalMs: 20, what: 'the merge running on the worker' },
  );
  await pg.halt();
  const res = await answer;
  expect(res.status, res.text).toBe(503);
  expect(res.json()).toMatchObject({ code: 'endNotRecorded' });
  expect(web.output()).toContain('could not record the end of a merge');
  await pg.resume();
});
