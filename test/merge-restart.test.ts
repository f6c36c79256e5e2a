// Jobs survive a restart: what a dead process left half done is failed clearly, cleaned up, and
// never listed as a result. Two apps in turn on the same DATA_DIR.
import { mkdir, readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { INTERRUPTED_MESSAGE, SHUTDOWN_MESSAGE } from '../src/server/jobs/job-messages.js';
import { makeTone, tempDir } from './support/audio-fixtures.js';
import { job } from './support/job-kit.js';
import { until } from './support/until.js';
import { postJson, sessionHolding, startTestApp, type TestApp } from './support/server-harness.js';

let data: { dir: string; cleanup: () => Promise<void> };
const apps: TestApp[] = [];

beforeEach(async () => {
  data = await tempDir('merge-restart-');
});
afterEach(async () => {
  for (const a of apps.splice(0)) await a.close();
  await data.cleanup();
});

async function boot(): Promise<TestApp> {
  const a = await startTestApp({ dataDir: data.dir, mergeConcurrency: 1 });
  apps.push(a);
  return a;
}

const jobFiles = async (a: TestApp) =>
  (await readdir(a.storage.tmpDir).catch(() => [])).filter((n) => n.startsWith('job-'));

describe('restart in the middle of a merge', () => {
  it('a job a dead process left running is failed with a clear message, its files gone, no result listed', async () => {
    const first = await boot();
    const tone = await makeTone(path.join(data.dir, 'seg.mp3'), { seconds: 1 });
    const {
      s,
      items: [item],
    } = await sessionHolding(first.app, [tone]);
    // What a process killed mid-merge leaves: a running row, a half-written work folder, and a
    // result file moved into place but never recorded.
    await first.store.addJob(
      job('crashed-job', s.sid, [item.id], s.appid, {
        status: 'running',
        createdAt: Date.now(),
        startedAt: Date.now(),
      }),
    );
    const work = path.join(first.storage.tmpDir, 'job-crashed-job');
    await mkdir(work, { recursive: true });
    await writeFile(path.join(work, 'merged.mp3'), Buffer.alloc(4096, 0xff));
    await mkdir(first.storage.resultsDir(s.sid), { recursive: true });
    await writeFile(path.join(first.storage.resultsDir(s.sid), 'crashed-job.mp3'), Buffer.alloc(4096, 0xff));
    await first.close();
    apps.splice(0);

    const second = await boot();
    expect(await second.store.getJob('crashed-job')).toMatchObject({
      status: 'failed',
      error: INTERRUPTED_MESSAGE,
    });
    expect(await second.store.listResults(s.sid)).toEqual([]);
    expect(await readdir(second.storage.resultsDir(s.sid)).catch(() => [])).toEqual([]);
    expect(await jobFiles(second)).toEqual([]);
    const page = await second.app.inject({ method: 'GET', url: '/', headers: { cookie: s.cookie } });
    expect(page.body).not.toContain('/results/');
  });

  it('stopping the server mid-merge answers 503, and leaves no result or temp file across a restart', async () => {
    const first = await boot();
    const long = await makeTone(path.join(data.dir, 'long.wav'), { seconds: 60 });
    const {
      s,
      items: [item],
    } = await sessionHolding(first.app, [long]);
    const answer = postJson(first.app, s, '/app/merge/mergemp3', { items: [{ id: item.id }] });
    // Wait (by turns, not by time) until the job is running, then stop with no grace.
    await until(async () => (await first.store.jobsWithStatus('running')).length > 0, {
      timeoutMs: 20_000,
      intervalMs: 0,
      what: 'the merge running',
    });
    await first.jobs.shutdown(0);
    const res = await answer;
    expect(res.statusCode).toBe(503);
    expect(JSON.parse(res.body).error).toBe(SHUTDOWN_MESSAGE);
    await first.close();
    apps.splice(0);

    const second = await boot();
    const jobs = (await second.store.jobsWithStatus('failed')).filter((j) => j.sid === s.sid);
    expect(jobs.map((j) => j.error)).toEqual([SHUTDOWN_MESSAGE]);
    expect(await second.store.listResults(s.sid)).toEqual([]);
    expect(await jobFiles(second)).toEqual([]);
  });
});
