// The product as a scaled deployment runs it: two web and two worker processes (real
// `node dist/main.js` with ROLE and the variables of docs/reference/scaling.md) sharing PostgreSQL, Redis and an
// S3-compatible bucket, driven over HTTP (multipart and tus) and a stock Laravel Echo client like a
// browser would.
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { ListObjectsV2Command } from '@aws-sdk/client-s3';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { ERRORS } from '../src/server/errors.js';
import { createS3Client, createS3Objects } from '../src/server/files/s3/s3-objects.js';
import { statusChannel } from '../src/shared/types.js';
import { ffprobeJson, makeTone, tempDir, tools } from './support/audio-fixtures.js';
import { ffprobeChapters } from './support/chapter-readers.js';
import { listenStatus, type StatusListener } from './support/echo-client.js';
import {
  httpGetBytes,
  httpPost,
  httpUpload,
  openHttpSession,
  type HttpAnswer,
} from './support/http-session.js';
import { freshDatabase, type TestDatabase } from './support/pg-db.js';
import { scaledEnv, startProcess, type ClusterProcess } from './support/scaled-cluster.js';
import { multipartBody, type TestSession } from './support/server-harness.js';
import { startRedis, type RedisService } from './support/services.js';
import { tusClient } from './support/tus-requests.js';
import { until } from './support/until.js';

let db: TestDatabase;
let redis: RedisService;
let media: { dir: string; cleanup(): Promise<void> };
let webA: ClusterProcess;
let webB: ClusterProcess;
const workers: ClusterProcess[] = [];
const listeners: StatusListener[] = [];
const tone = (name: string) => path.join(media.dir, name);

beforeAll(async () => {
  media = await tempDir('am-cluster-media-');
  // This suite restarts Redis, so it has its own, persistent one.
  [db, redis] = await Promise.all([freshDatabase(inject('databaseUrl')), startRedis({ persistent: true })]);
  await Promise.all([
    makeTone(tone('low.mp3'), { frequency: 300, seconds: 2 }),
    makeTone(tone('mid.mp3'), { frequency: 600, seconds: 2 }),
    makeTone(tone('high.mp3'), { frequency: 1200, seconds: 2 }),
    makeTone(tone('tagged.mp3'), { frequency: 300, seconds: 2, extraArgs: ['-metadata', 'title=Opening'] }),
    picture(tone('first.png'), 'red', '40x30'),
    picture(tone('second.png'), 'blue', '30x30'),
    // Transcoded, so a merge of these runs long enough to be interrupted.
    makeTone(tone('long1.wav'), { frequency: 400, seconds: 50 }),
    makeTone(tone('long2.wav'), { frequency: 800, seconds: 50 }),
  ]);
  const env = scaledEnv(db.url, redis.url);
  // All four at once: they migrate the same empty database together.
  const started = await Promise.all([
    startProcess('web', env),
    startProcess('web', env),
    startProcess('worker', env),
    startProcess('worker', env),
  ]);
  [webA, webB] = started;
  workers.push(...started.slice(2));
});

afterAll(async () => {
  listeners.forEach((l) => l.close());
  await Promise.allSettled([webA, webB, ...workers].filter(Boolean).map((p) => p.stop()));
  await Promise.allSettled([db?.drop(), redis?.stop(), media?.cleanup()]);
});

function listen(web: ClusterProcess, s: TestSession): StatusListener {
  const l = listenStatus(web.socketPort, s.cookie, statusChannel(s.appid, s.sid));
  listeners.push(l);
  return l;
}

async function uploadTo(web: ClusterProcess, s: TestSession, names: string[]) {
  const res = await httpUpload(
    web.url,
    s,
    await Promise.all(names.map(async (n) => ({ filename: n, content: await readFile(tone(n)) }))),
  );
  expect(res.status, res.text).toBe(200);
  return res.json<{ items: Array<{ id: string; newfilename: string; format: string; filename: string }> }>()
    .items;
}

