// Crossfades of MP3s the plan copies (issue 11): only the frames around each fade are decoded and
// encoded again; every other frame is the input's own, byte for byte. Audio made here.
import { execFile } from 'node:child_process';
import { mkdir, readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { fullDecodeCrossfade, likeness } from '../../../test/support/crossfade-reference.js';
import { decodeErrors, makeTone } from '../../../test/support/audio-fixtures.js';
import { toneAtLoudness } from '../../../test/support/loudness-fixtures.js';
import { decodeFloat, rmsDb } from '../../../test/support/pcm-measure.js';
import { AbortError } from '../errors.js';
import { splitFrames } from '../mp3/splice.js';
import type { MergeReport } from '../types.js';
import { mergeFiles } from './merge.js';
import { scratchFiles, tools } from '../../../test/support/engine-kit.js';

const exec = promisify(execFile);
const RATE = 44100;
const SPF = 1152;

const p = scratchFiles();
const stereo = { version: 1, sampleRate: RATE, channels: 2 } as const;

/** Per output frame (its Info frame left out): the input whose frame it is byte for byte, or -1. */
async function copiedFrom(out: string, inputs: string[]): Promise<number[]> {
  const owner = new Map<string, number>();
  for (const [i, f] of inputs.entries())
    for (const frame of splitFrames(await readFile(f), stereo)) owner.set(frame.toString('base64'), i);
  return splitFrames(await readFile(out), stereo).map((frame) => owner.get(frame.toString('base64')) ?? -1);
}

/** Fades as placed: where each input starts to where the one before ends (seconds). */
const fadesOf = (report: MergeReport, lengths: number[]) =>
  report.chapters.slice(1).map((c, j) => ({ from: c.start, to: report.chapters[j].start + lengths[j] }));

describe('crossfades of copied MP3s', () => {
  it('re-encodes only around each fade: clean decode, exact length and chapters, copies byte for byte, audio as a full-decode crossfade', async () => {
    const seconds = [4, 5, 3];
    const inputs = [
      await makeTone(p('a.mp3'), { seconds: 4, frequency: 1000 }),
      await makeTone(p('b.mp3'), { seconds: 5, frequency: 1500 }),
      await makeTone(p('c.mp3'), { seconds: 3, frequency: 1250 }),
    ];
    const out = p('faded.mp3');
    const seen: number[] = [];
    const report = await mergeFiles(inputs, out, {
      tools,
      crossfade: 1,
      onProgress: (pct) => seen.push(pct),
    });
    expect(await decodeErrors(out)).toBe('');
    expect(Math.abs(report.durationSeconds - 10)).toBeLessThan(0.05);
    // The fades' encodes move the bar before the join does; it never goes back.
    expect(seen).toEqual([...seen].sort((a, b) => a - b));
    expect(seen.filter((pct) => pct > 0 && pct < 100).length).toBeGreaterThan(3);
    expect(seen.at(-1)).toBe(100);
    const pcm = await decodeFloat(out);
    expect(Math.abs(pcm.length / RATE - 10)).toBeLessThan(0.05);
    expect(Math.abs(report.chapters[1].start - 3)).toBeLessThan(0.03);
    expect(Math.abs(report.chapters[2].start - 7)).toBeLessThan(0.03);
    // Only the frames at each fade went through the encoder: no input is listed.
    expect(report.transcoded).toEqual([]);

    const fades = fadesOf(report, seconds);
    for (const f of fades) expect(Math.abs(f.to - f.from - 1)).toBeLessThan(0.05);
    // Frames outside the fades (and a margin for the filterbank) are the inputs' own.
    const owners = await copiedFrom(out, inputs);
    const delay = (576 + 529) / RATE;
    owners.forEach((owner, k) => {
      const t = (k * SPF) / RATE - delay;
      const near = fades.findIndex((f) => t > f.from - 0.12 && t < f.to + 0.12);
      if (near >= 0) return;
      const expected = fades.filter((f) => t >= f.to).length;
      expect(owner, `output frame ${k} at ${t.toFixed(3)} s`).toBe(expected);
    });
    expect(owners.filter((o) => o < 0).length).toBeLessThan(2 * ((1.25 * RATE) / SPF));

    // The fades and what follows them sound as the slow way makes them, to the sample.
    const ref = await fullDecodeCrossfade(
      inputs,
      report.chapters.map((c) => c.start),
    );
    for (const f of fades) {
      const like = likeness(pcm, ref.pcm, Math.round((f.from - 0.1) * RATE), Math.round((f.to + 0.2) * RATE));
      expect(like.lag).toBe(0);
      expect(like.correlation).toBeGreaterThan(0.998);
      expect(Math.abs(like.gainDb)).toBeLessThan(0.5);
    }
  });

  it('keeps the power constant through the fade of uncorrelated noise (no dip over 3 dB)', async () => {
    const noise = async (name: string, seed: number) => {
      await exec(tools.ffmpeg, [
        '-hide_banner',
        '-v',
        'error',
        '-y',
        '-f',
        'lavfi',
        '-i',
        `anoisesrc=d=4:c=white:a=0.2:seed=${seed}:r=44100`,
        '-ac',
        '2',
        '-c:a',
        'libmp3lame',
        '-b:a',
        '128k',
        p(name),
      ]);
      return p(name);
    };
    const inputs = [await noise('n1.mp3', 11), await noise('n2.mp3', 12)];
    const out = p('noise.mp3');
    const report = await mergeFiles(inputs, out, { tools, crossfade: 2 });
    expect(await decodeErrors(out)).toBe('');
    const pcm = await decodeFloat(out);
    const [fade] = fadesOf(report, [4, 4]);
    const level = (t: number) => rmsDb(pcm, (t - 0.1) * RATE, (t + 0.1) * RATE);
    const mid = (fade.from + fade.to) / 2;
    expect(Math.abs(level(mid) - level(fade.from - 0.5))).toBeLessThan(3);
    expect(Math.abs(level(mid) - level(fade.to + 0.5))).toBeLessThan(3);
  });

  it('with --loudness, gives the copies their gain in global_gain and the fades the same gain in their decode', async () => {
    const inputs = [await toneAtLoudness(p('quiet.mp3'), -30), await toneAtLoudness(p('loud.mp3'), -12)];
    const out = p('matched.mp3');
    const report = await mergeFiles(inputs, out, { tools, crossfade: 1, loudness: -16 });
    expect(await decodeErrors(out)).toBe('');
    const gains = report.loudness!.map((l) => l.gainDb);
    expect(gains[0]).toBeGreaterThan(10);
    expect(gains[1]).toBeLessThan(0);
    const pcm = await decodeFloat(out);
    const ref = await fullDecodeCrossfade(
      inputs,
      report.chapters.map((c) => c.start),
      RATE,
      gains,
    );
    const [fade] = fadesOf(report, [4, 4]);
    for (const [from, to] of [
      [fade.from - 0.5, fade.from - 0.1],
      [fade.from - 0.1, fade.to + 0.2],
      [fade.to + 0.5, fade.to + 1.5],
    ]) {
      const like = likeness(pcm, ref.pcm, Math.round(from * RATE), Math.round(to * RATE));
      expect(like.lag, `${from} s`).toBe(0);
      expect(Math.abs(like.gainDb), `${from} s`).toBeLessThan(0.5);
    }
  });

  it('takes a middle input shorter than its two fades whole into one re-encoded stretch', async () => {
    const inputs = [
      await makeTone(p('s1.mp3'), { seconds: 3 }),
      await makeTone(p('s2.mp3'), { seconds: 1, frequency: 660 }),
      await makeTone(p('s3.mp3'), { seconds: 3, frequency: 880 }),
    ];
    const out = p('short.mp3');
    const report = await mergeFiles(inputs, out, { tools, crossfade: 1 });
    expect(await decodeErrors(out)).toBe('');
    // 3 + 1 + 3 less two fades of half a second each.
    expect(Math.abs(report.durationSeconds - 6)).toBeLessThan(0.05);
    expect(Math.abs((await decodeFloat(out)).length / RATE - 6)).toBeLessThan(0.05);
    expect(report.notes).toHaveLength(2);
    const owners = await copiedFrom(out, inputs);
    expect(owners.includes(1)).toBe(false);
    expect(owners.includes(0) && owners.includes(2)).toBe(true);
  });

  it('still decodes and mixes everything when an input is not a copied MP3', async () => {
    const inputs = [
      await makeTone(p('m1.mp3'), { seconds: 3 }),
      await makeTone(p('m2.wav'), { seconds: 3, frequency: 660 }),
    ];
    const out = p('mixed.mp3');
    const report = await mergeFiles(inputs, out, { tools, crossfade: 1 });
    expect(report.transcoded).toEqual([0, 1]);
    expect(await decodeErrors(out)).toBe('');
    expect(Math.abs(report.durationSeconds - 5)).toBeLessThan(0.05);
    expect(Math.abs(report.chapters[1].start - 2)).toBeLessThan(0.03);
    // Nothing of the MP3 is copied: the whole output is one encode.
    expect((await copiedFrom(out, inputs)).every((o) => o < 0)).toBe(true);
  });

  it('cancels part-way through the fades: AbortError, no output, no temporary files', async () => {
    const inputs = [
      await makeTone(p('k1.mp3'), { seconds: 4 }),
      await makeTone(p('k2.mp3'), { seconds: 4, frequency: 660 }),
      await makeTone(p('k3.mp3'), { seconds: 4 }),
    ];
    const outDir = p('cancel');
    await mkdir(outDir);
    const controller = new AbortController();
    const err = await mergeFiles(inputs, path.join(outDir, 'cancelled.mp3'), {
      tools,
      crossfade: 1,
      concurrency: 1,
      signal: controller.signal,
      onProgress: (pct) => pct > 0 && controller.abort(),
    }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AbortError);
    expect(await readdir(outDir)).toEqual([]);
  });
});

describe('the power through a crossfade', () => {
  /** White noise of its own seed: inputs that share no waveform, as two recordings do. */
  async function noise(file: string, seed: number, codec: string[]): Promise<string> {
    await exec(tools.ffmpeg, [
      ...['-hide_banner', '-v', 'error', '-y', '-f', 'lavfi'],
      ...['-i', `anoisesrc=color=white:duration=4:sample_rate=${RATE}:amplitude=0.25:seed=${seed}`],
      ...['-ac', '2', ...codec, file],
    ]);
    return file;
  }

  /**
   * RMS in 100 ms windows across the 1 s overlap, against the level of the second before it and
   * the second after: a constant-power fade of uncorrelated inputs keeps it (a linear one dips 3 dB
   * at the middle).
   */
  async function expectLevelThroughFade(out: string, fadeStart: number) {
    const pcm = await decodeFloat(out, RATE);
    const level = (from: number, to: number) => rmsDb(pcm, from * RATE, to * RATE);
    const outside = (level(fadeStart - 1, fadeStart) + level(fadeStart + 1, fadeStart + 2)) / 2;
    for (let t = fadeStart; t < fadeStart + 1; t += 0.1)
      expect(Math.abs(level(t, t + 0.1) - outside)).toBeLessThan(1);
  }

  for (const [ext, codec] of [
    ['flac', ['-c:a', 'flac', '-sample_fmt', 's32']],
    ['mp3', ['-c:a', 'libmp3lame', '-b:a', '192k']],
  ] as const)
    it(`stays within 1 dB of the level outside it for uncorrelated ${ext} inputs, into every lossy family`, async () => {
      const inputs = [await noise(p(`n1.${ext}`), 1, [...codec]), await noise(p(`n2.${ext}`), 2, [...codec])];
      for (const format of ['m4b', 'mp3', 'ogg']) {
        const out = p(`power-${ext}.${format}`);
        const report = await mergeFiles(inputs, out, { tools, crossfade: 1 });
        expect(Math.abs(report.chapters[1].start - 3)).toBeLessThan(0.03);
        await expectLevelThroughFade(out, report.chapters[1].start);
      }
    });
});
