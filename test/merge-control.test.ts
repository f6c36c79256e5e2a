// Following a merge to its end through the real app: the requestId in every status, GET status,
// the status a new subscriber is told at once (a restart's failure included), and cancel, which
// stops the merge's ffmpeg processes and leaves nothing behind.
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { statusChannel } from '../src/shared/types.js';
import { INTERRUPTED_MESSAGE } from '../src/server/jobs/job-messages.js';
import { tempDir } from './support/audio-fixtures.js';
import { useMediaApp } from './support/media-app.js';
import { listenStatus, type StatusListener } from './support/echo-client.js';
import { job } from './support/job-kit.js';
import { childrenNamed, waitUntilGone } from './support/processes.js';
import { until } from './support/until.js';
import { sessionHolding, startTestApp, type TestSession } from './support/server-harness.js';

const env = useMediaApp({
  prefix: 'merge-control-',
  tones: {
    'short.mp3': { frequency: 300, seconds: 2 },
    'mid.wav': { frequency: 600, seconds: 20 },
    'long.flac': { frequency: 500, seconds: 300 },
  },
  config: { realtime: true, socketPort: 0, mergeConcurrency: 2 },
});
const { file: tone, sessionWith } = env;

const merge = (s: TestSession, ids: string[], requestId?: string) =>
  env.merge(s, ids, requestId ? { requestId } : {});
const status = async (s: TestSession) =>
  (await env.inject({ method: 'GET', url: '/app/merge/status', headers: { cookie: s.cookie } })).json();
async function listen(s: TestSession): Promise<StatusListener> {
  const l = listenStatus(env.app.realtime.port, s.cookie, statusChannel(s.appid, s.sid));
  await l.ready;
  return l;
}
const of = (l: StatusListener, requestId: string) => l.payloads.filter((p) => p.requestId === requestId);
const scratchJobs = async () =>
  (await readdir(env.app.storage.tmpDir).catch(() => [])).filter((n) => n.startsWith('job-'));

describe('GET status and the requestId', () => {
  it('no merge yet: {"state":"none"}; no session: refused', async () => {
    const s = await env.session();
    expect(await status(s)).toEqual({ state: 'none' });
    expect((await env.inject({ method: 'GET', url: '/app/merge/status' })).statusCode).toBe(403);
  });

  it('every status of a merge carries its requestId, state and percent; GET status tells how it ended', async () => {
    const { s, items } = await sessionWith(['short.mp3', 'mid.wav']);
    const l = await listen(s);
    const res = await merge(
      s,
      items.map((i) => i.id),
      'tab-1',
    );
    expect(res.statusCode, res.body).toBe(200);
    await l.waitFor((d) => d === '100');
    l.close();
    expect(l.payloads.length).toBeGreaterThan(1);
    for (const p of l.payloads) {
      expect(p.requestId).toBe('tab-1');
      expect(['queued', 'running', 'succeeded']).toContain(p.state);
      if (p.state === 'running') expect(p.data).toBe(String(p.percent));
    }
    expect(l.payloads.at(-1)).toEqual({ data: '100', requestId: 'tab-1', state: 'succeeded', percent: 100 });
    expect(await status(s)).toMatchObject({ requestId: 'tab-1', state: 'succeeded', percent: 100 });
  });

  it('a requestId that is not a short name is refused and nothing is queued', async () => {
    const { s, items } = await sessionWith(['short.mp3']);
    for (const bad of ['', 'x'.repeat(101), 'has space', 42]) {
      expect(
        (await env.post(s, '/app/merge/mergemp3', { items: [{ id: items[0].id }], requestId: bad }))
          .statusCode,
      ).toBe(400);
    }
    expect(await status(s)).toEqual({ state: 'none' });
  });

  it("two merges of one session at once: each one's percent rises to its own end", async () => {
    const { s, items } = await sessionWith(['short.mp3', 'mid.wav']);
    const l = await listen(s);
    const [a, b] = await Promise.all([
      merge(s, [items[1].id, items[0].id], 'tab-a'),
      merge(s, [items[0].id], 'tab-b'),
    ]);
    expect([a.statusCode, b.statusCode]).toEqual([200, 200]);
    await l.waitFor(
      () =>
        of(l, 'tab-a').some((p) => p.state === 'succeeded') &&
        of(l, 'tab-b').some((p) => p.state === 'succeeded'),
    );
    l.close();
    for (const id of ['tab-a', 'tab-b']) {
      const percents = of(l, id).flatMap((p) => (typeof p.percent === 'number' ? [p.percent] : []));
      expect(percents, `${id}: ${percents.join(',')}`).toEqual([...percents].sort((x, y) => x - y));
      expect(of(l, id).at(-1)).toMatchObject({ state: 'succeeded', percent: 100 });
    }
    expect(l.payloads.every((p) => p.requestId === 'tab-a' || p.requestId === 'tab-b')).toBe(true);
  });

  it('a new subscriber is told at once how the latest merge stands', async () => {
    const { s, items } = await sessionWith(['short.mp3']);
    expect((await merge(s, [items[0].id], 'earlier')).statusCode).toBe(200);
    const late = await listen(s);
    await late.waitFor(() => true);
    late.close();
    expect(late.payloads[0]).toEqual({ data: '100', requestId: 'earlier', state: 'succeeded', percent: 100 });
  });
});

