import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InputError, ToolError } from '../errors.js';
import type { RunRequest, RunResult, Runner } from './runner.js';
import { transcodeToMp3 } from './transcode.js';
import { decodeErrors, ffprobeJson, makeTone, tempDir } from '../../../test/support/audio-fixtures.js';
import { tools } from '../../../test/support/engine-kit.js';

const target = { sampleRate: 44100, channels: 2 as const, bitRateKbps: 128 };

function fakeRunner(
  answer: Partial<RunResult> = {},
  blocks: string[] = [],
): { runner: Runner; asked: RunRequest[] } {
  const asked: RunRequest[] = [];
  const runner: Runner = async (req) => {
    if (req.args.includes('-version'))
      return { code: 0, signal: null, stdout: 'ffmpeg version test\n', stderrTail: '' };
    asked.push(req);
    for (const b of blocks) {
      const [t, end] = b.split(' ');
      req.onProgress?.({ outTimeSeconds: Number(t), end: end === 'end' });
    }
    return { code: 0, signal: null, stdout: '', stderrTail: '', ...answer };
  };
  return { runner, asked };
}

describe('transcoding one input', () => {
  let dir: string;
  let cleanup: () => Promise<void>;
  beforeAll(async () => ({ dir, cleanup } = await tempDir()));
  afterAll(() => cleanup());

  it('asks ffmpeg for libmp3lame at the plan rate, channels and bit rate, with progress on stdout', async () => {
    const { runner, asked } = fakeRunner();
    await transcodeToMp3({
      input: 'in put.wav',
      output: '/tmp/o.mp3',
      target: { sampleRate: 22050, channels: 1, bitRateKbps: 48 },
      durationSeconds: 1,
      tools,
      runner,
    });
    expect(asked).toHaveLength(1);
    expect(asked[0].bin).toBe(tools.ffmpeg);
    const a = asked[0].args;
    const after = (k: string) => a[a.indexOf(k) + 1];
    expect(after('-c:a')).toBe('libmp3lame');
    expect(after('-ar')).toBe('22050');
    expect(after('-ac')).toBe('1');
    expect(after('-b:a')).toBe('48k');
    expect(after('-progress')).toBe('pipe:1');
    expect(after('-map')).toBe('0:a:0');
    expect(a).toContain('-vn');
    expect(after('-i')).toBe(`file:${path.resolve('in put.wav')}`);
    expect(a.at(-1)).toBe('file:/tmp/o.mp3');
  });

  it('reports progress as out_time over the input duration, ending at 1', async () => {
    const { runner } = fakeRunner({}, ['1', '2', '3.9', '4 end']);
    const seen: number[] = [];
    await transcodeToMp3({
      input: 'a.wav',
      output: 'o.mp3',
      target,
      durationSeconds: 4,
      tools,
      runner,
      onProgress: (f) => seen.push(f),
    });
    expect(seen).toEqual([0.25, 0.5, 0.975, 1]);
  });

  it('blames the input, by its display name, when ffmpeg cannot decode it', async () => {
    const { runner } = fakeRunner({
      code: 1,
      stderrTail: 'file:/x/a.wav: Invalid data found when processing input\n',
    });
    const err = await transcodeToMp3({
      input: '/x/a.wav',
      output: 'o.mp3',
      target,
      durationSeconds: 4,
      tools,
      runner,
      displayName: 'Chapter 1.wav',
      index: 3,
    }).catch((e) => e);
    expect(err).toBeInstanceOf(InputError);
    expect(err).toMatchObject({ file: 'Chapter 1.wav', index: 3 });
    expect(err.message).toMatch(/^Chapter 1\.wav: could not be re-encoded \(.*Invalid data/);
  });

  it('does not blame the input when the disk is full', async () => {
    const { runner } = fakeRunner({
      code: 1,
      stderrTail: 'av_interleaved_write_frame(): No space left on device\n',
    });
    const err = await transcodeToMp3({
      input: 'a.wav',
      output: 'o.mp3',
      target,
      durationSeconds: 1,
      tools,
      runner,
    }).catch((e) => e);
    expect(err).not.toBeInstanceOf(InputError);
    expect(err.message).toMatch(/cannot write a temporary file: .*No space left on device/);
    expect(err.code).toBe('disk-full');
  });

  it('gives a clear ToolError when ffmpeg has no MP3 encoder or cannot run', async () => {
    const { runner } = fakeRunner({ code: 1, stderrTail: "Unknown encoder 'libmp3lame'\n" });
    await expect(
      transcodeToMp3({ input: 'a.wav', output: 'o.mp3', target, durationSeconds: 1, tools, runner }),
    ).rejects.toThrow(/cannot encode MP3.*libmp3lame/);
    const broken = { ...tools, ffmpeg: '/nonexistent/ffmpeg' };
    const err = await transcodeToMp3({
      input: 'a.wav',
      output: 'o.mp3',
      target,
      durationSeconds: 1,
      tools: broken,
    }).catch((e) => e);
    expect(err).toBeInstanceOf(ToolError);
    expect(err.message).toMatch(/cannot run \/nonexistent\/ffmpeg/);
  });

  it('turns a 96 kHz 24-bit WAV into a clean 44.1 kHz stereo MP3 of the same length', async () => {
    const wav = await makeTone(path.join(dir, 'hi-res.wav'), {
      seconds: 1.5,
      sampleRate: 96000,
      channels: 1,
      codecArgs: ['-c:a', 'pcm_s24le'],
    });
    const out = path.join(dir, 'out.mp3');
    const seen: number[] = [];
    await transcodeToMp3({
      input: wav,
      output: out,
      target,
      durationSeconds: 1.5,
      tools,
      onProgress: (f) => seen.push(f),
    });
    const probe = await ffprobeJson(out);
    expect(probe.streams[0]).toMatchObject({ codec_name: 'mp3', sample_rate: '44100', channels: 2 });
    // LAME adds its encoder delay and pads to a whole frame: at most 1105 + 1151 samples.
    const d = Number(probe.format.duration);
    expect(d).toBeGreaterThanOrEqual(1.5);
    expect(d).toBeLessThan(1.5 + 2256 / 44100 + 0.001);
    expect(await decodeErrors(out)).toBe('');
    expect(seen.at(-1)).toBe(1);
  });
});

describe('re-encoding adds only what LAME must', () => {
  let dir: string;
  let cleanup: () => Promise<void>;
  beforeAll(async () => ({ dir, cleanup } = await tempDir()));
  afterAll(() => cleanup());

  // 2 s at 44.1 kHz is 88200 samples; LAME's 1105-sample delay makes ceil(89305 / 1152) = 78 frames.
  it.each(['tone.m4a', 'tone.ogg', 'tone.flac', 'tone.opus'])(
    '%s becomes exactly 78 frames, with no decoder padding',
    async (name) => {
      const { scanMp3 } = await import('../mp3/scan.js');
      const { probeFile } = await import('../inputs/probe.js');
      const input = await makeTone(path.join(dir, name), {
        seconds: 2,
        sampleRate: name.endsWith('.opus') ? 48000 : 44100,
      });
      const probed = await probeFile(input, { tools });
      const out = path.join(dir, `${name}.mp3`);
      await transcodeToMp3({
        input,
        output: out,
        target,
        durationSeconds: probed.durationSeconds,
        trimToDuration: true,
        tools,
      });
      const s = await scanMp3(out);
      expect(s.ok && s.scan.frames).toBe(78);
    },
  );
});
