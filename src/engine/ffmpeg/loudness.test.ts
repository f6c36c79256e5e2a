import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InputError } from '../errors.js';
import { makeTone, tempDir } from '../../../test/support/audio-fixtures.js';
import { tools } from '../../../test/support/engine-kit.js';
import { measureInput, parseEbur128Summary } from './loudness.js';
import type { RunRequest, Runner } from './runner.js';
import { SilenceLog } from './silence-log.js';

const exec = promisify(execFile);

// Captured from this project's ffmpeg (4.x static build) on a 440 Hz tone with silence around it.
const CAPTURED = `Output #0, null, to 'pipe:':
    Stream #0:0: Audio: pcm_s16le, 48000 Hz, stereo, s16, 1536 kb/s
[silencedetect @ 0x2b3f68c0] silence_start: 0
[silencedetect @ 0x2b3f68c0] silence_end: 1.00005 | silence_duration: 1.00005
[silencedetect @ 0x2b3f68c0] silence_start: 3
[silencedetect @ 0x2b3f68c0] silence_end: 4.5 | silence_duration: 1.5
video:0kB audio:938kB subtitle:0kB other streams:0kB global headers:0kB muxing overhead: unknown
[Parsed_ebur128_1 @ 0x44760000] Summary:

  Integrated loudness:
    I:         -22.3 LUFS
    Threshold: -32.3 LUFS

  Loudness range:
    LRA:         0.0 LU
    Threshold: -42.3 LUFS
    LRA low:   -22.3 LUFS
    LRA high:  -22.3 LUFS

  True peak:
    Peak:      -20.4 dBFS
`;

describe('reading ebur128 and silencedetect output', () => {
  it('takes the integrated loudness and the true peak from the summary', () => {
    expect(parseEbur128Summary(CAPTURED)).toEqual({ integratedLufs: -22.3, truePeakDb: -20.4 });
  });

  it('reports digital silence as no loudness and no peak', () => {
    const silent = CAPTURED.replace('-22.3 LUFS', '-70.0 LUFS').replace('-20.4 dBFS', ' -inf dBFS');
    expect(parseEbur128Summary(silent)).toEqual({ integratedLufs: null, truePeakDb: null });
  });

  it('finds no summary in output without one', () => {
    expect(parseEbur128Summary('Invalid data found when processing input')).toBeNull();
  });

  it('collects silences from lines split across chunks, closing an open one at the end', () => {
    const log = new SilenceLog();
    const text = CAPTURED.replace(/\[silencedetect[^\n]*silence_end: 4\.5[^\n]*\n/, '');
    for (let i = 0; i < text.length; i += 7) log.push(text.slice(i, i + 7));
    expect(log.finish(4.5)).toEqual([
      { start: 0, end: 1.00005 },
      { start: 3, end: 4.5 },
    ]);
  });
});

describe('measuring an input', () => {
  let dir: string;
  let cleanup: () => Promise<void>;
  beforeAll(async () => ({ dir, cleanup } = await tempDir()));
  afterAll(() => cleanup());

  it('asks ffmpeg for one decode of the first audio stream through ebur128 with true peak', async () => {
    const asked: RunRequest[] = [];
    const runner: Runner = async (req) => {
      asked.push(req);
      req.onStderr?.(CAPTURED.slice(0, 200));
      req.onStderr?.(CAPTURED.slice(200));
      req.onProgress?.({ outTimeSeconds: 4.5, end: true });
      return { code: 0, signal: null, stdout: '', stderrTail: CAPTURED };
    };
    const m = await measureInput({ input: 'a b.m4a', tools, runner, silence: true });
    expect(asked).toHaveLength(1);
    const a = asked[0].args;
    expect(a[a.indexOf('-i') + 1]).toBe(`file:${path.resolve('a b.m4a')}`);
    expect(a[a.indexOf('-map') + 1]).toBe('0:a:0');
    expect(a[a.indexOf('-af') + 1]).toBe('silencedetect=n=-50dB:d=0.02,ebur128=peak=true:framelog=verbose');
    expect(a[a.indexOf('-f') + 1]).toBe('null');
    expect(m).toEqual({
      integratedLufs: -22.3,
      truePeakDb: -20.4,
      decodedSeconds: 4.5,
      silences: [
        { start: 0, end: 1.00005 },
        { start: 3, end: 4.5 },
      ],
    });
  });

  it('blames the input by name when ffmpeg cannot decode it', async () => {
    const runner: Runner = async (req) =>
      req.args.includes('-version')
        ? { code: 0, signal: null, stdout: 'ffmpeg version x', stderrTail: '' }
        : {
            code: 1,
            signal: null,
            stdout: '',
            stderrTail: 'x.mp3: Invalid data found when processing input\n',
          };
    const err = await measureInput({
      input: '/x/x.mp3',
      tools,
      runner,
      displayName: 'Intro.mp3',
      index: 2,
    }).catch((e) => e);
    expect(err).toBeInstanceOf(InputError);
    expect(err).toMatchObject({ file: 'Intro.mp3', index: 2 });
    expect(err.message).toMatch(/could not be measured \(.*Invalid data/);
  });

  it('measures a real tone, and long silence around it does not lower its loudness', async () => {
    const tone = await makeTone(path.join(dir, 'tone.flac'), { seconds: 4, frequency: 1000 });
    const padded = path.join(dir, 'padded.flac');
    await exec(tools.ffmpeg, [
      '-hide_banner',
      '-v',
      'error',
      '-y',
      '-i',
      tone,
      '-af',
      'adelay=6000|6000,apad=whole_len=705600',
      padded,
    ]);
    const a = await measureInput({ input: tone, tools });
    const b = await measureInput({ input: padded, tools, silence: true });
    // lavfi's sine is at 1/8 full scale (-18.06 dBFS peak); as stereo from mono, -3 dB per channel.
    expect(a.truePeakDb).toBeCloseTo(-21.1, 0);
    expect(a.integratedLufs).toBeCloseTo(-21.1 - 0.69 + 0.6, 0);
    // Ungated, 12 s of silence in 16 would pull the mean down by 6 dB; the gates leave block edges.
    expect(Math.abs(b.integratedLufs! - a.integratedLufs!)).toBeLessThanOrEqual(0.5);
    expect(b.decodedSeconds).toBeCloseTo(16, 1);
    expect(b.silences[0].start).toBe(0);
    expect(b.silences[0].end).toBeCloseTo(6, 1);
    expect(b.silences.at(-1)!.start).toBeCloseTo(10, 1);
    expect(b.silences.at(-1)!.end).toBeCloseTo(16, 1);
  });
});
