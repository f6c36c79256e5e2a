import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeErrors, makeTone, tempDir } from '../../../test/support/audio-fixtures.js';
import { decodeFloat, rmsDb } from '../../../test/support/pcm-measure.js';
import { mainDataBegin, ReservoirGuard } from './reservoir.js';

/**
 * Frames before the cut to keep as carriers: enough that their main data (`sizes`, nearest first)
 * covers MPEG-1's longest backstep, 511 bytes, so no wanted frame is silenced.
 */
function carriersFor(sizes: readonly number[]): number {
  let held = 0;
  let n = 0;
  while (n < sizes.length && held < 511) held += sizes[n++];
  return n;
}
import { frameLayout } from '../../../test/support/mp3-layout.js';

let dir: string;
let cleanup: () => Promise<void>;
beforeAll(async () => ({ dir, cleanup } = await tempDir()));
afterAll(() => cleanup());

/** Frames whose main_data_begin reaches further back than the frames before them hold. */
function borrowingTooFar(stream: Buffer, lengths: number[]): number {
  let bad = 0;
  let held = 0;
  for (let p = 0, i = 0; i < lengths.length; p += lengths[i], i++) {
    if (mainDataBegin(stream, p, 1) > held) bad++;
    held += lengths[i] - 4 - 32;
  }
  return bad;
}

describe('cutting a stream at a frame that borrows from the frames before it', () => {
  it('silences only the frames whose data was cut away, so the rest decodes without error', async () => {
    const file = await makeTone(path.join(dir, 'vbr.mp3'), {
      seconds: 4,
      frequency: 500,
      codecArgs: ['-c:a', 'libmp3lame', '-q:a', '2'],
    });
    const buf = await readFile(file);
    const { starts, lengths } = frameLayout(buf);
    const cutAt = starts.findIndex((p, i) => i > 40 && mainDataBegin(buf, p, 1) > 0);
    expect(cutAt).toBeGreaterThan(0);
    const cut = () =>
      Buffer.concat(starts.slice(cutAt).map((p, i) => buf.subarray(p, p + lengths[cutAt + i])));

    // The control: a plain cut starts with frames that reach back before the stream's start.
    expect(borrowingTooFar(cut(), lengths.slice(cutAt))).toBeGreaterThanOrEqual(1);

    const guarded = cut();
    const guard = new ReservoirGuard(1, 2);
    for (let p = 0, i = cutAt; i < starts.length; p += lengths[i], i++) guard.next(guarded, p, lengths[i]);
    const fixed = path.join(dir, 'cut-guarded.mp3');
    await writeFile(fixed, guarded);
    expect(await decodeErrors(fixed)).toBe('');
    expect(borrowingTooFar(guarded, lengths.slice(cutAt))).toBe(0);
    expect(guard.silenced).toBeGreaterThanOrEqual(1);
    // Only the silenced frames at the head changed; the tone plays on after them.
    const head = lengths.slice(cutAt, cutAt + guard.silenced).reduce((a, b) => a + b, 0);
    expect(guarded.subarray(head).equals(cut().subarray(head))).toBe(true);
    const pcm = await decodeFloat(fixed);
    expect(rmsDb(pcm, (guard.silenced + 1) * 1152, pcm.length - 44100)).toBeGreaterThan(-25);
  });

  it('with carrier frames ahead of the cut, no wanted frame is silenced', async () => {
    const file = await makeTone(path.join(dir, 'vbr2.mp3'), {
      seconds: 4,
      frequency: 700,
      codecArgs: ['-c:a', 'libmp3lame', '-q:a', '2'],
    });
    const buf = await readFile(file);
    const { starts, lengths } = frameLayout(buf);
    const cutAt = starts.findIndex((p, i) => i > 40 && mainDataBegin(buf, p, 1) > 0);
    const before = lengths
      .slice(0, cutAt)
      .reverse()
      .map((l) => l - 4 - 32);
    const carriers = carriersFor(before);
    expect(carriers).toBeGreaterThanOrEqual(1);
    const from = cutAt - carriers;
    const stream = Buffer.concat(starts.slice(from).map((p, i) => buf.subarray(p, p + lengths[from + i])));
    const original = Buffer.from(stream);
    const guard = new ReservoirGuard(1, 2);
    for (let p = 0, i = from; i < starts.length; p += lengths[i], i++)
      guard.next(stream, p, lengths[i], i < cutAt);
    expect(guard.silenced).toBe(carriers);
    const wanted = lengths.slice(from, cutAt).reduce((a, b) => a + b, 0);
    expect(stream.subarray(wanted).equals(original.subarray(wanted))).toBe(true);
    const out = path.join(dir, 'carried.mp3');
    await writeFile(out, stream);
    expect(await decodeErrors(out)).toBe('');
    expect(borrowingTooFar(stream, lengths.slice(from))).toBe(0);
  });
});
