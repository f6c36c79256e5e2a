import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeErrors, tempDir, tools } from '../../../test/support/audio-fixtures.js';
import { decodeFloat, peakOf, rmsDb } from '../../../test/support/pcm-measure.js';
import { joinMp3 } from './join.js';
import { scanMp3, type Mp3Scan } from './scan.js';
import { firstFrameWord, writeGapPart, writeShapedPart } from './sound-parts.js';

const exec = promisify(execFile);
let dir: string;
let cleanup: () => Promise<void>;
beforeAll(async () => ({ dir, cleanup } = await tempDir()));
afterAll(() => cleanup());

async function scanned(file: string): Promise<Mp3Scan> {
  const r = await scanMp3(file, { fullWalk: true });
  if (!r.ok) throw new Error(r.reason);
  return r.scan;
}

describe('MP3 parts made for the sound options', () => {
  it('a trimmed, quieter part and a gap of silent frames join with the input, all copied, decoding clean', async () => {
    const file = path.join(dir, 'speech.mp3');
    await exec(tools.ffmpeg, [
      '-hide_banner',
      '-v',
      'error',
      '-y',
      '-f',
      'lavfi',
      '-i',
      'sine=f=300:d=2',
      '-af',
      'adelay=1500|1500,apad=whole_len=220500',
      '-ac',
      '2',
      '-c:a',
      'libmp3lame',
      '-b:a',
      '128k',
      file,
    ]);
    const scan = await scanned(file);
    const frame = 1152 / 44100;
    const keep = { first: Math.floor(1.4 / frame), end: Math.ceil(3.7 / frame) };
    const shapedFile = path.join(dir, 'shaped.mp3');
    const shaped = await writeShapedPart(file, scan, { gainSteps: -4, keep }, shapedFile);
    expect(shaped.frames).toBeGreaterThan(keep.end - keep.first);
    expect(await scanned(shapedFile)).toMatchObject({ frames: shaped.frames, audioBytes: shaped.audioBytes });

    const gapFile = path.join(dir, 'gap.mp3');
    const gap = writeGapPart(gapFile, firstFrameWord(file, scan), 38, scan);
    expect(await scanned(gapFile)).toMatchObject({ frames: 38, audioBytes: gap.audioBytes });

    const out = path.join(dir, 'joined.mp3');
    const result = await joinMp3(
      [
        { file, scan },
        { file: gapFile, scan: gap },
        { file: shapedFile, scan: shaped },
      ],
      out,
    );
    expect(result.frames).toBe(scan.frames + 38 + shaped.frames);
    expect(await decodeErrors(out)).toBe('');
    const pcm = await decodeFloat(out);
    const at = (s: number) => Math.round(s * 44100);
    const firstEnd = scan.frames * frame;
    // The gap is silent; the shaped part's tone is 6 dB quieter than the original's.
    expect(peakOf(pcm, at(firstEnd + 0.1), at(firstEnd + 38 * frame))).toBeLessThan(0.001);
    const toneA = rmsDb(pcm, at(1.7), at(3.3));
    const shapedStart = firstEnd + 38 * frame;
    const toneInShaped =
      shapedStart + (1.5 - keep.first * frame) + (shaped.frames - (keep.end - keep.first)) * frame;
    const toneB = rmsDb(pcm, at(toneInShaped + 0.2), at(toneInShaped + 1.8));
    expect(Math.abs(toneB - toneA + 4 * 1.505)).toBeLessThan(0.1);
  });
});
