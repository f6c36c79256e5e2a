// The merge route on its own: a bare Fastify with a session taken from a test header, the real
// in-process job queue over an in-memory store, and a scripted merge. The whole app is tested in test/.
import Fastify, { type FastifyInstance } from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { InputError, OutputError } from '../../../engine/index.js';
import { clockAt } from '../../../../test/support/clock-at.js';
import { statusChannel } from '../../../shared/types.js';
import { tempDir } from '../../../../test/support/audio-fixtures.js';
import { MemoryStore } from '../../../../test/support/memory-store.js';
import { resolveConfig } from '../../config.js';
import { AppError } from '../errors.js';
import { createInProcessQueue } from '../../jobs/in-process/in-process-queue.js';
import { createMergeProcessor } from '../../jobs/merge-processor.js';
import { downloadName } from '../../jobs/job-messages.js';
import { broadcastJobStatus } from '../../realtime/status-broadcasts.js';
import {
  diskStorage,
  fakeTools,
  item,
  RecordingBroadcaster,
  scriptedMerge,
  silentLog,
} from '../../../../test/support/job-kit.js';
import { mergeRoutes, outcomeError } from './merge.js';

let app: FastifyInstance;
let store: MemoryStore;
let realtime: RecordingBroadcaster;
let cleanup: () => Promise<void>;
let script: NonNullable<Parameters<typeof scriptedMerge>[0]>;
let calls: ReturnType<typeof scriptedMerge>['calls'];
/** The server's clock in these tests: time stands still. */
const NOW = Date.UTC(2026, 10, 21, 14, 30);

beforeEach(async () => {
  const tmp = await tempDir('merge-route-');
  cleanup = tmp.cleanup;
  store = new MemoryStore();
  realtime = new RecordingBroadcaster();
  for (const sid of ['S1', 'S2']) await store.createSession(`h-${sid}`, sid, 'csrf', 0);
  const items = [
    ...['a.mp3', 'b.wav', 'c.flac'].map((name, n) => item('S1', n, name)),
    item('S1', 9, 'other.mp3', 'other-app'),
    item('S2', 0, 'bob.mp3'),
  ];
  for (const i of items) await store.addItemIfUnder(i, 100);
  script = {};
  // Read at call time, so a test may script a failure after setup.
  const scripted = scriptedMerge(script);
  calls = scripted.calls;
  const files = diskStorage(tmp.dir);
  const clock = clockAt(() => NOW);
  const processor = createMergeProcessor({
    store,
    files,
    tools: fakeTools,
    merge: scripted.merge,
    engineConcurrency: 1,
    clock,
  });
  const jobs = createInProcessQueue({ store, files, processor, concurrency: 1, log: silentLog, clock });
  broadcastJobStatus(jobs.events, realtime);
  app = Fastify();
  app.decorateRequest('amSession', null);
  app.addHook('onRequest', async (request) => {
    request.amSession = (await store.sessionBySid(String(request.headers['x-test-sid']))) ?? null;
  });
  app.setErrorHandler((error, _request, reply) =>
    error instanceof AppError
      ? reply.status(error.status).send({ error: error.message })
      : reply.status(500).send({ error: 'internal' }),
  );
  await app.register(async (scope) =>
    mergeRoutes(scope, { store, jobs, config: resolveConfig({ maxFiles: 5 }), clock }),
  );
});

afterEach(async () => {
  await app.close();
  await cleanup();
});

const post = (body: unknown, sid = 'S1') =>
  app.inject({
    method: 'POST',
    url: '/app/merge/mergemp3',
    headers: { 'x-test-sid': sid },
    payload: body as object,
  });

