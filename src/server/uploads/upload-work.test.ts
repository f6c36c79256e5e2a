// The upload pool: at most its size at once, in order of arrival, round-robin across sessions; and
// the waveforms that take their turns in it.
import { afterEach, describe, expect, it } from 'vitest';
import { MemoryStore } from '../../../test/support/memory-store.js';
import { tempDir } from '../../../test/support/audio-fixtures.js';
import type { Tools } from '../../engine/index.js';
import type { PeakTable } from '../../shared/peaks.js';
import type { ItemRow } from '../data/store.js';
import { createDiskStorage } from '../files/disk/disk-storage.js';
import { createUploadWork } from './upload-work.js';
import { createPeaks } from './waveforms.js';

/** Work that runs until it is let go, recording when it started. */
function gated(log: string[], name: string) {
  let go = () => {};
  const released = new Promise<void>((resolve) => (go = resolve));
  let started = () => {};
  const began = new Promise<void>((resolve) => (started = resolve));
  return {
    work: async () => {
      log.push(name);
      started();
      await released;
      return name;
    },
    go,
    began,
  };
}

describe('the upload pool', () => {
  it('runs at most its size at once, and takes one file each of many sessions in order of arrival', async () => {
    const pool = createUploadWork(2);
    const log: string[] = [];
    let alive = 0;
    let most = 0;
    const done: string[] = [];
    const all = Array.from({ length: 60 }, (_, i) =>
      pool
        .run(`session-${i}`, async () => {
          log.push(`s${i}`);
          alive++;
          most = Math.max(most, alive);
          await new Promise((resolve) => setImmediate(resolve));
          alive--;
          return i;
        })
        .then((i) => done.push(`s${i}`)),
    );
    await Promise.all(all);
    expect(most).toBe(2);
    const arrival = Array.from({ length: 60 }, (_, i) => `s${i}`);
    expect(log).toEqual(arrival);
    // Finished in order, give or take the pool's size.
    for (const [at, name] of done.entries()) expect(Math.abs(at - arrival.indexOf(name))).toBeLessThan(2);
  });

  it("keeps a second session's work waiting behind at most one of the first session's", async () => {
    const pool = createUploadWork(1);
    const log: string[] = [];
    const first = Array.from({ length: 6 }, (_, i) => gated(log, `a${i}`));
    const runs = first.map((g) => pool.run('a', g.work));
    await first[0].began;
    const second = gated(log, 'b0');
    const theirs = pool.run('b', second.work);
    first[0].go();
    await second.began;
    expect(log).toEqual(['a0', 'b0']);
    second.go();
    for (const g of first) g.go();
    await Promise.all([...runs, theirs]);
    expect(log).toEqual(['a0', 'b0', 'a1', 'a2', 'a3', 'a4', 'a5']);
  });

  it('a task whose client is gone while it waits never starts', async () => {
    const pool = createUploadWork(1);
    const log: string[] = [];
    const busy = gated(log, 'busy');
    const running = pool.run('a', busy.work);
    const gone = new AbortController();
    const waiting = pool.run('b', async () => log.push('never'), gone.signal);
    gone.abort();
    await expect(waiting).rejects.toMatchObject({ name: 'AbortError' });
    busy.go();
    await running;
    expect(log).toEqual(['busy']);
    expect(pool.waiting).toBe(0);
  });

  it('refuses what still waits when it closes', async () => {
    const pool = createUploadWork(1);
    const log: string[] = [];
    const busy = gated(log, 'busy');
    const running = pool.run('a', busy.work);
    const waiting = pool.run('a', async () => log.push('never'));
    pool.close();
    await expect(waiting).rejects.toMatchObject({ name: 'AbortError' });
    busy.go();
    await running;
    await expect(pool.run('a', async () => 1)).rejects.toMatchObject({ name: 'AbortError' });
  });
});

describe('waveforms in the upload pool', () => {
  let cleanup: (() => Promise<void>) | undefined;
  afterEach(async () => cleanup?.());

  it("a second session's waveform waits behind at most one of a first session's six long files", async () => {
    const dir = await tempDir('waveforms-pool-');
    cleanup = dir.cleanup;
    const store = new MemoryStore();
    const files = createDiskStorage(dir.dir);
    const item = (sid: string, n: number): ItemRow => ({
      id: `${sid}-${n}`,
      sid,
      appid: 'app',
      newfilename: `${sid}-file-${n}`,
      format: 'mp3',
      filename: `${sid} ${n}.mp3`,
      size: 1,
      duration: 3600,
      codec: 'mp3',
      sampleRate: 44100,
      channels: 2,
      createdAt: 0,
    });
    const first = Array.from({ length: 6 }, (_, n) => item('first', n));
    const theirs = item('second', 0);
    for (const sid of ['first', 'second']) await store.createSession(`hash-${sid}`, sid, 'csrf', 0);
    for (const i of [...first, theirs]) await store.addItemIfUnder(i, 100);
    const started: string[] = [];
    const gates = new Map<string, () => void>();
    const table: PeakTable = {
      sampleRate: 44100,
      samplesPerBin: 44100,
      samples: 44100,
      bins: new Uint16Array([30000]),
    };
    const peaks = createPeaks({
      store,
      files,
      tools: { ffmpeg: 'ffmpeg', ffprobe: 'ffprobe' } as Tools,
      limitSeconds: 3601,
      work: createUploadWork(1),
      decode: async (_file, opts) => {
        started.push(String(opts.displayName));
        await new Promise<void>((resolve) => gates.set(String(opts.displayName), resolve));
        return table;
      },
    });
    for (const i of first) peaks.prepare(i);
    peaks.startQueued();
    await until(() => started.length === 1);
    const asked = peaks.of(theirs);
    gates.get('first 0.mp3')!();
    await until(() => started.length === 2);
    expect(started).toEqual(['first 0.mp3', 'second 0.mp3']);
    gates.get('second 0.mp3')!();
    await asked;
    for (let n = 1; n < 6; n++) {
      await until(() => gates.has(`first ${n}.mp3`));
      gates.get(`first ${n}.mp3`)!();
    }
    await peaks.idle();
    await peaks.close();
  });
});

/** Wait for the pool's own turns (promise callbacks), never for a time. */
async function until(condition: () => boolean): Promise<void> {
  for (let i = 0; i < 10_000 && !condition(); i++) await new Promise((resolve) => setImmediate(resolve));
  expect(condition()).toBe(true);
}
