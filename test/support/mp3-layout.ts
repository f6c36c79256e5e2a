// Where each audio frame of a whole MP3 buffer starts and how long it is, as the join's walker sees them.
import { readWord, type MpegVersion } from '../../src/engine/mp3/frames.js';
import { FrameWalker } from '../../src/engine/mp3/walk.js';

export function frameLayout(
  buf: Buffer,
  version: MpegVersion = 1,
  rate = 44100,
  channels: 1 | 2 = 2,
): { starts: number[]; lengths: number[] } {
  const walker = new FrameWalker(version, rate, channels);
  const starts: number[] = [];
  const lengths: number[] = [];
  walker.walk(buf, 0, buf.length, true, (s, e) => {
    for (let p = s; p < e;) {
      const l = walker.lengthOf(readWord(buf, p));
      starts.push(p);
      lengths.push(l);
      p += l;
    }
  });
  return { starts, lengths };
}
