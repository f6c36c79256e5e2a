import { existsSync } from 'node:fs';
import { readFile, readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AbortError, InputError, ToolError } from '../errors.js';
import { spawnRunner, type Runner } from '../ffmpeg/runner.js';
import { mergeFiles } from './merge.js';
import { scanMp3 } from '../mp3/scan.js';
import { probeFile } from '../inputs/probe.js';
import type { Tools } from '../types.js';
import {
  decodeErrors,
  decodePcm,
  dominantFrequency,
  ffprobeJson,
  makeTone,
  tempDir,
} from '../../../test/support/audio-fixtures.js';
import { tools } from '../../../test/support/engine-kit.js';
import { MIXED, makeInputs, makeMp3WithCover } from '../../../test/support/merge-fixtures.js';
import { isRunning } from '../../../test/support/processes.js';

/** Frequencies heard in the middle of each segment, given each segment's length in the output. */
async function tonesAt(file: string, segmentSeconds: number[]): Promise<number[]> {
  const pcm = await decodePcm(file);
  const found: number[] = [];
  let start = 0;
  for (const d of segmentSeconds) {
    const mid = start + d / 2;
    found.push(Math.round(dominantFrequency(pcm, mid - 0.5, mid + 0.5) / 10) * 10);
    start += d;
  }
  return found;
}

