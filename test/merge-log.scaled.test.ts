// What an operator greps on a scaled deployment: the worker that ran a merge logs one line when
// it ends, with its id, outcome, format, inputs, length, seconds, fallbacks and a failure's code;
// and the worker's own METRICS_PORT counts it. One web and one worker process, real services.
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createS3Objects } from '../src/server/files/s3/s3-objects.js';
import { makeTone, tempDir } from './support/audio-fixtures.js';
import { httpPost, httpUpload, openHttpSession } from './support/http-session.js';
import { freshDatabase, type TestDatabase } from './support/pg-db.js';
import { parsePrometheusText } from './support/prometheus-text.js';
import { scaledEnv, startProcess, type ClusterProcess } from './support/scaled-cluster.js';
import { freePortFrom } from './support/services.js';
import type { TestSession } from './support/server-harness.js';
import { until } from './support/until.js';

let db: TestDatabase;
let media: { dir: string; cleanup(): Promise<void> };
let web: ClusterProcess;
let worker: ClusterProcess;
let metricsPort: number;
const tone = (name: string) => path.join(media.dir, name);

beforeAll(async () => {
  media = await tempDir('am-merge-log-media-');
  db = await freshDatabase(inject('databaseUrl'));
  await Promise.all([
    makeTone(tone('a.mp3'), { frequency: 300, seconds: 2 }),
    makeTone(tone('b.wav'), { frequency: 600, seconds: 3 }),
  ]);
  metricsPort = await freePortFrom();
  const env = scaledEnv(db.url);
  // The only worker on this run's queue: every merge here is its.
  [web, worker] = await Promise.all([
    startProcess('web', env),
    startProcess('worker', { ...env, METRICS_PORT: String(metricsPort) }),
  ]);
});

afterAll(async () => {
  await Promise.allSettled([web, worker].filter(Boolean).map((p) => p.stop()));
  await Promise.allSettled([db?.drop(), media?.cleanup()]);
});

async function uploadAll(s: TestSession, names: string[]) {
  const res = await httpUpload(
    web.url,
    s,
    await Promise.all(names.map(async (n) => ({ filename: n, content: await readFile(tone(n)) }))),
  );
  expect(res.status, res.text).toBe(200);
  return res.json<{ items: Array<{ id: string; newfilename: string; format: string }> }>().items;
}

/** The worker's JSON log line that ends the merge asked with `requestId`. */
async function endLine(requestId: string): Promise<Record<string, unknown>> {
  let found: Record<string, unknown> | undefined;
  await until(
    () => {
      found = worker
        .output()
        .split('\n')
        .filter((l) => l.startsWith('{'))
        .map((l) => JSON.parse(l) as Record<string, unknown>)
        .find((l) => l.requestId === requestId && typeof l.outcome === 'string');
      return found !== undefined;
    },
    { timeoutMs: 30_000, intervalMs: 100, what: `the worker's line for ${requestId}` },
  );
  return found!;
}

async function mergesCounted(labels: Record<string, string>): Promise<number> {
  const res = await fetch(`http://127.0.0.1:${metricsPort}/metrics`);
  return parsePrometheusText(await res.text()).value('audio_merge_merges_total', labels) ?? 0;
}

describe('one line per merge, on the worker that ran it', () => {
  it('says how a merge succeeded, and the worker counts it', async () => {
    const s = await openHttpSession(web.url);
    const items = await uploadAll(s, ['a.mp3', 'b.wav']);
    const res = await httpPost(web.url, s, '/app/merge/mergemp3', {
      items: items.map((i) => ({ id: i.id })),
      options: { format: 'm4b' },
      requestId: 'ok-1',
    });
    expect(res.status, res.text).toBe(200);
    const line = await endLine('ok-1');
    expect(line).toMatchObject({
      msg: 'merge succeeded',
      outcome: 'succeeded',
      format: 'm4b',
      inputs: 2,
      fallbacks: [],
      code: null,
    });
    expect(typeof line.job).toBe('string');
    expect(line.length as number).toBeGreaterThan(4.9);
    expect(line.length as number).toBeLessThan(5.1);
    expect(line.seconds as number).toBeGreaterThan(0);
    expect(line.engineSeconds as number).toBeLessThanOrEqual(line.seconds as number);
    expect(web.output()).not.toContain('"requestId":"ok-1","outcome"');
    expect(await mergesCounted({ outcome: 'succeeded', format: 'm4b' })).toBe(1);
  });

  it("says how a merge failed, with the failure's code", async () => {
    const s = await openHttpSession(web.url);
    const [good, bad] = await uploadAll(s, ['a.mp3', 'b.wav']);
    // The stored upload damaged in the bucket: the worker's engine refuses it.
    const bucket = createS3Objects({ ...inject('s3'), forcePathStyle: true });
    const damaged = path.join(media.dir, 'damaged.bin');
    await writeFile(damaged, 'no longer audio');
    try {
      await bucket.putFile(`${s.sid}/uploads/${bad.newfilename}.${bad.format}`, damaged);
    } finally {
      bucket.close();
    }
    const res = await httpPost(web.url, s, '/app/merge/mergemp3', {
      items: [{ id: good.id }, { id: bad.id }],
      requestId: 'bad-1',
    });
    expect(res.status).toBeGreaterThanOrEqual(400);
    const { code } = res.json<{ code: string }>();
    const line = await endLine('bad-1');
    expect(line).toMatchObject({ msg: 'merge failed', outcome: 'failed', format: 'mp3', inputs: 2, code });
    expect(line.length).toBeNull();
    expect(await mergesCounted({ outcome: 'failed', format: 'mp3' })).toBe(1);
  });
});
