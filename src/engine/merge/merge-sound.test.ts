// The sound options end to end (issue 11 "Tests must show"): audio made here, the merged output
// decoded and measured as a listener's player would.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { decodeErrors, makeTone } from '../../../test/support/audio-fixtures.js';
import { loudnessOf, toneAtLoudness } from '../../../test/support/loudness-fixtures.js';
import { decodeFloat, peakOf, rmsDb, roughness } from '../../../test/support/pcm-measure.js';
import { toneSlices } from '../../../test/support/slices.js';
import type { MergeReport } from '../types.js';
import { mergeFiles } from './merge.js';
import { scratchFiles, tools } from '../../../test/support/engine-kit.js';

const exec = promisify(execFile);

const p = scratchFiles();

/** Each chapter's stretch of the output, measured (a little inside its ends, past any fade). */
async function segmentLoudness(out: string, report: MergeReport, margin = 0.3) {
  return Promise.all(
    report.chapters.map((c) => loudnessOf(out, c.start + margin, c.end - c.start - 2 * margin)),
  );
}

describe('loudness matching', () => {
  it('brings inputs at -32, -24, -18, -12 and -9 LUFS in mixed formats to -16 LUFS within 1 LU, true peak at most -1 dBTP', async () => {
    const inputs = [
      await toneAtLoudness(p('a.mp3'), -32),
      await toneAtLoudness(p('b.m4a'), -24),
      await toneAtLoudness(p('c.flac'), -18),
      await toneAtLoudness(p('d.ogg'), -12),
      await toneAtLoudness(p('e.mp3'), -9),
    ];
    for (const format of ['mp3', 'flac', 'm4b'] as const) {
      const out = p(`matched.${format}`);
      const report = await mergeFiles(inputs, out, { tools, loudness: -16 });
      expect(await decodeErrors(out)).toBe('');
      const segments = await segmentLoudness(out, report);
      for (const [i, s] of segments.entries())
        expect(Math.abs(s.lufs + 16), `${format} input ${i}: ${s.lufs} LUFS`).toBeLessThanOrEqual(1);
      expect((await loudnessOf(out)).peak).toBeLessThanOrEqual(-1);
      expect(report.loudness!.map((l) => l.input)).toEqual([0, 1, 2, 3, 4]);
      report.loudness!.forEach((l, i) =>
        expect(Math.abs(l.measured! - [-32, -24, -18, -12, -9][i])).toBeLessThan(1),
      );
      if (format === 'mp3') {
        // The MP3 inputs stay copied, their gain in whole 1.5 dB steps.
        expect(report.transcoded).toEqual([1, 2, 3]);
        expect(
          Math.abs(report.loudness![0].gainDb / 1.505 - Math.round(report.loudness![0].gainDb / 1.505)),
        ).toBeLessThan(0.01);
      }
    }
  });

  it('matches MP3 inputs at different levels with nothing re-encoded, and the output decodes clean', async () => {
    const inputs = [
      await toneAtLoudness(p('q1.mp3'), -30, 3),
      await toneAtLoudness(p('q2.mp3'), -10, 3),
      await toneAtLoudness(p('q3.mp3'), -20, 3),
    ];
    const out = p('mp3s.mp3');
    const report = await mergeFiles(inputs, out, { tools, loudness: -16 });
    expect(report.transcoded).toEqual([]);
    expect(await decodeErrors(out)).toBe('');
    for (const s of await segmentLoudness(out, report)) expect(Math.abs(s.lufs + 16)).toBeLessThanOrEqual(1);
    expect(report.chapters.map((c) => c.start)).toEqual([
      0,
      expect.closeTo(report.chapters[0].end, 6),
      expect.closeTo(report.chapters[1].end, 6),
    ]);
  });

  it('limits the peaks of a peaky input rather than hold its gain back, and says so in the report', async () => {
    // Quiet speech-like tone with sharp clicks: -30 LUFS, peaks near -3 dBFS.
    const peaky = p('peaky.wav');
    await exec(tools.ffmpeg, [
      '-hide_banner',
      '-v',
      'error',
      '-y',
      '-f',
      'lavfi',
      '-i',
      'aevalsrc=exprs=0.04*sin(2*PI*300*t)+0.7*lt(mod(t\\,0.5)\\,0.0005)|0.04*sin(2*PI*300*t)+0.7*lt(mod(t\\,0.5)\\,0.0005):s=44100:d=4',
      peaky,
    ]);
    const out = p('limited.mp3');
    const report = await mergeFiles([peaky, await toneAtLoudness(p('ok.mp3'), -20)], out, {
      tools,
      loudness: -16,
    });
    expect(report.loudness![0]).toMatchObject({ input: 0, limiter: true });
    const first = await loudnessOf(out, 0, report.chapters[0].end);
    expect(Math.abs(first.lufs - -16)).toBeLessThanOrEqual(1);
    expect((await loudnessOf(out)).peak).toBeLessThanOrEqual(-1);
  });
});

