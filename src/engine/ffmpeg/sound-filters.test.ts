import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTone, tempDir, tools } from '../../../test/support/audio-fixtures.js';
import { decodeFloat, peakOf, rmsDb } from '../../../test/support/pcm-measure.js';
import { inputChain } from './sound-filters.js';

const exec = promisify(execFile);
let dir: string;
let cleanup: () => Promise<void>;
beforeAll(async () => ({ dir, cleanup } = await tempDir()));
afterAll(() => cleanup());

/** Decode `input` through `chain` to float PCM at 44.1 kHz stereo, as a part's decode would. */
async function decodeThrough(input: string, chain: string, out: string): Promise<string> {
  await exec(tools.ffmpeg, [
    '-hide_banner',
    '-v',
    'error',
    '-y',
    '-i',
    input,
    '-af',
    chain,
    '-ar',
    '44100',
    '-ac',
    '2',
    '-c:a',
    'pcm_f32le',
    out,
  ]);
  return out;
}

describe('filters for decoded inputs', () => {
  it('writes gain, trim and gap into one chain, in that order of effect', () => {
    expect(
      inputChain({
        sampleRate: 44100,
        channels: 2,
        gainDb: -3.456,
        keep: { start: 0.5, end: 2 },
        padSamples: 44100,
      }),
    ).toBe(
      'atrim=start=0.500000:end=2.000000,asetpts=PTS-STARTPTS,aresample=44100,' +
        'aformat=sample_fmts=fltp:sample_rates=44100:channel_layouts=stereo,volume=-3.46dB:precision=float,apad=pad_len=44100',
    );
    expect(inputChain({ sampleRate: 48000, channels: 1 })).toBe(
      'aresample=48000,aformat=sample_fmts=fltp:sample_rates=48000:channel_layouts=mono',
    );
  });

  it('a gap of 1.5 s after an input is 1.5 s of silence, within 50 ms', async () => {
    const a = await makeTone(path.join(dir, 'a.flac'), { seconds: 2, frequency: 440, sampleRate: 48000 });
    const out = await decodeThrough(
      a,
      inputChain({ sampleRate: 44100, channels: 2, padSamples: 1.5 * 44100 }),
      path.join(dir, 'gap.wav'),
    );
    const pcm = await decodeFloat(out);
    expect(Math.abs(pcm.length / 44100 - 3.5)).toBeLessThan(0.05);
    expect(peakOf(pcm, 2.02 * 44100)).toBe(0);
    expect(rmsDb(pcm, 0.1 * 44100, 1.9 * 44100)).toBeGreaterThan(-30);
  });

  it('keeps only the asked range, with the gain', async () => {
    const a = await makeTone(path.join(dir, 'b.wav'), { seconds: 3, frequency: 440 });
    const plain = await decodeFloat(a);
    const out = await decodeThrough(
      a,
      inputChain({ sampleRate: 44100, channels: 2, keep: { start: 0.5, end: 2.25 }, gainDb: -6 }),
      path.join(dir, 'kept.wav'),
    );
    const pcm = await decodeFloat(out);
    expect(Math.abs(pcm.length / 44100 - 1.75)).toBeLessThan(0.001);
    expect(rmsDb(pcm, 4410, pcm.length - 4410) - rmsDb(plain, 4410, plain.length - 4410)).toBeCloseTo(-6, 1);
  });
});
