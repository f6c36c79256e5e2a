import { copyFile, readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InputError, ToolError } from '../errors.js';
import { spawnRunner, type Runner } from '../ffmpeg/runner.js';
import { probeFile } from './probe.js';
import { makeTone, tempDir } from '../../../test/support/audio-fixtures.js';
import { tools } from '../../../test/support/engine-kit.js';
import { BAD_INPUTS, makeBad } from '../../../test/support/bad-inputs.js';

describe('probeFile', () => {
  let dir: string;
  let cleanup: () => Promise<void>;
  beforeAll(async () => ({ dir, cleanup } = await tempDir()));
  afterAll(() => cleanup());

  it('reads an MP3 with the frame parser: rate, channels, frames, duration, tags', async () => {
    const f = await makeTone(path.join(dir, 'a.mp3'), {
      seconds: 2,
      extraArgs: ['-metadata', 'title=Hello', '-metadata', 'artist=Me'],
    });
    const p = await probeFile(f, { tools });
    expect(p).toMatchObject({ format: 'mp3', codec: 'mp3', sampleRate: 44100, channels: 2 });
    expect(p.mp3).toMatchObject({ mpegVersion: 1, layer: 3, samplesPerFrame: 1152 });
    expect(p.durationSeconds).toBeCloseTo((p.mp3!.frames * 1152) / 44100, 9);
    expect(p.durationSeconds).toBeGreaterThanOrEqual(2);
    expect(p.tags).toMatchObject({ title: 'Hello', artist: 'Me' });
    expect(Math.round(p.bitRate / 1000)).toBe(128);
  });

  it('reads an 8 kHz MPEG-2.5 mono MP3', async () => {
    const f = await makeTone(path.join(dir, 'low.mp3'), {
      sampleRate: 8000,
      channels: 1,
      codecArgs: ['-c:a', 'libmp3lame', '-b:a', '16k'],
    });
    const p = await probeFile(f, { tools });
    expect(p).toMatchObject({
      sampleRate: 8000,
      channels: 1,
      mp3: { mpegVersion: 2.5, samplesPerFrame: 576 },
    });
  });

  it.each([
    { name: 't.wav', opts: {}, want: { format: 'wav', codec: 'pcm_s16le', sampleRate: 44100, channels: 2 } },
    {
      name: 't24.wav',
      opts: { sampleRate: 96000, codecArgs: ['-c:a', 'pcm_s24le'] },
      want: { format: 'wav', codec: 'pcm_s24le', sampleRate: 96000, channels: 2 },
    },
    {
      name: 't.flac',
      opts: { channels: 1 },
      want: { format: 'flac', codec: 'flac', sampleRate: 44100, channels: 1 },
    },
    { name: 't.ogg', opts: {}, want: { format: 'ogg', codec: 'vorbis', sampleRate: 44100, channels: 2 } },
    {
      name: 't.opus',
      opts: { sampleRate: 48000 },
      want: { format: 'opus', codec: 'opus', sampleRate: 48000, channels: 2 },
    },
    { name: 't.m4a', opts: {}, want: { format: 'm4a', codec: 'aac', sampleRate: 44100, channels: 2 } },
  ])('reads $name through ffprobe', async ({ name, opts, want }) => {
    const f = await makeTone(path.join(dir, name), { seconds: 1.5, ...opts });
    const p = await probeFile(f, { tools });
    expect(p).toMatchObject(want);
    expect(p.mp3).toBeUndefined();
    expect(p.durationSeconds).toBeGreaterThan(1.49);
    expect(p.durationSeconds).toBeLessThan(1.52);
  });

  it('keeps a truncated file whose head decodes', async () => {
    const wav = await makeTone(path.join(dir, 'whole.wav'), { seconds: 3 });
    const mp3 = await makeTone(path.join(dir, 'whole.mp3'), { seconds: 3 });
    for (const [src, name] of [
      [wav, 'cut.wav'],
      [mp3, 'cut.mp3'],
    ] as const) {
      const bytes = await readFile(src);
      const cut = path.join(dir, name);
      await writeFile(cut, bytes.subarray(0, Math.floor(bytes.length / 2) + 77));
      const p = await probeFile(cut, { tools });
      expect(p.durationSeconds).toBeGreaterThan(1.3);
      expect(p.durationSeconds).toBeLessThan(1.7);
    }
  });

  it('reads an MP3 stored under another name (as uploads are) with the frame parser', async () => {
    const mp3 = await makeTone(path.join(dir, 'x.mp3'), {
      seconds: 1,
      extraArgs: ['-id3v2_version', '0', '-write_xing', '0'],
    });
    const named = path.join(dir, 'abc123.upload');
    // Leading zero bytes hide the first frame from a look at the head; ffprobe still says mp3.
    await writeFile(named, Buffer.concat([Buffer.alloc(100), await readFile(mp3)]));
    const p = await probeFile(named, { tools });
    expect(p).toMatchObject({ format: 'mp3', sampleRate: 44100, channels: 2 });
    expect(p.mp3?.frames).toBeGreaterThan(30);
  });

  it('reads a WAV named .mp3 through ffprobe rather than refusing it', async () => {
    const wav = await makeTone(path.join(dir, 'really.wav'), { seconds: 1 });
    const named = path.join(dir, 'really-a-wav.mp3');
    await copyFile(wav, named);
    const p = await probeFile(named, { tools });
    expect(p).toMatchObject({ format: 'wav', codec: 'pcm_s16le' });
  });

  for (const name of Object.keys(BAD_INPUTS)) {
    it(`refuses ${name}, naming it and the reason`, async () => {
      const f = await makeBad(dir, name);
      const err = await probeFile(f, { tools, displayName: `My ${name}`, index: 4 }).catch((e) => e);
      expect(err).toBeInstanceOf(InputError);
      expect(err).toMatchObject({ file: `My ${name}`, index: 4 });
      expect(err.message).toMatch(
        new RegExp(
          `^My ${name.replace('.', '\\.')}: (empty file|not audio|no decodable audio|not a readable MP3)`,
        ),
      );
      expect(err.message).not.toContain('\n');
    });
  }

  it('refuses a sample rate no real file has (a WAV whose header says 1 Hz, or 999 Hz), naming it', async () => {
    const wav = (rate: number, bytes: number) => {
      const h = Buffer.alloc(44);
      h.write('RIFF', 0);
      h.writeUInt32LE(36 + bytes, 4);
      h.write('WAVEfmt ', 8);
      h.writeUInt32LE(16, 16);
      h.writeUInt16LE(1, 20);
      h.writeUInt16LE(2, 22);
      h.writeUInt32LE(rate, 24);
      h.writeUInt32LE(rate * 4, 28);
      h.writeUInt16LE(4, 32);
      h.writeUInt16LE(16, 34);
      h.write('data', 36);
      h.writeUInt32LE(bytes, 40);
      return Buffer.concat([h, Buffer.alloc(bytes)]);
    };
    const oneHertz = path.join(dir, 'one-hertz.wav');
    await writeFile(oneHertz, wav(1, 176_000));
    const err = await probeFile(oneHertz, { tools, displayName: 'book.wav', index: 2 }).catch((e) => e);
    expect(err).toBeInstanceOf(InputError);
    expect(err).toMatchObject({ code: 'bad-rate', file: 'book.wav', index: 2 });
    expect(err.message).toMatch(/^book\.wav: .*sample rate of 1 Hz/);
    const slow = path.join(dir, 'slow.wav');
    await writeFile(slow, wav(999, 999 * 4));
    await expect(probeFile(slow, { tools })).rejects.toMatchObject({
      reason: expect.stringMatching(/999 Hz/),
    });
    // The lowest rate kept: 1000 Hz (8 kHz telephone audio is far above it).
    const lowest = path.join(dir, 'lowest.wav');
    await writeFile(lowest, wav(1000, 4000));
    expect((await probeFile(lowest, { tools })).sampleRate).toBe(1000);
  });

  it('says which reason applies', async () => {
    const reason = async (name: string) =>
      ((await probeFile(await makeBad(dir, name), { tools }).catch((e) => e)) as InputError).reason;
    expect(await reason('empty.mp3')).toBe('empty file');
    expect(await reason('cover.png')).toBe('not audio (no audio stream)');
    expect(await reason('header-only.wav')).toBe('no decodable audio (zero duration)');
    expect(await reason('noise.bin')).toBe('not audio (unrecognised format)');
  });

  it('gives each refusal a code callers can act on without reading the words', async () => {
    const code = async (file: string) =>
      ((await probeFile(file, { tools }).catch((e) => e)) as InputError).code;
    expect(await code(await makeBad(dir, 'empty.mp3'))).toBe('empty');
    expect(await code(await makeBad(dir, 'cover.png'))).toBe('not-audio');
    expect(await code(await makeBad(dir, 'header-only.wav'))).toBe('not-audio');
    expect(await code(await makeBad(dir, 'noise.bin'))).toBe('not-audio');
    expect(await code(path.join(dir, 'nope.wav'))).toBe('unreadable');
    expect(await code(dir)).toBe('unreadable');
    const broken = path.join(dir, 'broken-ffprobe');
    await writeFile(broken, '#!/bin/sh\nexit 132\n', { mode: 0o755 });
    const wav = await makeTone(path.join(dir, 'coded.wav'), { seconds: 1 });
    expect(
      ((await probeFile(wav, { tools: { ...tools, ffprobe: broken } }).catch((e) => e)) as ToolError).code,
    ).toBe('tool-missing');
  });

  it('blames a broken ffprobe, not the input', async () => {
    const fake = path.join(dir, 'fake-ffprobe');
    await writeFile(fake, '#!/bin/sh\necho "Illegal instruction" >&2\nexit 132\n', { mode: 0o755 });
    const wav = await makeTone(path.join(dir, 'fine.wav'), { seconds: 1 });
    const err = await probeFile(wav, { tools: { ...tools, ffprobe: fake } }).catch((e) => e);
    expect(err).toBeInstanceOf(ToolError);
    expect(err.message).toContain(`${fake} is not a working ffprobe (exit 132: Illegal instruction)`);
  });

  it('measures the length by decoding when ffprobe states none', async () => {
    const f = await makeTone(path.join(dir, 'unstated.flac'), { seconds: 7 });
    // ffprobe's answer without any duration, as for some raw streams.
    const runner: Runner = async (req) => {
      const r = await spawnRunner(req);
      return req.bin === tools.ffprobe ? { ...r, stdout: r.stdout.replace(/"duration": "[^"]*",?/g, '') } : r;
    };
    const p = await probeFile(f, { tools, runner });
    expect(p.durationSeconds).toBeGreaterThan(6.95);
    expect(p.durationSeconds).toBeLessThan(7.05);
  });

  it('refuses a missing file and a folder', async () => {
    await expect(probeFile(path.join(dir, 'nope.wav'), { tools })).rejects.toThrow(
      /nope\.wav: cannot be read \(no such file\)/,
    );
    expect((await stat(dir)).isDirectory()).toBe(true);
    await expect(probeFile(dir, { tools })).rejects.toThrow(/not a file/);
  });
});
