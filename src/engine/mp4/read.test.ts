import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTone, tempDir } from '../../../test/support/audio-fixtures.js';
import { Mp4Error, readMp4Audio } from './read.js';

describe('the MP4 AAC reader', () => {
  let dir: string;
  let cleanup: () => Promise<void>;
  beforeAll(async () => ({ dir, cleanup } = await tempDir()));
  afterAll(() => cleanup());

  it("finds every packet, the encoder's priming and the audio's exact length", async () => {
    const file = await makeTone(path.join(dir, 'a.m4a'), { seconds: 1, sampleRate: 44100 });
    const a = readMp4Audio(file);
    expect(a).toMatchObject({
      objectType: 2,
      sampleRate: 44100,
      channels: 2,
      priming: 1024,
      audioSamples: 44100,
    });
    // 1024 priming + 44100 samples, in whole frames of 1024.
    expect(a.sizes.length).toBe(Math.ceil((1024 + 44100) / 1024));
    expect(a.offsets[1]).toBe(a.offsets[0] + a.sizes[0]);
    expect(a.sampleEntry.toString('latin1', 4, 8)).toBe('mp4a');
  });

  it('refuses what it cannot copy, saying why: not AAC, a fragmented MP4', async () => {
    const alac = await makeTone(path.join(dir, 'b.m4a'), { seconds: 0.5, codecArgs: ['-c:a', 'alac'] });
    const refusal = (file: string) => {
      try {
        readMp4Audio(file);
      } catch (err) {
        return err;
      }
    };
    // The file is a field (never parsed back out of the message), with the reason and the code.
    expect(refusal(alac)).toBeInstanceOf(Mp4Error);
    expect(refusal(alac)).toMatchObject({ file: alac, reason: 'not AAC', code: 'bad-mp4' });
    const frag = await makeTone(path.join(dir, 'c.m4a'), {
      seconds: 0.5,
      extraArgs: ['-movflags', 'frag_keyframe+empty_moov'],
    });
    expect(refusal(frag)).toBeInstanceOf(Mp4Error);
    expect(refusal(frag)).toMatchObject({ file: frag, code: 'bad-mp4' });
  });
});
