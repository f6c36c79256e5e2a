// Gaps in an M4B of copied AAC inputs (issue 11): packets of encoded silence between the copies,
// which stay packet for packet what they were. Audio made here.
import { closeSync, openSync, readSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { decodeErrors, makeTone } from '../../../test/support/audio-fixtures.js';
import { decodeFloat, peakOf, rmsDb } from '../../../test/support/pcm-measure.js';
import { readMp4Audio } from '../mp4/read.js';
import { mergeFiles } from './merge.js';
import { scratchFiles, tools } from '../../../test/support/engine-kit.js';

const RATE = 44100;

const p = scratchFiles();

/** Every AAC packet of the file's audio track, as bytes. */
function packets(file: string): Buffer[] {
  const a = readMp4Audio(file);
  const fd = openSync(file, 'r');
  try {
    return Array.from(a.sizes, (size, k) => {
      const b = Buffer.alloc(size);
      readSync(fd, b, 0, size, a.offsets[k]);
      return b;
    });
  } finally {
    closeSync(fd);
  }
}

describe('gaps between copied AAC inputs', () => {
  it('puts packets of encoded silence between the copies: nothing re-encoded, packets identical, gaps exact within 50 ms', async () => {
    const inputs = [
      await makeTone(p('a.m4a'), { seconds: 2, frequency: 440 }),
      await makeTone(p('b.m4a'), { seconds: 3, frequency: 660, codecArgs: ['-c:a', 'aac', '-b:a', '96k'] }),
      await makeTone(p('c.m4a'), { seconds: 2, frequency: 880 }),
    ];
    const plain = await mergeFiles(inputs, p('plain.m4b'), { tools });
    const out = p('gaps.m4b');
    const report = await mergeFiles(inputs, out, { tools, gap: 1.5 });
    expect(report.transcoded).toEqual([]);
    expect(await decodeErrors(out)).toBe('');
    expect(Math.abs(report.durationSeconds - plain.durationSeconds - 3)).toBeLessThan(0.05);
    const pcm = await decodeFloat(out);
    expect(Math.abs(pcm.length - (await decodeFloat(p('plain.m4b'))).length - 3 * RATE)).toBeLessThan(
      0.05 * RATE,
    );
    const starts = report.chapters.map((c) => c.start);
    expect(Math.abs(starts[1] - plain.chapters[1].start - 1.5)).toBeLessThan(0.05);
    expect(Math.abs(starts[2] - plain.chapters[2].start - 3)).toBeLessThan(0.05);

    // The inputs' packets, in order, each run unchanged; between them packets of silence.
    const got = packets(out);
    let at = 0;
    for (const [i, f] of inputs.entries()) {
      const own = packets(f);
      own.forEach((b, k) => expect(got[at + k].equals(b), `input ${i} packet ${k}`).toBe(true));
      at += own.length;
      if (i + 1 < inputs.length) at += Math.round((1.5 * RATE) / 1024);
    }
    expect(at).toBe(got.length);

    // Silence where the gaps are, tone on both sides.
    const s = (t: number) => Math.round(t * RATE);
    for (const k of [1, 2]) {
      expect(peakOf(pcm, s(starts[k] - 1.45), s(starts[k] - 0.1))).toBeLessThan(0.001);
      expect(rmsDb(pcm, s(starts[k] + 0.1), s(starts[k] + 0.8))).toBeGreaterThan(-30);
    }
  });
});
