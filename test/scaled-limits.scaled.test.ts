// The scaled mode keeps the limits of one process: real `node dist/main.js` web and worker
// processes on PostgreSQL, Redis (BullMQ) and a bucket. A file whose sample rate no real audio
// has is refused at upload; a session has at most 3 merges queued or running; the
// worker takes another session's first merge before a session's second, and each waiting merge
// is told its own place; the realtime port refuses handshakes without a session.
import { execFile } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { io } from 'socket.io-client';
import { afterAll, beforeAll, expect, inject, it, onTestFinished } from 'vitest';
import { tempDir, tools, makeTone } from './support/audio-fixtures.js';
import { httpPost, httpUpload, openHttpSession, type HttpAnswer } from './support/http-session.js';
import { freshDatabase, type TestDatabase } from './support/pg-db.js';
import { scaledEnv, startProcess, type ClusterProcess } from './support/scaled-cluster.js';
import type { TestSession } from './support/server-harness.js';
import { TEST_ORIGIN } from './support/test-origin.js';

let db: TestDatabase;
let media: { dir: string; cleanup(): Promise<void> };
let web: ClusterProcess;
let worker: ClusterProcess;
const file = (name: string) => path.join(media.dir, name);

/** A WAV of `dataBytes` of silence whose header says `rate` Hz (stereo, 16 bits). */
function wavClaiming(rate: number, dataBytes: number): Buffer {
  const h = Buffer.alloc(44);
  h.write('RIFF', 0);
  h.writeUInt32LE(36 + dataBytes, 4);
  h.write('WAVEfmt ', 8);
  h.writeUInt32LE(16, 16);
  h.writeUInt16LE(1, 20);
  h.writeUInt16LE(2, 22);
  h.writeUInt32LE(rate, 24);
  h.writeUInt32LE(rate * 4, 28);
  h.writeUInt16LE(4, 32);
  h.writeUInt16LE(16, 34);
  h.write('data', 36);
  h.writeUInt32LE(dataBytes, 40);
  return Buffer.concat([h, Buffer.alloc(dataBytes)]);
}

beforeAll(async () => {
  media = await tempDir('am-scaled-limits-');
  db = await freshDatabase(inject('databaseUrl'));
  // 882 KB whose header says 1 Hz: 220,500 s of "audio".
  await writeFile(file('one-hertz.wav'), wavClaiming(1, 882_000));
  // Three hours of 8 kHz silence: a small upload whose MP3 merge runs far longer than the test.
  await promisify(execFile)(tools.ffmpeg, [
    ...['-v', 'error', '-y', '-f', 'lavfi', '-i', 'anullsrc=r=8000:cl=mono', '-t', '10800'],
    ...['-c:a', 'flac', file('three-hours.flac')],
  ]);
  await makeTone(file('tone.mp3'), { seconds: 1 });
  const env = { ...scaledEnv(db.url), MERGE_CONCURRENCY: '1' };
  [web, worker] = await Promise.all([startProcess('web', env), startProcess('worker', env)]);
});

afterAll(async () => {
  await Promise.allSettled([web, worker].filter(Boolean).map((p) => p.stop()));
  await Promise.allSettled([db?.drop(), media?.cleanup()]);
});

async function withItem(name: string): Promise<TestSession & { item: string }> {
  const s = await openHttpSession(web.url);
  const res = await httpUpload(web.url, s, [{ filename: name, content: await readFile(file(name)) }]);
  expect(res.status, res.text).toBe(200);
  return { ...s, item: res.json<{ items: Array<{ id: string }> }>().items[0].id };
}

const merge = (s: TestSession, ids: string[], requestId?: string): Promise<HttpAnswer> =>
  httpPost(web.url, s, '/app/merge/mergemp3', { items: ids.map((id) => ({ id })), requestId });

const jobsOf = (s: TestSession) =>
  db.query<{ request_id: string; status: string; status_text: string; started_at: string | null }>(
    'SELECT request_id, status, status_text, started_at FROM jobs WHERE sid = $1 ORDER BY created_at',
    [s.sid],
  );

