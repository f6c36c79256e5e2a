import path from 'node:path';
import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeErrors, makeTone, tempDir } from '../../../test/support/audio-fixtures.js';
import { decodeFloat, rmsDb } from '../../../test/support/pcm-measure.js';
import { joinMp3 } from './join.js';
import { scanMp3, type Mp3Scan } from './scan.js';

let dir: string;
let cleanup: () => Promise<void>;
beforeAll(async () => ({ dir, cleanup } = await tempDir()));
afterAll(() => cleanup());

async function scanned(file: string): Promise<Mp3Scan> {
  const r = await scanMp3(file);
  if (!r.ok) throw new Error(r.reason);
  return r.scan;
}

describe('joining MP3s with a gain per part', () => {
  it('changes each part by its own whole steps while copying, and leaves the inputs untouched', async () => {
    const a = await makeTone(path.join(dir, 'a.mp3'), { seconds: 3, frequency: 440 });
    const b = await makeTone(path.join(dir, 'b.mp3'), { seconds: 3, frequency: 660 });
    const before = await readFile(a);
    const [sa, sb] = [await scanned(a), await scanned(b)];
    const out = path.join(dir, 'out.mp3');
    const r = await joinMp3(
      [
        { file: a, scan: sa, gainSteps: 4 },
        { file: b, scan: sb, gainSteps: -3 },
      ],
      out,
    );
    expect(r.frames).toBe(sa.frames + sb.frames);
    expect(await decodeErrors(out)).toBe('');
    expect((await readFile(a)).equals(before)).toBe(true);
    const pcm = await decodeFloat(out);
    const plainA = await decodeFloat(a);
    const plainB = await decodeFloat(b);
    const s = (t: number) => Math.round(t * 44100);
    const bStart = sa.durationSeconds;
    expect(rmsDb(pcm, s(0.5), s(2.5)) - rmsDb(plainA, s(0.5), s(2.5))).toBeCloseTo(4 * 1.505, 1);
    expect(rmsDb(pcm, s(bStart + 0.5), s(bStart + 2.5)) - rmsDb(plainB, s(0.5), s(2.5))).toBeCloseTo(
      -3 * 1.505,
      1,
    );
  });
});
