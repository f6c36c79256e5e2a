// One length per input: the length the server keeps for an upload is its decoded one (an MP3's or
// AAC file's without encoder delay and padding), the length the engine finds in it. A trim end a
// hair past it (a handle moved to the end) means the end, and the merge then holds the whole file;
// an item kept with an older, longer length merges whole as well, without a failed merge.
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import type Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { probeFile } from '../src/engine/index.js';
import { makeTone, tools } from './support/audio-fixtures.js';
import { useMediaApp } from './support/media-app.js';
import { decodeFloat } from './support/pcm-measure.js';
import type { TestSession } from './support/server-harness.js';

const exec = promisify(execFile);
const SECONDS = 3.3;
const RATE = 44100;
/** An MP3 frame: how far a merge's output may differ from the samples of its input. */
const MP3_FRAME = 1152 / RATE;

const env = useMediaApp({
  prefix: 'one-length-',
  media: async (file) => {
    await makeTone(file('source.wav'), { seconds: SECONDS, frequency: 440 });
    // LAME's own tag states the encoder delay and padding; ffmpeg decodes without both.
    await exec('lame', ['--quiet', '-b', '128', file('source.wav'), file('cbr.mp3')]);
    await exec('lame', ['--quiet', '-V', '2', file('source.wav'), file('vbr.mp3')]);
    await exec(tools.ffmpeg, [
      '-v',
      'error',
      '-i',
      file('source.wav'),
      '-c:a',
      'aac',
      '-b:a',
      '128k',
      file('aac.m4a'),
    ]);
    await exec(tools.ffmpeg, [
      '-v',
      'error',
      '-i',
      file('source.wav'),
      '-c:a',
      'flac',
      file('lossless.flac'),
    ]);
  },
  config: { mergeConcurrency: 1 },
});

const save = (s: TestSession, body: Record<string, unknown>) => env.post(s, '/app/merge/saveItem', body);

async function mergedSeconds(s: TestSession, ids: string[]): Promise<number> {
  const merged = await env.post(s, '/app/merge/mergemp3', { items: ids.map((id) => ({ id })) });
  expect(merged.statusCode, merged.body).toBe(200);
  const [result] = await env.app.store.listResults(s.sid);
  return (await decodeFloat(path.join(env.app.dataDir, 'results', s.sid, result.file))).length / RATE;
}

describe('the length kept for an upload', () => {
  it.each(['cbr.mp3', 'vbr.mp3', 'aac.m4a', 'lossless.flac'])(
    '%s: its decoded length, without encoder delay and padding',
    async (name) => {
      const { items } = await env.sessionWith([name]);
      // What was encoded: the source's samples, within one sample.
      expect(Math.abs(items[0].duration - SECONDS)).toBeLessThanOrEqual(1 / RATE);
    },
  );
});

describe('a trim end at the end of an MP3', () => {
  it('an end saved 30 ms past the length means the end, and the merge holds the whole file', async () => {
    const { s, items } = await env.sessionWith(['vbr.mp3']);
    const [item] = items;
    expect((await save(s, { id: item.id, end: item.duration + 0.03 })).statusCode).toBe(200);
    const [listed] = (await env.items(s)) as Array<{ end?: number | null }>;
    expect(listed.end).toBeNull();
    expect(Math.abs((await mergedSeconds(s, [item.id])) - item.duration)).toBeLessThanOrEqual(MP3_FRAME);
  });

  it('an end past the length by more than 50 ms is refused, naming the field', async () => {
    const { s, items } = await env.sessionWith(['cbr.mp3']);
    const res = await save(s, { id: items[0].id, end: items[0].duration + 0.06 });
    expect(res.statusCode).toBe(400);
    expect(res.body).toMatch(/end/);
  });

  it('an item kept with the longer length of before (its frames whole), its end there: the merge holds the whole file, and its length is fixed', async () => {
    const { s, items } = await env.sessionWith(['cbr.mp3']);
    const [item] = items;
    // The frames' length, delay and padding included: what the server kept for an MP3 before.
    const old = (await probeFile(env.file('cbr.mp3'), { countEveryFrame: true })).durationSeconds;
    expect(old - item.duration).toBeGreaterThan(0.02);
    const db = (env.app.store as unknown as { db: Database.Database }).db;
    db.prepare('UPDATE items SET duration = ?, trim_end = ? WHERE id = ?').run(old, old, item.id);
    expect(Math.abs((await mergedSeconds(s, [item.id])) - item.duration)).toBeLessThanOrEqual(MP3_FRAME);
    // Its length fixed by that use: the decoded one, and its end the end.
    const [after] = (await env.items(s)) as Array<{ duration: number; end?: number | null }>;
    expect(after.duration).toBeCloseTo(item.duration, 9);
    expect(after.end).toBeNull();
  });
});