describe('mergeFiles', () => {
  let dir: string;
  let cleanup: () => Promise<void>;
  let out: string;
  beforeAll(async () => {
    ({ dir, cleanup } = await tempDir());
    out = path.join(dir, 'out');
    const { mkdir } = await import('node:fs/promises');
    await mkdir(out);
  });
  afterAll(() => cleanup());

  const leftovers = async () => (await readdir(out)).filter((n) => n.startsWith('.'));

  it('joins compatible MP3s in order without transcoding anything', async () => {
    const list = MIXED.filter((f) => f.copied);
    const inputs = await makeInputs(dir, list);
    const target = path.join(out, 'copied.mp3');
    const report = await mergeFiles(inputs, target, { tools });
    expect(report.transcoded).toEqual([]);
    expect(report).toMatchObject({ output: target, inputs: 3, sampleRate: 44100, channels: 2 });
    expect(await decodeErrors(target)).toBe('');
    const probes = await Promise.all(inputs.map((f) => probeFile(f, { tools })));
    const sum = probes.reduce((n, p) => n + p.durationSeconds, 0);
    // Players skip the first input's encoder delay and the last one's padding (the LAME tag says how much).
    const decodedSeconds = (await decodePcm(target)).length / 8000;
    expect(Math.abs(report.durationSeconds - decodedSeconds)).toBeLessThan(0.002);
    expect(Math.abs(report.durationSeconds - sum)).toBeLessThan((2 * 1152) / 44100);
    expect(Number((await ffprobeJson(target)).format.duration)).toBeCloseTo(sum, 2);
    expect(
      await tonesAt(
        target,
        probes.map((p) => p.durationSeconds),
      ),
    ).toEqual(list.map((f) => f.frequency));
  });

  it("copies each MP3's audio frames byte for byte, in order, past tags and cover art", async () => {
    const list = MIXED.filter((f) => f.copied);
    const inputs = [
      ...(await makeInputs(dir, list)),
      await makeMp3WithCover(path.join(dir, 'cover.mp3'), 1500),
    ];
    const target = path.join(out, 'bytes.mp3');
    const report = await mergeFiles(inputs, target, { tools });
    expect(report.transcoded).toEqual([]);
    const output = await readFile(target);
    let from = 0;
    for (const f of inputs) {
      const s = await scanMp3(f);
      if (!s.ok) throw new Error(s.reason);
      const frames = (await readFile(f)).subarray(s.scan.audioStart, s.scan.audioEnd);
      const at = output.indexOf(frames, from);
      expect(at).toBeGreaterThanOrEqual(from);
      from = at + frames.length;
    }
    expect(from).toBe(output.length);
    expect(await decodeErrors(target)).toBe('');
  });

  it('re-encodes only the inputs that do not match, and the total length is the sum of the inputs', async () => {
    const inputs = await makeInputs(dir, MIXED);
    const target = path.join(out, 'mixed.mp3');
    const seen: number[] = [];
    const report = await mergeFiles(inputs, target, {
      tools,
      concurrency: 2,
      onProgress: (p) => seen.push(p),
    });
    const expected = MIXED.flatMap((f, i) => (f.copied ? [] : [i]));
    expect(report.transcoded).toEqual(expected);
    expect(report).toMatchObject({ sampleRate: 44100, channels: 2 });
    expect(await decodeErrors(target)).toBe('');

    const probes = await Promise.all(inputs.map((f) => probeFile(f, { tools })));
    const sum = probes.reduce((n, p) => n + p.durationSeconds, 0);
    const got = Number((await ffprobeJson(target)).format.duration);
    expect(Math.abs(got - sum)).toBeLessThanOrEqual(0.05 * inputs.length);
    expect(Math.abs(report.durationSeconds - (await decodePcm(target)).length / 8000)).toBeLessThan(0.002);

    const segments = probes.map((p, i) => p.durationSeconds + (report.transcoded.includes(i) ? 0.038 : 0));
    expect(await tonesAt(target, segments)).toEqual(MIXED.map((f) => f.frequency));

    expect(seen[0]).toBe(0);
    expect(seen.at(-1)).toBe(100);
    // Never back; the same percentage again only where the stage or the file moved on.
    expect(seen.every((p, i) => Number.isInteger(p) && (i === 0 || p >= seen[i - 1]))).toBe(true);
    expect(seen.filter((p) => p === 100)).toHaveLength(1);
    expect(await leftovers()).toEqual([]);
  });

  it('titles the output from the first input that has a title, else the first file name, or as asked', async () => {
    const [tagged, plain] = await makeInputs(dir, [MIXED[10], MIXED[0]], 1);
    const a = path.join(out, 'title-a.mp3');
    await mergeFiles([plain, tagged], a, { tools });
    expect((await ffprobeJson(a)).format.tags?.title).toBe('Kay');
    const b = path.join(out, 'title-b.mp3');
    await mergeFiles([plain, plain], b, { tools, displayNames: ['Chapter One.mp3', 'x.mp3'] });
    expect((await ffprobeJson(b)).format.tags?.title).toBe('Chapter One');
    const c = path.join(out, 'title-c.mp3');
    await mergeFiles([tagged], c, { tools, title: 'Глава «1»' });
    expect((await ffprobeJson(c)).format.tags?.title).toBe('Глава «1»');
  });

  it('runs at most `concurrency` decodes and encodes at once', async () => {
    const inputs = await makeInputs(dir, MIXED.filter((f) => !f.copied).slice(0, 5), 1);
    let running = 0;
    let most = 0;
    const runner: Runner = async (req) => {
      // Each encoded input is decoded on its own, then the run's chunks are encoded.
      const transcode = req.args.includes('libmp3lame') || req.args.some((a) => a.startsWith('pcm_'));
      if (transcode) most = Math.max(most, ++running);
      try {
        return await spawnRunner(req);
      } finally {
        if (transcode) running--;
      }
    };
    const report = await mergeFiles(inputs, path.join(out, 'limited.mp3'), { tools, runner, concurrency: 2 });
    expect(report.transcoded).toEqual([0, 1, 2, 3, 4]);
    expect(most).toBe(2);
  });

  it('refuses a bad input by its display name and index, leaving nothing behind', async () => {
    const good = await makeTone(path.join(dir, 'good.mp3'), { seconds: 1 });
    const text = path.join(dir, 'notes.txt');
    await writeFile(text, 'Shopping list: milk, eggs, bread.\n'.repeat(20));
    const target = path.join(out, 'bad.mp3');
    const err = await mergeFiles([good, good, text], target, {
      tools,
      displayNames: ['one.mp3', 'two.mp3', 'notes.txt'],
    }).catch((e) => e);
    expect(err).toBeInstanceOf(InputError);
    expect(err).toMatchObject({ file: 'notes.txt', index: 2 });
    expect(err.message).toMatch(/^notes\.txt: not audio/);
    expect(existsSync(target)).toBe(false);
    expect(await leftovers()).toEqual([]);
  });

  it('leaves nothing behind when ffmpeg crashes mid-transcode', async () => {
    const inputs = await makeInputs(dir, [MIXED[0], MIXED[1]], 1);
    const runner: Runner = async (req) =>
      req.args.includes('libmp3lame')
        ? { code: null, signal: 'SIGSEGV', stdout: '', stderrTail: '' }
        : spawnRunner(req);
    const target = path.join(out, 'crash.mp3');
    const err = await mergeFiles(inputs, target, { tools, runner }).catch((e) => e);
    expect(err).toBeInstanceOf(InputError);
    expect(err.message).toMatch(/b-16bit\.wav: could not be re-encoded \(ffmpeg was killed by SIGSEGV\)/);
    expect(existsSync(target)).toBe(false);
    expect(await leftovers()).toEqual([]);
  });

  it('cancels mid-transcode: AbortError, nothing at the target, no temp files, no ffmpeg left', async () => {
    const long = await makeTone(path.join(dir, 'long.wav'), { seconds: 120, sampleRate: 96000 });
    const mp3 = await makeTone(path.join(dir, 'short.mp3'), { seconds: 1 });
    const controller = new AbortController();
    const pids: number[] = [];
    let started = 0;
    const runner: Runner = (req) =>
      spawnRunner({
        ...req,
        onSpawn: (pid) => pids.push(pid),
        onProgress:
          req.onProgress &&
          ((p) => {
            req.onProgress?.(p);
            // Abort once a transcode has really produced output.
            if (req.args.includes('libmp3lame') && p.outTimeSeconds > 0 && started++ === 0)
              controller.abort();
          }),
      });
    const target = path.join(out, 'cancelled.mp3');
    const err = await mergeFiles([mp3, long, long], target, {
      tools,
      runner,
      signal: controller.signal,
    }).catch((e) => e);
    expect(err).toBeInstanceOf(AbortError);
    expect(started).toBeGreaterThan(0);
    expect(existsSync(target)).toBe(false);
    expect(await leftovers()).toEqual([]);
    expect(pids.length).toBeGreaterThanOrEqual(2);
    for (const pid of pids) expect(() => process.kill(pid, 0)).toThrow();
    expect(pids.filter(isRunning)).toEqual([]);
  });

  it('writes an output whose name is near the 255-byte limit', async () => {
    const good = await makeTone(path.join(dir, 'good.mp3'), { seconds: 1 });
    const target = path.join(out, `${'я'.repeat(123)}.mp3`); // 250 bytes
    const report = await mergeFiles([good], target, { tools });
    expect(report.output).toBe(target);
    expect(existsSync(target)).toBe(true);
    expect(await leftovers()).toEqual([]);
  });

  it('says so when the output folder does not exist', async () => {
    const good = await makeTone(path.join(dir, 'good.mp3'), { seconds: 1 });
    await expect(mergeFiles([good], path.join(dir, 'no such folder', 'x.mp3'), { tools })).rejects.toThrow(
      /cannot write .*x\.mp3: no folder .*no such folder/,
    );
  });

  it('rejects at once when the signal is already aborted', async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(
      mergeFiles([path.join(dir, 'good.mp3')], path.join(out, 'never.mp3'), {
        tools,
        signal: controller.signal,
      }),
    ).rejects.toBeInstanceOf(AbortError);
  });

  it('says clearly when ffmpeg cannot be used', async () => {
    const wav = await makeTone(path.join(dir, 'tool.wav'), { seconds: 1 });
    const broken: Tools = {
      ffmpeg: '/nonexistent/ffmpeg',
      ffprobe: '/nonexistent/ffprobe',
      source: 'env',
      ffmpegVersion: 'unchecked',
    };
    const target = path.join(out, 'tool.mp3');
    const err = await mergeFiles([wav], target, { tools: broken }).catch((e) => e);
    expect(err).toBeInstanceOf(ToolError);
    expect(err.message).toMatch(/cannot run \/nonexistent\/ffprobe/);
    expect(existsSync(target)).toBe(false);
  });
});