describe('gaps, crossfades and trimmed silence', () => {
  it('puts 1.5 s of silent frames between copied MP3s: nothing re-encoded, durations within 50 ms, chapters at each start', async () => {
    const inputs = [
      await makeTone(p('g1.mp3'), { seconds: 2, frequency: 440 }),
      await makeTone(p('g2.mp3'), { seconds: 3, frequency: 660 }),
      await makeTone(p('g3.mp3'), { seconds: 2 }),
    ];
    const plainOut = p('plain.mp3');
    const plain = await mergeFiles(inputs, plainOut, { tools });
    const out = p('gaps.mp3');
    const report = await mergeFiles(inputs, out, { tools, gap: 1.5 });
    expect(report.transcoded).toEqual([]);
    expect(await decodeErrors(out)).toBe('');
    expect(Math.abs(report.durationSeconds - plain.durationSeconds - 3)).toBeLessThan(0.05);
    const pcm = await decodeFloat(out);
    expect(Math.abs(pcm.length / 44100 - report.durationSeconds)).toBeLessThan(0.05);
    const starts = report.chapters.map((c) => c.start);
    expect(Math.abs(starts[1] - plain.chapters[1].start - 1.5)).toBeLessThan(0.05);
    expect(Math.abs(starts[2] - plain.chapters[2].start - 3)).toBeLessThan(0.05);
    // Silence where the gaps are, tone on both sides.
    const s = (t: number) => Math.round(t * 44100);
    expect(peakOf(pcm, s(starts[1] - 1.4), s(starts[1] - 0.1))).toBeLessThan(0.001);
    expect(rmsDb(pcm, s(starts[1] + 0.2), s(starts[1] + 1))).toBeGreaterThan(-30);
  });

  it('puts exact gaps between decoded inputs of a FLAC output', async () => {
    const inputs = [
      await makeTone(p('f1.wav'), { seconds: 2 }),
      await makeTone(p('f2.ogg'), { seconds: 2, frequency: 660 }),
    ];
    const out = p('gaps.flac');
    const report = await mergeFiles(inputs, out, { tools, gap: 0.75 });
    expect(Math.abs(report.durationSeconds - 4.75)).toBeLessThan(0.05);
    expect(Math.abs((await decodeFloat(out)).length / 44100 - 4.75)).toBeLessThan(0.05);
    expect(report.chapters[1].start).toBeCloseTo(2.75, 2);
  });

  it('crossfades with constant power: overlap exact within 50 ms, no dip at the midpoint, the short pair shortened and said', async () => {
    const noise = async (name: string, seconds: number, seed: number) => {
      await exec(tools.ffmpeg, [
        '-hide_banner',
        '-v',
        'error',
        '-y',
        '-f',
        'lavfi',
        '-i',
        `anoisesrc=d=${seconds}:c=pink:a=0.2:seed=${seed}:r=44100`,
        '-ac',
        '2',
        '-c:a',
        'libmp3lame',
        '-b:a',
        '192k',
        p(name),
      ]);
      return p(name);
    };
    const inputs = [await noise('x1.mp3', 4, 1), await noise('x2.mp3', 4, 2), await noise('x3.mp3', 1, 3)];
    const out = p('faded.mp3');
    const report = await mergeFiles(inputs, out, { tools, crossfade: 1 });
    expect(await decodeErrors(out)).toBe('');
    // 4 + 4 + 1 less a 1 s fade and a 0.5 s one (the 1 s input holds only half a second of fade).
    expect(Math.abs(report.durationSeconds - 7.5)).toBeLessThan(0.05);
    const pcm = await decodeFloat(out);
    expect(Math.abs(pcm.length / 44100 - 7.5)).toBeLessThan(0.05);
    expect(report.notes).toEqual([
      expect.stringMatching(/^crossfade between .*x2\.mp3 and .*x3\.mp3 shortened to 0\.500 s/),
    ]);
    expect(report.chapters[1].start).toBeCloseTo(3, 2);
    const level = (t: number) => rmsDb(pcm, (t - 0.1) * 44100, (t + 0.1) * 44100);
    expect(Math.abs(level(3.5) - level(1.5))).toBeLessThan(3);
    expect(Math.abs(level(3.5) - level(5.5))).toBeLessThan(3);
  });

  it('trims leading and trailing silence, keeping copied MP3s copied', async () => {
    const padded = async (name: string, codec: string[]) => {
      await exec(tools.ffmpeg, [
        '-hide_banner',
        '-v',
        'error',
        '-y',
        '-f',
        'lavfi',
        '-i',
        'sine=f=500:d=2',
        '-af',
        'adelay=1500|1500,apad=whole_len=220500',
        '-ac',
        '2',
        ...codec,
        p(name),
      ]);
      return p(name);
    };
    const inputs = [
      await padded('t1.mp3', ['-c:a', 'libmp3lame', '-b:a', '128k']),
      await padded('t2.wav', []),
      await padded('t3.mp3', ['-c:a', 'libmp3lame', '-b:a', '128k']),
    ];
    const out = p('trimmed.mp3');
    const report = await mergeFiles(inputs, out, { tools, trimSilence: true });
    expect(report.transcoded).toEqual([1]);
    expect(await decodeErrors(out)).toBe('');
    // 3 x 2 s of tone; what is left of the 3 x 3 s of silence is the kept margins and whole frames.
    expect(report.durationSeconds).toBeGreaterThan(6);
    expect(report.durationSeconds).toBeLessThan(6.6);
    const pcm = await decodeFloat(out);
    let longest = 0;
    for (let run = 0, i = 0; i < pcm.length; i++) {
      run = Math.abs(pcm[i]) < 0.003 ? run + 1 : 0;
      longest = Math.max(longest, run);
    }
    expect(longest / 44100).toBeLessThan(0.25);
  });
});