const listed = async (web: ClusterProcess, s: TestSession) =>
  (await httpPost(web.url, s, '/app/merge/getDataJson', { appid: s.appid })).json<
    Array<{ id: string; filename: string; chapterTitle: string | null; defaultChapterTitle: string }>
  >();

const merge = (web: ClusterProcess, s: TestSession, ids: string[]): Promise<HttpAnswer> =>
  httpPost(web.url, s, '/app/merge/mergemp3', { items: ids.map((id) => ({ id })) });

/** The result ids the host page lists for this session. */
async function resultIds(web: ClusterProcess, s: TestSession): Promise<string[]> {
  const page = await httpGetBytes(web.url, s, '/');
  return [...page.bytes.toString().matchAll(/src="\/results\/[^/]+\/([^".]+)\.mp3"/g)].map((m) => m[1]);
}

/** The pid of the worker process running this merge (BullMQ records its worker's name). */
async function workerRunning(jobId: string): Promise<ClusterProcess> {
  const r = new Redis(redis.url);
  let taker: ClusterProcess | undefined;
  try {
    await until(
      async () => {
        const by = await r.hget(`audio-merge:merges:${jobId}`, 'pb');
        taker = workers.find((p) => by?.endsWith(`:${p.pid}`));
        return taker !== undefined;
      },
      { timeoutMs: 30_000, intervalMs: 100, what: `a worker taking ${jobId}` },
    );
  } finally {
    r.disconnect();
  }
  return taker!;
}

async function latestJobId(s: TestSession): Promise<string> {
  const [row] = await db.query<{ id: string }>(
    'SELECT id FROM jobs WHERE sid = $1 ORDER BY created_at DESC LIMIT 1',
    [s.sid],
  );
  return row.id;
}

const exec = promisify(execFile);

/** A one-colour PNG, as a person's cover. */
async function picture(out: string, colour: string, size: string): Promise<void> {
  await exec(tools.ffmpeg, [
    '-v',
    'error',
    '-y',
    '-f',
    'lavfi',
    '-i',
    `color=c=${colour}:s=${size}`,
    '-frames:v',
    '1',
    out,
  ]);
}

/** POST /app/merge/cover with this PNG as the session's cover. */
async function setCover(web: ClusterProcess, s: TestSession, name: string): Promise<Buffer> {
  const content = await readFile(tone(name));
  const { body, contentType } = multipartBody([{ name: 'file', filename: name, content }]);
  const res = await fetch(`${web.url}/app/merge/cover`, {
    method: 'POST',
    headers: { 'content-type': contentType, cookie: s.cookie, 'x-csrf-token': s.csrf },
    body: new Uint8Array(body),
  });
  expect(res.status, await res.text()).toBe(200);
  return content;
}

/** The names of the session's result objects in the bucket. */
async function resultObjects(sid: string): Promise<string[]> {
  const cfg = inject('s3');
  const client = createS3Client({ ...cfg, forcePathStyle: true });
  try {
    const listed = await client.send(
      new ListObjectsV2Command({ Bucket: cfg.bucket, Prefix: `${sid}/results/` }),
    );
    return (listed.Contents ?? []).map((o) => o.Key!.slice(`${sid}/results/`.length)).sort();
  } finally {
    client.destroy();
  }
}

const resultRows = (s: TestSession) =>
  db.query<{ id: string; file: string; cover: string | null; details: Record<string, string> }>(
    'SELECT id, file, cover, details FROM results WHERE sid = $1',
    [s.sid],
  );

