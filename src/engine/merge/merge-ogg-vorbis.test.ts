// Ogg Vorbis files made by oggenc, faded out to silence in their last 4 ms: the engine takes each
// at the length its last granule position states (what oggdec plays), all of its samples, so
// nothing of a fade-out is cut into a click at the next join. ffmpeg 5.1 alone decodes the first
// 128 samples short and the second 444 long; ffmpeg of 2018 decodes both long.
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import { describe, expect, it, beforeAll } from 'vitest';
import { mergeFiles } from './merge.js';
import { probeFile } from '../inputs/probe.js';
import { inputArgs, sourcesArgs } from '../ffmpeg/transcode.js';
import { tools, scratchFiles } from '../../../test/support/engine-kit.js';
import { decodeFloat, peakOf } from '../../../test/support/pcm-measure.js';

const exec = promisify(execFile);
const p = scratchFiles('merge-ogg-vorbis-');

const A = { hz: 660, rate: 44100, seconds: 1.25, channels: 2, quality: '3' };
const B = { hz: 880, rate: 22050, seconds: 2, channels: 1, quality: '0' };
const OUT_RATE = 44100;
/** The end of a fade-out: the last 1 ms of the second input (20 samples at 22.05 kHz). */
const FADE_END = 20;

/** A tone faded out to silence over its last 4 ms, encoded by oggenc. */
async function oggencTone(name: string, t: typeof A): Promise<string> {
  const wav = p(`${name}.wav`);
  const fade = `afade=t=out:st=${t.seconds - 0.004}:d=0.004:curve=hsin`;
  await exec(tools.ffmpeg, [
    ...[
      '-v',
      'error',
      '-y',
      '-f',
      'lavfi',
      '-i',
      `sine=frequency=${t.hz}:sample_rate=${t.rate}:duration=${t.seconds}`,
    ],
    ...['-af', `volume=2.5,${fade}`, '-ac', String(t.channels), wav],
  ]);
  await exec('oggenc', ['-Q', '-q', t.quality, '-o', p(`${name}.ogg`), wav]);
  return p(`${name}.ogg`);
}

/** The interleaved samples of a 16-bit WAV file. */
async function wavSamples(wav: string): Promise<Int16Array> {
  const bytes = await readFile(wav);
  const data = bytes.indexOf('data', 12, 'latin1') + 8;
  return new Int16Array(bytes.buffer.slice(bytes.byteOffset + data, bytes.byteOffset + bytes.length));
}

/** What oggdec plays: 16-bit PCM, the reference decoder's samples. */
async function oggdec(file: string): Promise<Int16Array> {
  const wav = `${file}.oggdec.wav`;
  await exec('oggdec', ['-Q', '-o', wav, file]);
  return wavSamples(wav);
}

let a: string;
let b: string;
beforeAll(async () => {
  [a, b] = await Promise.all([oggencTone('a', A), oggencTone('b', B)]);
});

describe('Ogg Vorbis inputs from oggenc', () => {
  it('are as long as oggdec plays them', async () => {
    for (const [file, t] of [
      [a, A],
      [b, B],
    ] as const) {
      expect((await oggdec(file)).length / t.channels).toBe(t.seconds * t.rate);
      expect((await probeFile(file, { tools })).durationSeconds).toBe(t.seconds);
    }
  });

  it('are cut at their granule by sample count in every decode, not by time', () => {
    const args = inputArgs(a, { trimSeconds: A.seconds }).join(' ');
    expect(args).toMatch(/-flags2 \+skip_manual -i \S*a\.ogg /);
    expect(args).toContain(`atrim=end_sample=${A.seconds * A.rate}`);
    expect(args).not.toContain('-t ');
    const feed = sourcesArgs({
      pcm: { sampleRate: OUT_RATE, channels: 2, sampleFormat: 's16le' },
      ranges: [{ file: b, from: 0, to: B.seconds * OUT_RATE }],
    }).join(' ');
    expect(feed).toContain(`asetpts=N/SR/TB,atrim=end_sample=${B.seconds * B.rate},aresample`);
  });

  it('join whole, sample-exact, without a click where each fade-out meets the next input', async () => {
    const out = p('joined.wav');
    const report = await mergeFiles([a, b, a], out, { tools });

    expect(report.chapters.map((c) => c.start)).toEqual([0, 1.25, 3.25]);
    const pcm = await decodeFloat(out, OUT_RATE);
    expect(pcm.length).toBe(4.5 * OUT_RATE);
    // The first and last inputs are every sample oggdec plays (one 16-bit step of rounding apart).
    const [written, reference] = await Promise.all([wavSamples(out), oggdec(a)]);
    const last = 2 * 3.25 * OUT_RATE;
    let worst = 0;
    for (let i = 0; i < reference.length; i++)
      worst = Math.max(
        worst,
        Math.abs(written[i] - reference[i]),
        Math.abs(written[last + i] - reference[i]),
      );
    expect(worst).toBeLessThanOrEqual(1);
    // The second input's fade-out plays to its end, as quiet there as oggdec plays it (a fade cut
    // short ends on a step, a click, of several times that).
    const fadeEnd = await oggdec(b);
    const quiet = peakOf(Float32Array.from(fadeEnd.subarray(-FADE_END), (x) => x / 32768));
    const join = 3.25 * OUT_RATE;
    expect(peakOf(pcm, join - 2 * FADE_END, join)).toBeLessThan(1.25 * quiet);
  });
});