describe('a merge lost to a restart', () => {
  it('ends failed with a message, which a browser subscribing after the restart is told at once', async () => {
    const data = await tempDir('merge-control-restart-');
    try {
      const first = await startTestApp({ dataDir: data.dir, realtime: true, socketPort: 0 });
      const {
        s,
        items: [item],
      } = await sessionHolding(first.app, [tone('short.mp3')]);
      // What a process killed mid-merge leaves: a job row still "running".
      await first.store.addJob(
        job('killed', s.sid, [item.id], s.appid, {
          status: 'running',
          requestId: 'tab-k',
          percent: 40,
          createdAt: Date.now(),
        }),
      );
      await first.close();

      const second = await startTestApp({ dataDir: data.dir, realtime: true, socketPort: 0 });
      try {
        const l = listenStatus(second.realtime.port, s.cookie, statusChannel(s.appid, s.sid));
        await l.waitFor(() => true);
        l.close();
        expect(l.payloads[0]).toEqual({
          data: INTERRUPTED_MESSAGE,
          requestId: 'tab-k',
          state: 'failed',
          percent: null,
          code: 'interrupted',
        });
        const res = await second.app.inject({
          method: 'GET',
          url: '/app/merge/status',
          headers: { cookie: s.cookie },
        });
        expect(res.json()).toEqual({
          requestId: 'tab-k',
          state: 'failed',
          percent: null,
          text: INTERRUPTED_MESSAGE,
          code: 'interrupted',
        });
      } finally {
        await second.close();
      }
    } finally {
      await data.cleanup();
    }
  });
});

describe('cancel', () => {
  it('stops the merge at once: its ffmpeg processes die, no file is left, mergemp3 answers 409', async () => {
    const { s, items } = await sessionWith(['long.flac', 'short.mp3']);
    const l = await listen(s);
    const answer = merge(
      s,
      items.map((i) => i.id),
      'tab-c',
    );
    // Wait (by turns, not by time) until ffmpeg is at work on it.
    const ffmpegAtWork = async () => {
      for (;;) {
        const found = childrenNamed('ffmpeg');
        if (found.length > 0) return found;
        await new Promise((r) => setTimeout(r, 20));
      }
    };
    await ffmpegAtWork();
    // Another session cannot cancel it, even knowing its requestId.
    const other = await env.session();
    expect((await env.post(other, '/app/merge/cancel', { requestId: 'tab-c' })).statusCode).toBe(404);
    expect(await status(s)).toMatchObject({ requestId: 'tab-c', state: 'running' });
    const pids = await ffmpegAtWork();

    const cancel = await env.post(s, '/app/merge/cancel', { requestId: 'tab-c' });
    expect(cancel.statusCode, cancel.body).toBe(200);
    expect(cancel.json()).toEqual({ ok: true });
    for (const pid of pids) expect(await waitUntilGone(pid)).toBe(true);
    expect(childrenNamed('ffmpeg')).toEqual([]);
    const res = await answer;
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ error: 'The merge was cancelled', code: 'cancelled' });
    expect(await scratchJobs()).toEqual([]);
    expect(await readdir(path.join(env.app.dataDir, 'results', s.sid)).catch(() => [])).toEqual([]);
    expect(await env.app.store.listResults(s.sid)).toEqual([]);
    expect(await status(s)).toMatchObject({
      requestId: 'tab-c',
      state: 'cancelled',
      text: 'The merge was cancelled',
      code: 'cancelled',
    });
    await l.waitFor(() => l.payloads.some((p) => p.state === 'cancelled'));
    l.close();
    expect(l.payloads.at(-1)).toEqual({
      data: 'The merge was cancelled',
      requestId: 'tab-c',
      state: 'cancelled',
      percent: null,
      code: 'cancelled',
    });
  });

  it("{} cancels the session's merge that is waiting or running; with none, 404", async () => {
    const { s, items } = await sessionWith(['long.flac']);
    expect((await env.post(s, '/app/merge/cancel', {})).statusCode).toBe(404);
    const answer = merge(s, [items[0].id]);
    await until(async () => (await status(s)).state === 'running', {
      timeoutMs: 20_000,
      intervalMs: 20,
      what: 'the merge running',
    });
    expect((await env.post(s, '/app/merge/cancel', {})).statusCode).toBe(200);
    expect((await answer).statusCode).toBe(409);
    expect(await status(s)).toMatchObject({ requestId: null, state: 'cancelled' });
  });
});
