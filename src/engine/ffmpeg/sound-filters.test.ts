import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTone, tempDir, tools } from '../../../test/support/audio-fixtures.js';
import { decodeFloat, peakOf, rmsDb } from '../../../test/support/pcm-measure.js';
import { concatGraph, crossfadeGraph, inputChain } from './sound-filters.js';

const exec = promisify(execFile);
let dir: string;
let cleanup: () => Promise<void>;
beforeAll(async () => ({ dir, cleanup } = await tempDir()));
afterAll(() => cleanup());

async function render(inputs: string[], graph: { graph: string; out: string }, out: string): Promise<string> {
  await exec(tools.ffmpeg, [
    '-hide_banner', '-v', 'error', '-y',
    ...inputs.flatMap((f) => ['-i', f]),
    '-filter_complex', graph.graph, '-map', graph.out, '-c:a', 'pcm_f32le', out,
  ]);
  return out;
}

describe('filters for decoded inputs', () => {
  it('writes gain, trim and gap into one chain, in that order of effect', () => {
    expect(inputChain({ sampleRate: 44100, channels: 2, gainDb: -3.456, keep: { start: 0.5, end: 2 }, padSamples: 44100 })).toBe(
      'atrim=start=0.500000:end=2.000000,asetpts=PTS-STARTPTS,aresample=44100,' +
        'aformat=sample_fmts=fltp:sample_rates=44100:channel_layouts=stereo,volume=-3.46dB:precision=float,apad=pad_len=44100',
    );
    expect(inputChain({ sampleRate: 48000, channels: 1 })).toBe('aresample=48000,aformat=sample_fmts=fltp:sample_rates=48000:channel_layouts=mono');
  });

  it('a gap of 1.5 s between two inputs is 1.5 s of silence, within 50 ms', async () => {
    const a = await makeTone(path.join(dir, 'a.wav'), { seconds: 2, frequency: 440 });
    const b = await makeTone(path.join(dir, 'b.flac'), { seconds: 2, frequency: 660 });
    const chain = (pad: number) => inputChain({ sampleRate: 44100, channels: 2, padSamples: pad });
    const out = await render([a, b], concatGraph([chain(1.5 * 44100), chain(0)]), path.join(dir, 'gap.wav'));
    const pcm = await decodeFloat(out);
    expect(Math.abs(pcm.length / 44100 - 5.5)).toBeLessThan(0.05);
    expect(peakOf(pcm, 2.02 * 44100, 3.48 * 44100)).toBe(0);
    expect(rmsDb(pcm, 3.6 * 44100, 5.4 * 44100)).toBeGreaterThan(-30);
  });

  it('a 1 s crossfade overlaps the pair by 1 s with no dip in loudness at the midpoint', async () => {
    // Two unrelated noises at the same level: constant power keeps their sum level through the fade.
    const noise = async (name: string, seed: number) => {
      const file = path.join(dir, name);
      await exec(tools.ffmpeg, ['-hide_banner', '-v', 'error', '-y', '-f', 'lavfi', '-i', `anoisesrc=d=4:c=pink:a=0.2:seed=${seed}:r=44100`, '-ac', '2', file]);
      return file;
    };
    const a = await noise('n1.wav', 1);
    const b = await noise('n2.wav', 2);
    const chain = inputChain({ sampleRate: 44100, channels: 2 });
    const out = await render([a, b], crossfadeGraph([chain, chain], [1]), path.join(dir, 'fade.wav'));
    const pcm = await decodeFloat(out);
    expect(Math.abs(pcm.length / 44100 - 7)).toBeLessThan(0.05);
    const level = (t: number) => rmsDb(pcm, (t - 0.1) * 44100, (t + 0.1) * 44100);
    const before = level(1.5);
    // The midpoint of the fade (3 to 4 s); a linear fade would dip 3 dB here.
    expect(Math.abs(level(3.5) - before)).toBeLessThan(1.5);
    expect(Math.abs(level(3.25) - before)).toBeLessThan(1.5);
    expect(Math.abs(level(5.5) - before)).toBeLessThan(1.5);
  });

  it('chains fades across three inputs and joins a pair with no fade end to end', () => {
    const g = crossfadeGraph(['anull', 'anull', 'anull'], [0.5, 0]);
    expect(g.graph).toBe(
      '[0:a:0]anull[a0];[1:a:0]anull[a1];[2:a:0]anull[a2];[a0][a1]acrossfade=d=0.500000:c1=qsin:c2=qsin[x1];[x1][a2]concat=n=2:v=0:a=1[out]',
    );
    expect(crossfadeGraph(['anull'], []).graph).toBe('[0:a:0]anull[out]');
  });
});
