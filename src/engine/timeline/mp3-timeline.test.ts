import { execFile } from 'node:child_process';
import { readdir, readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { decodeErrors } from '../../../test/support/audio-fixtures.js';
import { tools } from '../../../test/support/engine-kit.js';
import { isRunning } from '../../../test/support/processes.js';
import {
  cancelledEncode,
  decodeLeft,
  seamSplit,
  sineParts,
  oddlyNamedScratch,
  timelineContext,
  windowErrors,
} from '../../../test/support/sine-timeline.js';
import { AbortError, InputError } from '../errors.js';
import { probeInput } from '../inputs/probe.js';
import { directLengths } from '../plan/chunks.js';
import type { PcmTarget } from '../ffmpeg/transcode.js';
import { joinMp3 } from '../mp3/join.js';
import { encodeMp3Timeline } from './mp3-timeline.js';

const exec = promisify(execFile);
const RATE = 44100;
const PCM: PcmTarget = { sampleRate: RATE, channels: 2, sampleFormat: 's16le' };

/** A FLAC of a 997 Hz sine at `rate` that goes on from `seconds` in (so inputs joined make one unbroken tone). */
async function sineFlac(file: string, rate: number, samples: number, seconds: number): Promise<void> {
  const pcm = new Int16Array(samples * 2);
  for (let t = 0; t < samples; t++)
    pcm[2 * t] = pcm[2 * t + 1] = Math.round(4096 * Math.sin(2 * Math.PI * 997 * (seconds + t / rate)));
  await writeFile(`${file}.raw`, pcm);
  await exec(tools.ffmpeg, [
    '-v',
    'error',
    '-y',
    '-f',
    's16le',
    '-ar',
    String(rate),
    '-ac',
    '2',
    '-i',
    `${file}.raw`,
    '-c:a',
    'flac',
    file,
  ]);
}

describe('parallel MP3 encode of a PCM timeline', () => {
  const scratch = oddlyNamedScratch();

  it('joins three chunk encodes into one stream that decodes to the timeline, exactly as long, with no click at the seams', async () => {
    // 45 s in three part files whose joins fall inside frames: three chunks of 15 s.
    const { parts, samples } = await sineParts(scratch.dir, RATE, [
      RATE * 14 + 311,
      RATE * 12 + 5,
      RATE * 19 + 17,
    ]);
    const total = samples.length;
    const [encoded] = await encodeMp3Timeline(timelineContext(scratch.dir, tools, 'mp3'), [parts], PCM);
    expect(encoded).toHaveLength(3);
    // LAME's delay ahead of the first chunk only; less than a frame of padding after the last (a LAME tag counts the decoder's 529 in it).
    expect(encoded.map((p) => p.delay)).toEqual([576, 0, 0]);
    const last = encoded[2];
    expect(last.padding).toBeGreaterThanOrEqual(529);
    expect(last.padding).toBeLessThan(1152 + 529);
    const frames = encoded.reduce((n, p) => n + p.scan.frames, 0);
    expect(frames * 1152 - 576 - last.padding).toBe(total);
    const out = path.join(scratch.dir, 'joined.mp3');
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
    expect((await readdir(scratch.dir)).filter((f) => f.endsWith('.pcm'))).toEqual([]);
  }, 60_000);

  it('carries the reservoir bytes the first frames of a chunk read across the seam: noise decodes cleanly, with no click', async () => {
    // Pink noise makes LAME lean on its bit reservoir: the first kept frames of a chunk read
    // hundreds of bytes from pre-roll frames that are dropped, and must find them before them.
    const file = path.join(scratch.dir, 'noise.pcm');
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
      timelineContext(scratch.dir, tools, 'mp3'),
      [[{ file, samples: total, input: 0 }]],
      PCM,
    );
    expect(encoded).toHaveLength(3);
    const out = path.join(scratch.dir, 'noise.mp3');
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

  it('decodes FLAC inputs of two rates in the chunk encoders themselves: as long as their stated lengths, no click at the seams, the inputs kept', async () => {
    // 14.3 s at 44.1 kHz, then 31 s and one odd sample at 48 kHz: three chunks, the first seam moved to where the second input starts.
    const n0 = Math.round(RATE * 14.3);
    const n1 = 48000 * 31 + 7;
    const files = [path.join(scratch.dir, 'one.flac'), path.join(scratch.dir, 'two.flac')];
    await sineFlac(files[0], RATE, n0, 0);
    await sineFlac(files[1], 48000, n1, n0 / RATE);
    const probed = await Promise.all(files.map((f) => probeInput(f, { tools })));
    expect(probed.map((p) => p.samples)).toEqual([n0, n1]);
    const lengths = directLengths(
      probed.map((p) => ({ samples: p.samples, sampleRate: p.result.sampleRate })),
      PCM,
      false,
    )!;
    expect(lengths).toEqual([n0, Math.round((n1 * RATE) / 48000)]);
    const parts = files.map((file, i) => ({ file, samples: lengths[i], input: i, direct: true }));
    const [encoded] = await encodeMp3Timeline(timelineContext(scratch.dir, tools, 'mp3'), [parts], PCM);
    expect(encoded).toHaveLength(3);
    const total = lengths[0] + lengths[1];
    const last = encoded[2];
    expect(encoded.reduce((n, p) => n + p.scan.frames, 0) * 1152 - 576 - last.padding).toBe(total);
    const out = path.join(scratch.dir, 'flacs.mp3');
    await joinMp3(encoded, out, { gapless: { delay: 576, padding: last.padding } });
    expect(await decodeErrors(out)).toBe('');
    const decoded = await decodeLeft(tools, out);
    expect(decoded.length).toBe(total);
    // The unbroken tone at 44.1 kHz is what the inputs hold; the resampler's own error is far under LAME's.
    const tone = Float32Array.from(
      { length: total },
      (_, t) => Math.round(4096 * Math.sin((2 * Math.PI * 997 * t) / RATE)) / 32768,
    );
    const errs = windowErrors(decoded, tone, total - 2048);
    const seams = [1, 2].map(
      (k) => encoded.slice(0, k).reduce((n, p) => n + p.scan.frames, 0) * 1152 - 576 - 529,
    );
    const { atSeams, elsewhere } = seamSplit(errs, [...seams, n0]);
    expect(elsewhere[Math.floor(elsewhere.length / 2)]).toBeLessThan(1e-2);
    expect(atSeams).toBeLessThanOrEqual(3 * elsewhere[Math.floor(elsewhere.length * 0.99)]);
    // The inputs themselves are read, never removed.
    expect((await Promise.all(files.map((f) => stat(f)))).every((st) => st.size > 0)).toBe(true);
  }, 60_000);

  it('names a FLAC input that decodes to less than its header states', async () => {
    const whole = path.join(scratch.dir, 'whole.flac');
    const cut = path.join(scratch.dir, 'cut.flac');
    await sineFlac(whole, RATE, RATE * 20, 0);
    await sineFlac(cut, RATE, RATE * 20, 20);
    const bytes = await readFile(cut);
    await writeFile(cut, bytes.subarray(0, bytes.length >> 1));
    // STREAMINFO still says 20 s; the probe, finding no whole last frame, no longer takes it. A part
    // can still claim more than it decodes (frames damaged within), which the encode must name.
    expect((await probeInput(cut, { tools })).samples).not.toBe(RATE * 20);
    const ctx = { ...timelineContext(scratch.dir, tools, 'mp3'), inputs: [whole, cut], concurrency: 2 };
    const parts = [whole, cut].map((file, i) => ({ file, samples: RATE * 20, input: i, direct: true }));
    const err = await encodeMp3Timeline(ctx, [parts], PCM).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InputError);
    expect(err).toMatchObject({ file: 'two', index: 1, code: 'reencode-failed' });
    const [, decoded] =
      /decodes to (\d+\.\d{3}) s of the 20\.000 s its header states/.exec((err as InputError).reason) ?? [];
    // Half the file's bytes: about half its 20 s.
    expect(Number(decoded)).toBeGreaterThan(5);
    expect(Number(decoded)).toBeLessThan(15);
  }, 60_000);

  it('stops every encoder when cancelled and says so', async () => {
    const { err, pids } = await cancelledEncode(scratch.dir, tools, 'mp3', (ctx, parts) =>
      encodeMp3Timeline(ctx, [parts], PCM),
    );
    expect(err).toBeInstanceOf(AbortError);
    expect(pids.length).toBeGreaterThan(0);
    expect(pids.filter(isRunning)).toEqual([]);
  }, 60_000);
});
