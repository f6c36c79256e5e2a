import { copyFile, truncate } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTone, tempDir } from '../../../test/support/audio-fixtures.js';
import { Mp4Error, readMp4Audio } from './read.js';
import { writeMp4 } from './write.js';

describe('the MP4 writer', () => {
  let dir: string;
  let cleanup: () => Promise<void>;
  beforeAll(async () => ({ dir, cleanup } = await tempDir()));
  afterAll(() => cleanup());

  it('names the part that ends inside its packets by its file and place, not in words', async () => {
    const first = await makeTone(path.join(dir, 'a.m4a'), { seconds: 1 });
    const second = path.join(dir, 'b.m4a');
    await copyFile(first, second);
    const parts = [first, second].map((file) => ({ file, audio: readMp4Audio(file) }));
    // The second file is cut inside its last packet after it was read (as if changed while the merge ran).
    const { offsets } = parts[1].audio;
    await truncate(second, offsets[offsets.length - 1] + 1);
    const out = path.join(dir, 'out.m4a');
    const err = await writeMp4(parts, out, { brand: 'M4A ', chapters: [], tags: {} }).catch(
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(Mp4Error);
    expect(err).toMatchObject({
      file: second,
      index: 1,
      code: 'bad-mp4',
      reason: 'ends inside its audio packets',
    });
  });
});