it('refuses at upload the WAV whose header says 1 Hz, naming it, and stores nothing', async () => {
  const s = await openHttpSession(web.url);
  const content = await readFile(file('one-hertz.wav'));
  const res = await httpUpload(web.url, s, [{ filename: 'one-hertz.wav', content }]);
  expect(res.status, res.text).toBe(422);
  expect(res.json()).toMatchObject({ code: 'bad-rate', error: expect.stringContaining('one-hertz.wav') });
  expect(await jobsOf(s)).toEqual([]);
});

it("caps a session at 3 merges and takes another session's first merge before its second", async () => {
  const a = await withItem('three-hours.flac');
  const b = await withItem('tone.mp3');
  // Whatever happens here, the worker is left free (a failed attempt's merges would hold it).
  onTestFinished(async () => {
    for (const id of ['a1', 'a2', 'a3']) await httpPost(web.url, a, '/app/merge/cancel', { requestId: id });
  });
  const answers: Record<string, Promise<HttpAnswer>> = { a1: merge(a, [a.item], 'a1') };
  await expect
    .poll(async () => (await jobsOf(a)).map((j) => j.status), { timeout: 60_000 })
    .toEqual(['running']);
  // One after the other, so each knows its turn in its session.
  answers.a2 = merge(a, [a.item], 'a2');
  await expect.poll(async () => (await jobsOf(a)).length, { timeout: 30_000 }).toBe(2);
  answers.a3 = merge(a, [a.item], 'a3');
  await expect.poll(async () => (await jobsOf(a)).length, { timeout: 30_000 }).toBe(3);

  const fourth = await merge(a, [a.item], 'a4');
  expect(fourth.status, fourth.text).toBe(429);
  expect(fourth.json()).toMatchObject({ code: 'too-many-merges' });
  expect((await jobsOf(a)).map((j) => j.request_id)).toEqual(['a1', 'a2', 'a3']);

  answers.b1 = merge(b, [b.item], 'b1');
  await expect.poll(async () => (await jobsOf(b)).length, { timeout: 30_000 }).toBe(1);
  // Each is told its own place: b's only merge next, then a's own two.
  const places = async () =>
    [...(await jobsOf(b)), ...(await jobsOf(a))]
      .filter((j) => j.status === 'queued')
      .map((j) => `${j.request_id}: ${j.status_text}`);
  await expect
    .poll(places, { timeout: 30_000 })
    .toEqual([
      'b1: Waiting: 1 merge ahead of yours',
      'a2: Waiting: 2 merges ahead of yours',
      'a3: Waiting: 3 merges ahead of yours',
    ]);
  // The worker is free again: b's only merge goes before a's second and third.
  expect((await httpPost(web.url, a, '/app/merge/cancel', { requestId: 'a1' })).status).toBe(200);
  const served = await answers.b1;
  expect(served.status, served.text).toBe(200);
  expect(served.json()).toBe('success');
  const [b1] = await jobsOf(b);
  const [, a2, a3] = await jobsOf(a);
  for (const later of [a2, a3])
    expect(later.started_at === null || Number(later.started_at) >= Number(b1.started_at)).toBe(true);

  for (const id of ['a2', 'a3'])
    expect((await httpPost(web.url, a, '/app/merge/cancel', { requestId: id })).status).toBe(200);
  const ended = await Promise.all(['a1', 'a2', 'a3'].map((id) => answers[id]));
  expect(ended.map((r) => [r.status, r.json<{ code: string }>().code])).toEqual(
    Array(3).fill([409, 'cancelled']),
  );
});

it('refuses 120 realtime handshakes without a session cookie', async () => {
  const attempt = () =>
    new Promise<'connected' | 'refused'>((resolve) => {
      const socket = io(`http://127.0.0.1:${web.socketPort}`, {
        path: '/socket.io',
        transports: ['websocket'],
        extraHeaders: { Origin: TEST_ORIGIN },
        reconnection: false,
        forceNew: true,
      });
      const end = (how: 'connected' | 'refused') => {
        socket.close();
        resolve(how);
      };
      socket.once('connect', () => end('connected'));
      socket.once('connect_error', () => end('refused'));
    });
  const results = await Promise.all(Array.from({ length: 120 }, attempt));
  expect(results.filter((r) => r === 'refused')).toHaveLength(120);
});
