// Inputs a person really has, beyond clean files: MP3s glued together with cat, and the like.
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mergeFiles } from './merge.js';
import { parseFrameHeader, readWord } from '../mp3/frames.js';
import { scanMp3 } from '../mp3/scan.js';
import {
  decodeErrors,
  decodePcm,
  dominantFrequency,
  ffprobeJson,
  makeTone,
  tempDir,
} from '../../../test/support/audio-fixtures.js';
import { tools } from '../../../test/support/engine-kit.js';

describe('mergeFiles with odd inputs', () => {
  let dir: string;
  let cleanup: () => Promise<void>;
  beforeAll(async () => ({ dir, cleanup } = await tempDir()));
  afterAll(() => cleanup());

  const tone = (name: string, frequency: number, opts: { sampleRate?: number; channels?: number } = {}) =>
    makeTone(path.join(dir, name), { seconds: 2, frequency, ...opts });

  type Part = { sampleRate: number; channels: number };
  it.each<[string, Part, Part]>([
    [
      'a mono MP3 with a stereo one appended',
      { sampleRate: 44100, channels: 1 },
      { sampleRate: 44100, channels: 2 },
    ],
    [
      'a 44.1 kHz MP3 with a 48 kHz one appended',
      { sampleRate: 44100, channels: 2 },
      { sampleRate: 48000, channels: 2 },
    ],
  ])('keeps all the audio of %s (re-encoded, not cut short)', async (_, first, second) => {
    const a = await tone(`a-${first.sampleRate}-${first.channels}.mp3`, 500, first);
    const b = await tone(`b-${second.sampleRate}-${second.channels}.mp3`, 1200, second);
    const glued = path.join(dir, `glued-${first.channels}-${second.sampleRate}-${second.channels}.mp3`);
    await writeFile(glued, Buffer.concat([await readFile(a), await readFile(b)]));
    const target = path.join(dir, `out-${path.basename(glued)}`);

    const report = await mergeFiles([glued], target, { tools });

    expect(report.transcoded).toEqual([0]);
    expect(await decodeErrors(target)).toBe('');
    const got = Number((await ffprobeJson(target)).format.duration);
    expect(got).toBeGreaterThan(4);
    expect(got).toBeLessThan(4.2);
    const pcm = await decodePcm(target);
    expect(Math.round(dominantFrequency(pcm, 0.5, 1.5) / 10) * 10).toBe(500);
    expect(Math.round(dominantFrequency(pcm, 2.6, 3.6) / 10) * 10).toBe(1200);
  });

  it('copies an MP3 with junk written into the middle of a frame without the damaged frame: the output decodes cleanly', async () => {
    const clean = await tone('clean-for-junk.mp3', 700);
    const bytes = await readFile(clean);
    // Into the side information of a frame well inside the audio (a 128 kb/s frame is 417 or 418 bytes).
    const scanned = await scanMp3(clean);
    if (!scanned.ok) throw new Error(scanned.reason);
    let frame = scanned.scan.audioStart;
    for (let i = 0; i < 30; i++) frame += parseFrameHeader(readWord(bytes, frame))!.frameLength;
    const at = frame + 10;
    const damaged = path.join(dir, 'junk-in-a-frame.mp3');
    await writeFile(
      damaged,
      Buffer.concat([
        bytes.subarray(0, at),
        Buffer.from('~junk written into a frame~'.repeat(3)),
        bytes.subarray(at),
      ]),
    );
    expect(await decodeErrors(damaged)).not.toBe('');
    const other = await tone('after-junk.mp3', 300);
    const target = path.join(dir, 'out-junk-in-a-frame.mp3');

    const report = await mergeFiles([damaged, other], target, { tools });

    expect(report.transcoded).toEqual([]); // copied frame by frame
    expect(await decodeErrors(target)).toBe('');
    expect(report.durationSeconds).toBeGreaterThan(3.9);
  });
});
