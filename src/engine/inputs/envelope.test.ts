import { describe, expect, it } from 'vitest';
import { makeTone } from '../../../test/support/audio-fixtures.js';
import { scratchFiles, tools } from '../../../test/support/engine-kit.js';
import { spawnRunner } from '../ffmpeg/runner.js';
import { decodeEnvelope } from './envelope.js';

const file = scratchFiles('envelope-');

describe("an input's envelope", () => {
  it('holds the loudest sample of every 10 ms, on a worker or here, and tells how far the decode is', async () => {
    // 60 s of a stereo tone (10 MB of samples), its right channel alone in the second half.
    const wav = await makeTone(file('tone.wav'), {
      seconds: 60,
      extraArgs: ['-af', 'aformat=channel_layouts=stereo,aeval=val(0)*0.5*lt(t\\,30)|val(1)*0.5:c=same'],
    });
    const fractions: number[] = [];
    const job = { tools, channels: 2, sampleRate: 44100, durationSeconds: 60 };
    const onWorker = await decodeEnvelope(wav, { ...job, onFraction: (f) => fractions.push(f) });
    const here = await decodeEnvelope(wav, { ...job, runner: spawnRunner });
    expect(onWorker.binSeconds).toBeCloseTo(0.01, 6);
    expect(onWorker.peaks.length).toBe(6000);
    expect(Array.from(here.peaks)).toEqual(Array.from(onWorker.peaks));
    // The right channel alone in the second half reads as loud as both did: the loudest channel counts.
    const peaks = Array.from(onWorker.peaks);
    const both = Math.max(...peaks.slice(100, 2900));
    const right = Math.max(...peaks.slice(3100, 5900));
    expect(Math.abs(right - both)).toBeLessThanOrEqual(both * 0.02);
    // ffmpeg's sine is at 1/8 of full scale, spread to two channels at -3 dB each and halved here
    // (0.0442); no bin of 4.4 cycles falls far below that.
    expect(both / 65535).toBeCloseTo(0.125 * Math.SQRT1_2 * 0.5, 3);
    expect(Math.min(...peaks.slice(1))).toBeGreaterThan(0.5 * both);
    expect(fractions.length).toBeGreaterThan(0);
    expect(fractions.every((f, i) => f > 0 && f <= 1 && (i === 0 || f > fractions[i - 1]))).toBe(true);
  });
});