describe('two web and two worker processes', () => {
  it('answers /healthz, and /readyz with the database, queue and files reachable and room on the disk', async () => {
    for (const web of [webA, webB]) {
      expect((await httpGetBytes(web.url, null, '/healthz')).status).toBe(200);
      const ready = await httpGetBytes(web.url, null, '/readyz');
      expect(ready.status).toBe(200);
      expect(JSON.parse(ready.bytes.toString())).toEqual({
        ok: true,
        checks: { database: 'ok', files: 'ok', queue: 'ok', disk: 'ok' },
      });
    }
  });

  it('a session made on web A uploads through A and is listed through B', async () => {
    const s = await openHttpSession(webA.url);
    const items = await uploadTo(webA, s, ['low.mp3', 'mid.mp3']);
    expect((await listed(webB, s)).map((i) => i.filename)).toEqual(['low.mp3', 'mid.mp3']);
    expect((await listed(webB, s)).map((i) => i.id)).toEqual(items.map((i) => i.id));
    // The stored bytes are the uploaded ones, from either web process.
    const played = await httpGetBytes(
      webB.url,
      s,
      `/upload/${s.sid}/${items[0].newfilename}.${items[0].format}`,
      { range: 'bytes=0-99' },
    );
    expect(played.status).toBe(206);
    expect(played.bytes.equals((await readFile(tone('low.mp3'))).subarray(0, 100))).toBe(true);
  });

  it("an MP3's waveform, made at upload, lands in the bucket beside it without a peaks request, and goes with the item", async () => {
    const s = await openHttpSession(webA.url);
    const [item] = await uploadTo(webA, s, ['low.mp3']);
    const bucket = createS3Objects({ ...inject('s3'), forcePathStyle: true });
    const key = `${s.sid}/uploads/${item.newfilename}-peaks.bin`;
    try {
      await until(async () => (await bucket.head(key)) !== undefined, {
        timeoutMs: 30_000,
        what: "the upload's waveform in the bucket",
      });
      const peaks = await httpGetBytes(webB.url, s, `/app/merge/peaks/${item.id}?bins=10`);
      expect(peaks.status).toBe(200);
      expect((JSON.parse(peaks.bytes.toString()) as { peaks: number[] }).peaks).toHaveLength(10);
      expect((await httpPost(webB.url, s, '/app/merge/deleteItem', { id: item.id })).status).toBe(200);
      expect(await bucket.head(key)).toBeUndefined();
    } finally {
      bucket.close();
    }
  });

  it('a resumable (tus) upload through A, resumed after a dropped line, lands in the bucket: B lists and plays it; B does not know the upload (tus needs sticky routing)', async () => {
    const s = await openHttpSession(webA.url);
    const file = tone('long1.wav');
    const total = (await readFile(file)).length;
    const tus = tusClient(webA.url, s);
    const created = await tus.create(total, { filename: 'long1.wav', appid: s.appid });
    expect(created.status, created.body).toBe(201);
    const location = created.headers.location as string;
    const first = await tus.patch(location, file, 0, total, { cutAfter: 1024 * 1024 });
    expect(first.status).toBe(0);
    // The partial upload lives on A's disk only.
    expect((await tusClient(webB.url, s).head(location)).status).toBe(404);
    const offset = Number((await tus.head(location)).headers['upload-offset']);
    expect(offset).toBeGreaterThan(0);
    const rest = await tus.patch(location, file, offset, total);
    expect(rest.status, rest.body).toBe(200);
    const [item] = JSON.parse(rest.body).items as Array<{ id: string; newfilename: string; format: string }>;
    expect((await listed(webB, s)).map((i) => i.id)).toEqual([item.id]);
    const played = await httpGetBytes(webB.url, s, `/upload/${s.sid}/${item.newfilename}.${item.format}`);
    expect(played.status).toBe(200);
    expect(played.bytes.equals(await readFile(file))).toBe(true);
  });

  it('a merge posted through B runs on a worker; Echo on A hears it once each, in order, to "100"; A lists and serves the result', async () => {
    const s = await openHttpSession(webA.url);
    const [low, mid, high] = await uploadTo(webA, s, ['low.mp3', 'mid.mp3', 'high.mp3']);
    const status = listen(webA, s);
    await status.ready;
    const res = await merge(webB, s, [high.id, low.id, mid.id]);
    expect(res.status, res.text).toBe(200);
    expect(res.json()).toBe('success');
    await status.waitFor((d) => d === '100');
    await new Promise((r) => setTimeout(r, 300));

    const percents = status.data.filter((d) => /^\d+$/.test(d)).map(Number);
    expect(percents.at(-1)).toBe(100);
    expect(percents).toEqual([...percents].sort((a, b) => a - b));
    expect(new Set(percents).size).toBe(percents.length);
    expect(status.data.at(-1)).toBe('100');

    const [id] = await resultIds(webA, s);
    const viaA = await httpGetBytes(webA.url, s, `/results/${s.sid}/${id}.mp3?download=1`);
    const viaB = await httpGetBytes(webB.url, s, `/results/${s.sid}/${id}.mp3`);
    expect(viaA.status).toBe(200);
    expect(viaA.headers.get('content-disposition')).toMatch(/attachment; filename="merged-/);
    expect(viaA.bytes.equals(viaB.bytes)).toBe(true);
    const file = path.join(media.dir, 'downloaded.mp3');
    await writeFile(file, viaA.bytes);
    expect(Number((await ffprobeJson(file)).format.duration)).toBeCloseTo(6, 0);
    const tail = await httpGetBytes(webA.url, s, `/results/${s.sid}/${id}.mp3`, { range: 'bytes=-500' });
    expect(tail.status).toBe(206);
    expect(tail.bytes.equals(viaA.bytes.subarray(viaA.bytes.length - 500))).toBe(true);
  });

  it('an M4B with chapters, a title and a cover, posted through A, is made on a worker and served from the bucket through B', async () => {
    const s = await openHttpSession(webA.url);
    const items = await uploadTo(webA, s, ['tagged.mp3', 'mid.mp3', 'high.mp3']);
    // The title tag and a typed chapter title go through PostgreSQL: B lists what A was given.
    const saved = await httpPost(webB.url, s, '/app/merge/saveItem', {
      id: items[1].id,
      chapterTitle: 'Middle',
    });
    expect(saved.status, saved.text).toBe(200);
    expect((await listed(webA, s)).map((i) => [i.chapterTitle, i.defaultChapterTitle])).toEqual([
      [null, 'Opening'],
      ['Middle', 'mid'],
      [null, 'high'],
    ]);
    const cover = await setCover(webB, s, 'first.png');
    const res = await httpPost(webA.url, s, '/app/merge/mergemp3', {
      items: items.map((i) => ({ id: i.id })),
      options: { format: 'm4b', chapters: true, title: 'Tones' },
    });
    expect(res.status, res.text).toBe(200);
    const [row] = await db.query<{ id: string; file: string; download_name: string; format: string }>(
      'SELECT id, file, download_name, format FROM results WHERE sid = $1',
      [s.sid],
    );
    expect(row.format).toBe('m4b');
    expect(row.download_name).toMatch(/^Tones \d{4}-\d{2}-\d{2} \d{4}\.m4b$/);
    const got = await httpGetBytes(webB.url, s, `/results/${s.sid}/${row.id}.m4b?download=1`);
    expect(got.status).toBe(200);
    const file = path.join(media.dir, 'downloaded.m4b');
    await writeFile(file, got.bytes);
    expect(Number((await ffprobeJson(file)).format.duration)).toBeCloseTo(6, 0);
    const chapters = await ffprobeChapters(file);
    expect(chapters.map((c) => c.title)).toEqual(['Opening', 'Middle', 'high']);
    expect(chapters.map((c) => Math.round(c.start))).toEqual([0, 2, 4]);

    // The result's cover: the one it was made with, from either web process, after the session's changed.
    const [result] = await resultRows(s);
    expect(result.details).toMatchObject({ title: 'Tones' });
    await setCover(webA, s, 'second.png');
    for (const web of [webA, webB]) {
      const shown = await httpGetBytes(web.url, s, `/app/merge/resultCover/${result.id}`);
      expect(shown.status).toBe(200);
      expect(shown.headers.get('content-type')).toBe('image/png');
      expect(shown.bytes.equals(cover)).toBe(true);
    }
    const other = await openHttpSession(webB.url);
    expect((await httpGetBytes(webB.url, other, `/app/merge/resultCover/${result.id}`)).status).toBe(403);
    expect((await httpPost(webB.url, other, '/app/merge/deleteResult', { id: result.id })).status).toBe(403);
    expect(await resultObjects(s.sid)).toEqual([result.cover, result.file].sort());

    // Deleted through B: gone from the bucket, and A serves no cover for it.
    expect((await httpPost(webB.url, s, '/app/merge/deleteResult', { id: result.id })).status).toBe(200);
    expect(await resultObjects(s.sid)).toEqual([]);
    expect((await httpGetBytes(webA.url, s, `/app/merge/resultCover/${result.id}`)).status).toBe(404);
  });

  it('session isolation holds across processes: items, files, merges and channels', async () => {
    const owner = await openHttpSession(webA.url);
    const [item] = await uploadTo(webA, owner, ['low.mp3']);
    const other = await openHttpSession(webB.url);
    expect(await listed(webB, { ...other, appid: owner.appid })).toEqual([]);
    expect(
      (await httpGetBytes(webB.url, other, `/upload/${owner.sid}/${item.newfilename}.${item.format}`)).status,
    ).toBe(403);
    expect((await merge(webA, other, [item.id])).status).toBe(403);
    const spy = listenStatus(webA.socketPort, other.cookie, statusChannel(owner.appid, owner.sid));
    listeners.push(spy);
    await spy.ready;
    expect(spy.errors).toEqual([[statusChannel(owner.appid, owner.sid), 403]]);
  });

  it('cancel through web A stops a merge posted through B and running on a worker: mergemp3 answers 409, nothing is listed', async () => {
    const s = await openHttpSession(webA.url);
    const [a, b] = await uploadTo(webA, s, ['long1.wav', 'long2.wav']);
    const status = listen(webA, s);
    await status.ready;
    const answer = merge(webB, s, [a.id, b.id]);
    await status.waitFor((d) => /^\d+$/.test(d) && Number(d) > 0);
    await workerRunning(await latestJobId(s));
    const cancel = await httpPost(webA.url, s, '/app/merge/cancel', {});
    expect(cancel.status, cancel.text).toBe(200);
    expect(cancel.json()).toEqual({ ok: true });
    const res = await answer;
    expect(res.status, res.text).toBe(409);
    expect(res.json()).toMatchObject({ error: ERRORS.cancelled.message, code: 'cancelled' });
    await status.waitFor((d) => d === ERRORS.cancelled.message);
    expect(await resultIds(webA, s)).toEqual([]);
    expect(await db.query('SELECT status FROM jobs WHERE sid = $1', [s.sid])).toEqual([
      { status: 'cancelled' },
    ]);
    // A page opened later on B learns how it ended: from GET status, and at once on subscribing.
    const shown = await httpGetBytes(webB.url, s, '/app/merge/status');
    expect(JSON.parse(shown.bytes.toString())).toMatchObject({
      state: 'cancelled',
      text: ERRORS.cancelled.message,
    });
    const late = listen(webB, s);
    await late.waitFor((d) => d === ERRORS.cancelled.message);
    // Nothing left to cancel: the route says so.
    expect((await httpPost(webA.url, s, '/app/merge/cancel', {})).status).toBe(404);
  });

  it('SIGKILL of the worker running a merge: the other worker finishes it, and one result is listed, with one cover', async () => {
    const s = await openHttpSession(webA.url);
    const [a, b] = await uploadTo(webA, s, ['long1.wav', 'long2.wav']);
    const cover = await setCover(webA, s, 'first.png');
    const status = listen(webA, s);
    await status.ready;
    const answer = merge(webB, s, [a.id, b.id]);
    await status.waitFor((d) => /^\d+$/.test(d) && Number(d) > 0);
    const jobId = await latestJobId(s);
    const victim = await workerRunning(jobId);
    // What a run killed between storing its result and recording it leaves: its file and cover
    // under a run name of its own (put here, as the kill below comes earlier in the run).
    const bucket = createS3Objects({ ...inject('s3'), forcePathStyle: true });
    const dead = path.join(media.dir, 'dead-run.bin');
    await writeFile(dead, 'x');
    try {
      for (const name of [`${jobId}-0dead0ff.mp3`, `${jobId}-0dead0ff-cover.png`])
        await bucket.putFile(`${s.sid}/results/${name}`, dead);
    } finally {
      bucket.close();
    }
    await victim.kill();
    const res = await answer;
    expect(res.status, res.text).toBe(200);
    await status.waitFor((d) => d === '100');
    expect(await resultIds(webA, s)).toHaveLength(1);
    const rows = await db.query<{ status: string; attempts: number }>(
      'SELECT status, attempts FROM jobs WHERE sid = $1',
      [s.sid],
    );
    expect(rows).toEqual([{ status: 'succeeded', attempts: 2 }]);
    // The killed runs left nothing in the bucket: only the result's file and its cover are there.
    const [result] = await resultRows(s);
    expect(await resultObjects(s.sid)).toEqual([result.cover, result.file].sort());
    expect((await httpGetBytes(webB.url, s, `/app/merge/resultCover/${result.id}`)).bytes.equals(cover)).toBe(
      true,
    );
    // The killed worker's place is taken again, for the tests after this one.
    workers.splice(workers.indexOf(victim), 1, await startProcess('worker', scaledEnv(db.url, redis.url)));
  });

  it('a merge survives kill -9 of Redis in the middle of it, and lists one result', async () => {
    const s = await openHttpSession(webA.url);
    const [a, b] = await uploadTo(webA, s, ['long1.wav', 'long2.wav']);
    const status = listen(webA, s);
    await status.ready;
    const answer = merge(webB, s, [a.id, b.id]);
    await status.waitFor((d) => /^\d+$/.test(d) && Number(d) > 0);
    await redis.crash();
    const res = await answer;
    expect(res.status, res.text).toBe(200);
    expect(await resultIds(webA, s)).toHaveLength(1);
    const rows = await db.query<{ status: string }>('SELECT status FROM jobs WHERE sid = $1', [s.sid]);
    expect(rows).toEqual([{ status: 'succeeded' }]);
  });

  it('a worker listens on no port; each role logs its configuration and exits 0 on SIGTERM', async () => {
    const worker = workers[0];
    expect(listeningPorts(worker.pid)).toEqual([]);
    expect(listeningPorts(webB.pid).sort()).toEqual([Number(new URL(webB.url).port), webB.socketPort].sort());
    expect(worker.output()).toContain('"role":"worker"');
    expect(webB.output()).toContain('"role":"web"');
    expect(await worker.stop()).toBe(0);
    expect(await webB.stop()).toBe(0);
  });
});

/** TCP ports a process listens on, from /proc (its socket inodes against the kernel's table). */
function listeningPorts(pid: number): number[] {
  const inodes = new Set(
    readdirSync(`/proc/${pid}/fd`).flatMap((fd) => {
      try {
        return [/^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`))?.[1] ?? []].flat();
      } catch {
        return [];
      }
    }),
  );
  const rows = ['/proc/net/tcp', '/proc/net/tcp6'].flatMap((f) =>
    readFileSync(f, 'utf8').trim().split('\n').slice(1),
  );
  return rows
    .map((r) => r.trim().split(/\s+/))
    .filter((c) => c[3] === '0A' && inodes.has(c[9]))
    .map((c) => parseInt(c[1].split(':')[1], 16));
}