describe('gapless joins', () => {
  it('joins 60 two-second slices of one tone into 120.00 s within one frame, with no click at the joins', async () => {
    const slices = await toneSlices(p('slices'), 60, 2);
    const out = p('gapless.mp3');
    const report = await mergeFiles(slices, out, { tools, gapless: true });
    const frame = 1152 / 44100;
    expect(Math.abs(report.durationSeconds - 120)).toBeLessThanOrEqual(frame);
    expect(await decodeErrors(out)).toBe('');
    const pcm = await decodeFloat(out);
    expect(Math.abs(pcm.length / 44100 - 120)).toBeLessThanOrEqual(frame);
    // A 440 Hz tone's second difference stays near A(2 pi 440 / 44100)^2; a jump at a join spikes it.
    const smooth = roughness(pcm, 44100, 2 * 44100);
    for (let k = 1; k < 60; k++) {
      const at = Math.round(report.chapters[k].start * 44100);
      expect(roughness(pcm, at - 2205, at + 441), `join ${k}`).toBeLessThan(smooth * 2);
    }
    expect(report.chapters[30].start).toBeCloseTo(60, 1);
  });

  it('the same slices joined without --gapless run long and click (encoder delay and padding at every join)', async () => {
    const slices = await toneSlices(p('slices10'), 10, 2);
    const out = p('gappy.mp3');
    const report = await mergeFiles(slices, out, { tools });
    expect(report.durationSeconds).toBeGreaterThan(20 + 9 * 0.02);
    // The control for the click check above: here the joins do spike.
    const pcm = await decodeFloat(out);
    const smooth = roughness(pcm, 44100, 2 * 44100);
    const spiky = report.chapters.slice(1).filter((c) => {
      const at = Math.round(c.start * 44100);
      return roughness(pcm, at - 2205, at + 441) > smooth * 2;
    });
    expect(spiky.length).toBeGreaterThanOrEqual(5);
  });
});

describe('the sound options in every output format', () => {
  it.each(['m4b', 'opus', 'ogg', 'wav'] as const)(
    '%s: a gap and a crossfade last what they should, chapters where each input starts',
    async (format) => {
      const inputs = [
        await makeTone(p(`${format}-1.mp3`), { seconds: 2 }),
        await makeTone(p(`${format}-2.m4a`), { seconds: 2, frequency: 660 }),
      ];
      const gapped = await mergeFiles(inputs, p(`gap.${format}`), { tools, gap: 1 });
      expect(Math.abs(gapped.durationSeconds - 5)).toBeLessThan(0.05);
      expect(Math.abs(gapped.chapters[1].start - 3)).toBeLessThan(0.05);
      const faded = await mergeFiles(inputs, p(`fade.${format}`), { tools, crossfade: 0.5 });
      expect(Math.abs(faded.durationSeconds - 3.5)).toBeLessThan(0.05);
      expect(Math.abs(faded.chapters[1].start - 1.5)).toBeLessThan(0.05);
      // This ffmpeg decodes an MP4's AAC padding past its edit list: up to a frame per part more.
      const slack = format === 'm4b' ? 0.05 + (2 * 1024) / 44100 : 0.05;
      for (const out of [p(`gap.${format}`), p(`fade.${format}`)]) {
        expect(await decodeErrors(out)).toBe('');
        expect(
          Math.abs((await decodeFloat(out)).length / 44100 - (out.includes('gap') ? 5 : 3.5)),
        ).toBeLessThan(slack);
      }
    },
  );
});
