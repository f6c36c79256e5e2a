// A scaled merge that BullMQ fails for good after the web process that queued it is gone: real
// `node dist/main.js` web and worker processes on PostgreSQL, Redis and the bucket. Both of its
// runs' workers are killed mid-merge, so no worker ever writes its end; the web process left
// settles it, and the session hears it and may merge again.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { ERRORS } from '../src/server/errors.js';
import { statusChannel } from '../src/shared/types.js';
import { makeTone, tempDir } from './support/audio-fixtures.js';
import { listenStatus, type StatusListener } from './support/echo-client.js';
import { httpGetBytes, httpPost, httpUpload, openHttpSession } from './support/http-session.js';
import { freshDatabase, type TestDatabase } from './support/pg-db.js';
import { scaledEnv, startProcess, type ClusterProcess } from './support/scaled-cluster.js';
import type { TestSession } from './support/server-harness.js';
import { until } from './support/until.js';

let db: TestDatabase;
let media: { dir: string; cleanup(): Promise<void> };
let env: Record<string, string>;
const processes: ClusterProcess[] = [];
const listeners: StatusListener[] = [];
const tone = (name: string) => path.join(media.dir, name);

beforeAll(async () => {
  media = await tempDir('am-stalled-media-');
  db = await freshDatabase(inject('databaseUrl'));
  await Promise.all([
    makeTone(tone('low.mp3'), { frequency: 300, seconds: 2 }),
    makeTone(tone('mid.mp3'), { frequency: 600, seconds: 2 }),
    // Transcoded, so a merge of these runs long enough to be killed twice.
    makeTone(tone('long1.wav'), { frequency: 400, seconds: 50 }),
    makeTone(tone('long2.wav'), { frequency: 800, seconds: 50 }),
  ]);
  env = scaledEnv(db.url);
});

afterAll(async () => {
  listeners.forEach((l) => l.close());
  await Promise.allSettled(processes.map((p) => p.stop()));
  await Promise.allSettled([db?.drop(), media?.cleanup()]);
});

async function start(role: 'web' | 'worker'): Promise<ClusterProcess> {
  const p = await startProcess(role, env);
  processes.push(p);
  return p;
}

async function uploadTo(web: ClusterProcess, s: TestSession, names: string[]) {
  const res = await httpUpload(
    web.url,
    s,
    await Promise.all(names.map(async (n) => ({ filename: n, content: await readFile(tone(n)) }))),
  );
  expect(res.status, res.text).toBe(200);
  return res.json<{ items: Array<{ id: string }> }>().items;
}

const merge = (web: ClusterProcess, s: TestSession, ids: string[]) =>
  httpPost(web.url, s, '/app/merge/mergemp3', { items: ids.map((id) => ({ id })) });

const jobRow = async (sid: string) =>
  (
    await db.query<{ id: string; status: string; attempts: number; error_code: string | null }>(
      'SELECT id, status, attempts, error_code FROM jobs WHERE sid = $1 ORDER BY created_at DESC LIMIT 1',
      [sid],
    )
  )[0];

/** Once `worker` has started run `attempt` of the merge (BullMQ names its taker; the row counts runs). */
async function runningOn(worker: ClusterProcess, jobId: string, attempt: number): Promise<void> {
  const r = new Redis(env.REDIS_URL);
  try {
    await until(
      async () => {
        const by = await r.hget(`audio-merge:merges:${jobId}`, 'pb');
        const row = await db.query<{ status: string; attempts: number }>(
          'SELECT status, attempts FROM jobs WHERE id = $1',
          [jobId],
        );
        return (
          by?.endsWith(`:${worker.pid}`) === true &&
          row[0]?.status === 'running' &&
          row[0]?.attempts === attempt
        );
      },
      { timeoutMs: 60_000, intervalMs: 100, what: `run ${attempt} of ${jobId} on worker ${worker.pid}` },
    );
  } finally {
    r.disconnect();
  }
}

describe('a merge whose web process and both workers died', () => {
  it('is settled by the web process left: status answers "failed" with its code, the channel hears it once, the session merges again', async () => {
    const [webA, webB] = [await start('web'), await start('web')];
    const first = await start('worker');
    const s = await openHttpSession(webA.url);
    const [a, b] = await uploadTo(webA, s, ['long1.wav', 'long2.wav']);
    const status = listenStatus(webB.socketPort, s.cookie, statusChannel(s.appid, s.sid));
    listeners.push(status);
    await status.ready;

    // Queued through A, which is killed while the merge runs: no process waits for it any more.
    void merge(webA, s, [a.id, b.id]).catch(() => undefined);
    await until(async () => (await jobRow(s.sid))?.status === 'running', {
      timeoutMs: 60_000,
      intervalMs: 100,
      what: 'the merge running',
    });
    const jobId = (await jobRow(s.sid)).id;
    await runningOn(first, jobId, 1);
    await webA.kill();
    // Its first run's worker dies; its second (its last) on the next worker dies too.
    await first.kill();
    const second = await start('worker');
    await runningOn(second, jobId, 2);
    await second.kill();
    // The worker that comes next finds it stalled past the limit: BullMQ fails it, and no worker writes that.
    await start('worker');

    await until(async () => (await jobRow(s.sid)).status === 'failed', {
      timeoutMs: 90_000,
      intervalMs: 200,
      what: 'the merge settled',
    });
    expect(await jobRow(s.sid)).toMatchObject({ id: jobId, status: 'failed', error_code: 'interrupted' });
    const shown = await httpGetBytes(webB.url, s, '/app/merge/status');
    expect(JSON.parse(shown.bytes.toString())).toMatchObject({
      state: 'failed',
      code: 'interrupted',
      text: ERRORS.interrupted.message,
    });
    await status.waitFor((d) => d === ERRORS.interrupted.message);
    // A page opened now learns the end at once.
    const late = listenStatus(webB.socketPort, s.cookie, statusChannel(s.appid, s.sid));
    listeners.push(late);
    await late.waitFor((d) => d === ERRORS.interrupted.message);

    // The session's merge is over: another runs, through B, to its result.
    const [low, mid] = await uploadTo(webB, s, ['low.mp3', 'mid.mp3']);
    const next = await merge(webB, s, [low.id, mid.id]);
    expect(next.status, next.text).toBe(200);
    expect(next.json()).toBe('success');
    await status.waitFor((d) => d === '100');
    // Told once, before everything after it.
    expect(status.payloads.filter((p) => p.state === 'failed')).toEqual([
      expect.objectContaining({ data: ERRORS.interrupted.message, state: 'failed' }),
    ]);
  });
});
