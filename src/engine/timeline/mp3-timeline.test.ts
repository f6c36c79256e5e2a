import { execFile } from 'node:child_process';
import { mkdir, readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeErrors, tempDir, tools as fixtureTools } from '../../../test/support/audio-fixtures.js';
import { isRunning } from '../../../test/support/processes.js';
import {
  cancelledEncode,
  decodeLeft,
  seamSplit,
  sineParts,
  timelineContext,
  windowErrors,
} from '../../../test/support/sine-timeline.js';
import { AbortError } from '../errors.js';
import type { PcmTarget } from '../ffmpeg/transcode.js';
import { joinMp3 } from '../mp3/join.js';
import type { Tools } from '../types.js';
import { encodeMp3Timeline } from './mp3-timeline.js';

const exec = promisify(execFile);
const tools: Tools = { ...fixtureTools, ffmpegVersion: 'test' };
const RATE = 44100;
const PCM: PcmTarget = { sampleRate: RATE, channels: 2, sampleFormat: 's16le' };

describe('parallel MP3 encode of a PCM timeline', () => {
  let dir: string;
  let cleanup: () => Promise<void>;
  beforeAll(async () => {
    ({ dir, cleanup } = await tempDir());
    dir = path.join(dir, 'odd | name, with: separators');
    await mkdir(dir);
  });
  afterAll(() => cleanup());

  it('joins three chunk encodes into one stream that decodes to the timeline, exactly as long, with no click at the seams', async () => {
    // 45 s in three part files whose joins fall inside frames: three chunks of 15 s.
    const { parts, samples } = await sineParts(dir, RATE, [RATE * 14 + 311, RATE * 12 + 5, RATE * 19 + 17]);
    const total = samples.length;
    const [encoded] = await encodeMp3Timeline(timelineContext(dir, tools, 'mp3'), [parts], PCM);
    expect(encoded).toHaveLength(3);
    // LAME's delay ahead of the first chunk only; less than a frame of padding after the last (a LAME tag counts the decoder's 529 in it).
    expect(encoded.map((p) => p.delay)).toEqual([576, 0, 0]);
    const last = encoded[2];
    expect(last.padding).toBeGreaterThanOrEqual(529);
    expect(last.padding).toBeLessThan(1152 + 529);
    const frames = encoded.reduce((n, p) => n + p.scan.frames, 0);
    expect(frames * 1152 - 576 - last.padding).toBe(total);
    const out = path.join(dir, 'joined.mp3');
    await joinMp3(encoded, out, { gapless: { delay: 576, padding: last.padding } });
    expect(await decodeErrors(out)).toBe('');

    const decoded = await decodeLeft(tools, out);
    // The LAME tag trims the delay and the padding: the decode is the timeline, sample for sample in length.
    expect(decoded.length).toBe(total);
    const errs = windowErrors(decoded, samples, total - 2048);
    const seams = [1, 2].map(
      (k) => encoded.slice(0, k).reduce((n, p) => n + p.scan.frames, 0) * 1152 - 576 - 529,
    );
    const { atSeams, elsewhere } = seamSplit(errs, seams);
    // LAME's own error on this sine at 128 kb/s is about 6e-3 (one encoder of the whole timeline
    // does the same); a click, a slipped sample or a frame that reads the wrong reservoir bytes is
    // several times that.
    expect(elsewhere[Math.floor(elsewhere.length / 2)]).toBeLessThan(1e-2);
    expect(atSeams).toBeLessThanOrEqual(3 * elsewhere[Math.floor(elsewhere.length * 0.99)]);
    expect((await readdir(dir)).filter((f) => f.endsWith('.pcm'))).toEqual([]);
  }, 60_000);

  it('carries the reservoir bytes the first frames of a chunk read across the seam: noise decodes cleanly, with no click', async () => {
    // Pink noise makes LAME lean on its bit reservoir: the first kept frames of a chunk read
    // hundreds of bytes from pre-roll frames that are dropped, and must find them before them.
    const file = path.join(dir, 'noise.pcm');
    await exec(tools.ffmpeg, [
      '-v',
      'error',
      '-f',
      'lavfi',
      '-i',
      `anoisesrc=color=pink:amplitude=0.3:duration=45:sample_rate=${RATE}:seed=7`,
      '-ac',
      '2',
      '-f',
      's16le',
      file,
    ]);
    const raw = await readFile(file);
    const total = raw.length / 4;
    const source = Float32Array.from({ length: total }, (_, t) => raw.readInt16LE(4 * t) / 32768);
    const [encoded] = await encodeMp3Timeline(
      timelineContext(dir, tools, 'mp3'),
      [[{ file, samples: total, input: 0 }]],
      PCM,
    );
    expect(encoded).toHaveLength(3);
    const out = path.join(dir, 'noise.mp3');
    await joinMp3(encoded, out, { gapless: { delay: 576, padding: encoded[2].padding } });
    expect(await decodeErrors(out)).toBe('');
    const decoded = await decodeLeft(tools, out);
    expect(decoded.length).toBe(total);
    const errs = windowErrors(decoded, source, total - 2048);
    const seams = [1, 2].map(
      (k) => encoded.slice(0, k).reduce((n, p) => n + p.scan.frames, 0) * 1152 - 576 - 529,
    );
    const { atSeams, elsewhere } = seamSplit(errs, seams);
    expect(atSeams).toBeLessThanOrEqual(1.5 * elsewhere[elsewhere.length - 1]);
  }, 60_000);

  it('stops every encoder when cancelled and says so', async () => {
    const { err, pids } = await cancelledEncode(dir, tools, 'mp3', (ctx, parts) =>
      encodeMp3Timeline(ctx, [parts], PCM),
    );
    expect(err).toBeInstanceOf(AbortError);
    expect(pids.length).toBeGreaterThan(0);
    expect(pids.filter(isRunning)).toEqual([]);
  }, 60_000);
});
