// The merge as a person meets it, through the real app: page, uploads, getDataJson, mergemp3,
// progress on a stock laravel-echo client, the result on the page and in the ears.
import { readdir, writeFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { statusChannel } from '../src/shared/types.js';
import { decodePcm, dominantFrequency } from './support/audio-fixtures.js';
import { useMediaApp } from './support/media-app.js';
import { listenStatus } from './support/echo-client.js';
import type { TestSession } from './support/server-harness.js';

const env = useMediaApp({
  prefix: 'merge-flow-media-',
  tones: {
    'low.mp3': { frequency: 300, seconds: 2 },
    'mid.wav': { frequency: 600, seconds: 2, sampleRate: 22050, channels: 1 },
    'high.flac': { frequency: 1200, seconds: 2 },
    'long.wav': { frequency: 500, seconds: 60 },
  },
  config: { realtime: true, socketPort: 0, mergeConcurrency: 1 },
});
const { uploadAll } = env;
const merge = (session: TestSession, ids: string[]) => env.merge(session, ids);

const tmpEntries = async () =>
  (await readdir(env.app.storage.tmpDir).catch(() => [])).filter((n) => n.startsWith('job-'));

describe('merging through the app', () => {
  it('round trip: upload three tones, merge in a new order, watch progress to 100, hear the new order', async () => {
    const s = await env.session();
    const items = await uploadAll(s, ['low.mp3', 'mid.wav', 'high.flac']);
    expect(items.map((i) => i.filename)).toEqual(['low.mp3', 'mid.wav', 'high.flac']);
    for (const i of items)
      expect(Object.keys(i)).toEqual(
        expect.arrayContaining(['id', 'sid', 'newfilename', 'format', 'filename']),
      );

    const status = listenStatus(env.app.realtime.port, s.cookie, statusChannel(s.appid, s.sid));
    await status.ready;
    const [low, mid, high] = items;
    const res = await merge(s, [high.id, low.id, mid.id]);
    expect(res.statusCode, res.body).toBe(200);
    expect(JSON.parse(res.body)).toBe('success');
    await status.waitFor((d) => d === '100');
    status.close();

    const percents = status.data.map(Number);
    expect(
      percents.every((p) => Number.isInteger(p) && p >= 0 && p <= 100),
      status.data.join(','),
    ).toBe(true);
    expect(percents).toEqual([...percents].sort((a, b) => a - b));
    expect(status.data.at(-1)).toBe('100');
    expect(status.errors).toEqual([]);

    const page = await env.inject({ method: 'GET', url: '/', headers: { cookie: s.cookie } });
    const [result] = await env.app.store.listResults(s.sid);
    expect(result.sources).toEqual(['high.flac', 'low.mp3', 'mid.wav']);
    const href = `/results/${s.sid}/${result.id}.mp3`;
    expect(page.body).toContain(href);

    const file = await env.inject({ method: 'GET', url: href, headers: { cookie: s.cookie } });
    expect(file.statusCode).toBe(200);
    const saved = env.file('downloaded.mp3');
    await writeFile(saved, file.rawPayload);
    const pcm = await decodePcm(saved);
    expect(pcm.length / 8000).toBeGreaterThan(5.8);
    expect(pcm.length / 8000).toBeLessThan(6.3);
    const heard = [1, 3, 5].map((t) => dominantFrequency(pcm, t - 0.5, t + 0.5));
    expect(heard[0]).toBeGreaterThan(1100);
    expect(heard[0]).toBeLessThan(1300);
    expect(heard[1]).toBeGreaterThan(270);
    expect(heard[1]).toBeLessThan(330);
    expect(heard[2]).toBeGreaterThan(550);
    expect(heard[2]).toBeLessThan(650);
    expect(await tmpEntries()).toEqual([]);
  });

  it('refuses foreign item ids with 403 and records no job', async () => {
    const alice = await env.session();
    const bob = await env.session();
    const [bobsItem] = await uploadAll(bob, ['low.mp3']);
    const [alicesItem] = await uploadAll(alice, ['mid.wav']);
    const res = await merge(alice, [alicesItem.id, bobsItem.id]);
    expect(res.statusCode).toBe(403);
    expect(JSON.parse(res.body).error).toMatch(/does not belong/);
    const jobs = (
      await Promise.all(
        (['queued', 'running', 'succeeded', 'failed', 'cancelled'] as const).map((st) =>
          env.app.store.jobsWithStatus(st),
        ),
      )
    ).flat();
    expect(jobs.filter((j) => j.sid === alice.sid)).toEqual([]);
  });

  it("refuses a subscription to another session's channel, which then hears nothing", async () => {
    const alice = await env.session();
    const bob = await env.session();
    const bobsChannel = statusChannel(bob.appid, bob.sid);
    const spy = listenStatus(env.app.realtime.port, alice.cookie, bobsChannel);
    await spy.ready;
    expect(spy.errors).toEqual([[bobsChannel, 403]]);
    const [only] = await uploadAll(bob, ['low.mp3']);
    const bobs = listenStatus(env.app.realtime.port, bob.cookie, bobsChannel);
    await bobs.ready;
    expect((await merge(bob, [only.id])).statusCode).toBe(200);
    await bobs.waitFor((d) => d === '100');
    // Bob's last event has reached Bob; a later round trip on Alice's socket shows none came to her.
    const again = listenStatus(env.app.realtime.port, alice.cookie, statusChannel(alice.appid, alice.sid));
    await again.ready;
    expect(spy.data).toEqual([]);
    for (const l of [spy, bobs, again]) l.close();
  });

  it('a second merge queued behind a first gets a "Waiting" status, then runs to 100', async () => {
    const first = await env.session();
    const second = await env.session();
    const [longItem] = await uploadAll(first, ['long.wav']);
    const [shortItem] = await uploadAll(second, ['low.mp3']);
    const l1 = listenStatus(env.app.realtime.port, first.cookie, statusChannel(first.appid, first.sid));
    const l2 = listenStatus(env.app.realtime.port, second.cookie, statusChannel(second.appid, second.sid));
    await Promise.all([l1.ready, l2.ready]);
    const r1 = merge(first, [longItem.id]);
    await l1.waitFor(() => true); // the first is running
    const r2 = merge(second, [shortItem.id]);
    expect((await r1).statusCode).toBe(200);
    expect((await r2).statusCode).toBe(200);
    await l2.waitFor((d) => d === '100');
    expect(l2.data[0]).toBe('Waiting: 1 merge ahead of yours');
    expect(l2.data.at(-1)).toBe('100');
    // Its place (repeated while it waits), then only percentages.
    const firstPercent = l2.data.findIndex((d) => /^\d+$/.test(d));
    expect(
      l2.data.slice(0, firstPercent).every((d) => d === 'Waiting: 1 merge ahead of yours'),
      l2.data.join(','),
    ).toBe(true);
    expect(
      l2.data.slice(firstPercent).every((d) => /^\d+$/.test(d)),
      l2.data.join(','),
    ).toBe(true);
    l1.close();
    l2.close();
  });

  it('a job whose input was corrupted after upload fails naming the original file, leaving no result or temp file', async () => {
    const s = await env.session();
    const [a, b] = await uploadAll(s, ['low.mp3', 'mid.wav']);
    const [row] = await env.app.store.itemsOwnedBy(s.sid, [b.id]);
    await writeFile(env.app.storage.uploadPath(row), 'these are my notes, not audio\n'.repeat(50));
    const status = listenStatus(env.app.realtime.port, s.cookie, statusChannel(s.appid, s.sid));
    await status.ready;
    const res = await merge(s, [a.id, b.id]);
    expect(res.statusCode).toBe(422);
    const { error } = JSON.parse(res.body) as { error: string };
    expect(error).toMatch(/^Could not merge: mid\.wav /);
    await status.waitFor((d) => d === error);
    expect(status.data.at(-1)).toBe(error);
    status.close();
    expect(await env.app.store.listResults(s.sid)).toEqual([]);
    expect(await readdir(env.app.storage.resultsDir(s.sid)).catch(() => [])).toEqual([]);
    expect(await tmpEntries()).toEqual([]);
    expect((await env.app.store.jobsWithStatus('failed')).find((j) => j.sid === s.sid)?.error).toBe(error);
  });

  it('a failure about one input reads back from GET status with its code and file, to its own session only', async () => {
    const s = await env.session();
    const other = await env.session();
    const [a, b] = await uploadAll(s, ['low.mp3', 'mid.wav']);
    const [row] = await env.app.store.itemsOwnedBy(s.sid, [b.id]);
    await writeFile(env.app.storage.uploadPath(row), 'these are my notes, not audio\n'.repeat(50));
    const res = await env.post(s, '/app/merge/mergemp3', {
      items: [{ id: a.id }, { id: b.id }],
      requestId: 'tab-bad',
    });
    expect(res.statusCode).toBe(422);
    const answer = JSON.parse(res.body) as { error: string; code: string; file: string };
    expect(answer.file).toBe('mid.wav');
    const status = async (session: TestSession) =>
      (
        await env.inject({ method: 'GET', url: '/app/merge/status', headers: { cookie: session.cookie } })
      ).json();
    // What a reloaded page reads: the same code, file and sentence as mergemp3's answer.
    expect(await status(s)).toEqual({
      requestId: 'tab-bad',
      state: 'failed',
      percent: null,
      text: answer.error,
      code: answer.code,
      file: 'mid.wav',
    });
    expect(await status(other)).toEqual({ state: 'none' });
    // The other session's own merge is its own: still nothing of the first one's failure.
    const [c] = await uploadAll(other, ['high.flac']);
    expect((await merge(other, [c.id])).statusCode).toBe(200);
    const theirs = await status(other);
    expect(theirs).toMatchObject({ state: 'succeeded', percent: 100 });
    expect(theirs).not.toHaveProperty('file');
    expect(theirs).not.toHaveProperty('code');
  });
});