describe('POST /app/merge/mergemp3', () => {
  it('answers the JSON string "success" once the merge has finished, in the order asked', async () => {
    const res = await post({
      items: [{ id: 'item-S1-2', newfilename: '../../etc/passwd' }, { id: 'item-S1-0' }, { id: 'item-S1-2' }],
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.json()).toBe('success');
    expect(calls[0].opts.displayNames).toEqual(['c.flac', 'a.mp3', 'c.flac']);
    expect(calls[0].inputs.every((p) => !p.includes('passwd'))).toBe(true);
    const [job] = store.jobs.values();
    expect(job).toMatchObject({
      sid: 'S1',
      appid: 'app',
      status: 'succeeded',
      itemIds: ['item-S1-2', 'item-S1-0', 'item-S1-2'],
      createdAt: NOW,
      startedAt: NOW,
      finishedAt: NOW,
    });
    expect(await store.listResults('S1')).toEqual([
      expect.objectContaining({ createdAt: NOW, downloadName: downloadName(new Date(NOW)) }),
    ]);
    expect(realtime.dataOn(statusChannel('app', 'S1')).at(-1)).toBe('100');
  });

  it('merges in the format the options ask for, stored and named with its extension, chapters kept', async () => {
    const res = await post({
      items: [{ id: 'item-S1-0' }, { id: 'item-S1-1' }],
      options: { format: 'm4b', title: 'My Book', chapters: true },
      requestId: 'req-1',
    });
    expect(res.statusCode).toBe(200);
    expect(calls[0].opts).toMatchObject({ format: 'm4b', title: 'My Book', chapters: true });
    expect(calls[0].output).toMatch(/merged\.m4b$/);
    const [result] = await store.listResults('S1');
    expect(result).toMatchObject({
      format: 'm4b',
      file: `${result.id}.m4b`,
      chapters: [
        { title: 'a.mp3', start: 0, end: 1 },
        { title: 'b.wav', start: 1, end: 2 },
      ],
    });
    expect(result.downloadName).toMatch(/^My Book \d{4}-\d\d-\d\d \d{4}\.m4b$/);
    const [job] = store.jobs.values();
    expect(job).toMatchObject({
      requestId: 'req-1',
      options: { format: 'm4b', title: 'My Book', chapters: true },
    });
    // The same title again: another name, never the same download name twice.
    await post({ items: [{ id: 'item-S1-0' }], options: { format: 'm4b', title: 'My Book' } });
    const names = (await store.listResults('S1')).map((r) => r.downloadName);
    expect(new Set(names).size).toBe(2);
  });

  it('makes an MP3 exactly as before when no options are given', async () => {
    await post({ items: [{ id: 'item-S1-0' }] });
    expect(calls[0].opts.format).toBe('mp3');
    const [result] = await store.listResults('S1');
    expect(result).toMatchObject({ format: 'mp3', file: `${result.id}.mp3` });
    expect(result.downloadName).toMatch(/^merged-\d{4}-\d\d-\d\d-\d{4}\.mp3$/);
  });

  it.each([
    [{ format: 'aiff' }, 'Option "format" must be one of mp3, m4b, m4a, opus, ogg, flac, wav'],
    [{ bitrate: 'high' }, 'Option "bitrate" must be a whole number of kb/s from 8 to 320'],
    [{ speed: 2 }, 'Unknown option "speed"'],
  ])('refuses the invalid option %j with 400 naming it, and queues nothing', async (options, message) => {
    const res = await post({ items: [{ id: 'item-S1-0' }], options });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ error: message });
    expect(store.jobs.size).toBe(0);
    expect(calls).toHaveLength(0);
  });

  it('refuses an item from another session with 403 and queues nothing', async () => {
    const res = await post({ items: [{ id: 'item-S1-0' }, { id: 'item-S2-0' }] });
    expect(res.statusCode).toBe(403);
    expect(res.json().error).toMatch(/does not belong/);
    expect(store.jobs.size).toBe(0);
    expect(calls).toHaveLength(0);
  });

  it('refuses an unknown id the same way as a foreign one', async () => {
    expect((await post({ items: [{ id: 'nope' }] })).statusCode).toBe(403);
    expect(store.jobs.size).toBe(0);
  });

  it('refuses a request without a session', async () => {
    expect((await post({ items: [{ id: 'item-S1-0' }] }, 'none')).statusCode).toBe(403);
  });

  it('refuses malformed bodies with 400 and a reason', async () => {
    for (const body of [
      {},
      { items: 'x' },
      { items: [] },
      { items: [{ id: 5 }] },
      { items: [null] },
      { items: Array(6).fill({ id: 'item-S1-0' }) },
    ]) {
      const res = await post(body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(typeof res.json().error).toBe('string');
    }
    expect((await post({ items: [{ id: 'item-S1-0' }, { id: 'item-S1-9' }] })).statusCode).toBe(400);
    expect(store.jobs.size).toBe(0);
  });

  it('answers 422 naming the original file when an input is not usable', async () => {
    script.failWith = () => new InputError('/x/stored1.mp3', 'not-audio', 'not audio (no audio stream)', 1);
    const res = await post({ items: [{ id: 'item-S1-0' }, { id: 'item-S1-1' }] });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toEqual({ error: 'Could not merge: b.wav is not usable audio' });
    expect([...store.jobs.values()][0]).toMatchObject({
      status: 'failed',
      error: 'Could not merge: b.wav is not usable audio',
    });
  });

  it('tells the status channel and the answer which input failed, by code and original name', async () => {
    script.failWith = () => new InputError('/x/stored1.mp3', 'not-audio', 'not audio (no audio stream)', 1);
    const res = await post({ items: [{ id: 'item-S1-0' }, { id: 'item-S1-1' }] });
    expect(res.statusCode).toBe(422);
    expect(realtime.payloadsOn(statusChannel('app', 'S1')).at(-1)).toMatchObject({
      state: 'failed',
      data: 'Could not merge: b.wav is not usable audio',
      code: 'not-audio',
      file: 'b.wav',
    });
    // The whole app's error handler puts an AppError's extra fields in the answer.
    const answer = outcomeError({ state: 'failed', message: 'm', code: 'not-audio', file: 'b.wav' });
    expect(answer.extra).toEqual({ file: 'b.wav' });
  });

  it('names no file for a failure that is not about one input', async () => {
    script.failWith = () => new Error('disk on fire');
    await post({ items: [{ id: 'item-S1-0' }] });
    const last = realtime.payloadsOn(statusChannel('app', 'S1')).at(-1);
    expect(last).toMatchObject({ state: 'failed', code: 'mergeFailed' });
    expect(last).not.toHaveProperty('file');
  });

  it('answers 507 "The server\'s disk is full" when the disk fills during the merge, and nothing is kept', async () => {
    script.failWith = () =>
      new OutputError('cannot write /data/tmp/job-x/merged.mp3: no space left on the device', 'disk-full');
    const res = await post({ items: [{ id: 'item-S1-0' }] });
    expect(res.statusCode).toBe(507);
    expect(res.json()).toEqual({ error: "The server's disk is full" });
    expect([...store.jobs.values()][0]).toMatchObject({
      status: 'failed',
      error: "The server's disk is full",
    });
    expect(store.results).toEqual([]);
  });

  it('answers 500 with a plain message when the merge breaks inside', async () => {
    script.failWith = () => new Error('disk on fire');
    const res = await post({ items: [{ id: 'item-S1-0' }] });
    expect(res.statusCode).toBe(500);
    expect(res.json().error).not.toMatch(/fire/);
  });
});
