import { describe, expect, it } from 'vitest';
import { frame, frames, noise, V1_128 } from '../../../test/support/mp3-synth.js';
import { findStreamStart } from './sync.js';

const find = (b: Buffer, atEnd = true) => findStreamStart(b, b.length, atEnd);

describe('finding the start of an MP3 stream', () => {
  it('finds four consistent frames after leading junk', () => {
    const data = Buffer.concat([Buffer.from('xx\xff\xfb..', 'latin1'), frames(V1_128, 6)]);
    expect(find(data)).toMatchObject({ ok: true, offset: 6 });
  });

  it('does not take random bytes for MP3, though they hold sync words', () => {
    for (const seed of [1, 2, 3, 4, 5]) {
      const r = noise(64 * 1024, seed);
      let syncs = 0;
      for (let i = 0; i + 1 < r.length; i++) if (r[i] === 0xff && (r[i + 1] & 0xe0) === 0xe0) syncs++;
      expect(syncs).toBeGreaterThan(10);
      expect(find(r)).toMatchObject({ ok: false, reason: expect.stringMatching(/not an MP3/) });
    }
  });

  it('does not take text with a few valid headers in it for MP3', () => {
    const h = Buffer.from([0xff, 0xfb, 0x90, 0x64]);
    const text = Buffer.concat([
      Buffer.from('Dear reader, '),
      h,
      Buffer.from(' this is text '.repeat(30)),
      h,
      Buffer.from(' the end'),
    ]);
    expect(find(text).ok).toBe(false);
  });

  it('needs a run of frames: three frames then junk is not enough', () => {
    const data = Buffer.concat([
      frames(V1_128, 3),
      Buffer.from('not a frame header at all'),
      Buffer.alloc(2000, 0x20),
    ]);
    expect(find(data).ok).toBe(false);
  });

  it('accepts a short file whose frames run exactly to the end', () => {
    expect(find(frames(V1_128, 2))).toMatchObject({ ok: true, offset: 0 });
    expect(find(frames(V1_128, 1)).ok).toBe(false);
  });

  it('tells layer II apart from MP3', () => {
    const data = frames(0xfffd9064, 5);
    expect(find(data)).toMatchObject({ ok: false, reason: expect.stringMatching(/layer II/) });
  });

  it('recognises free format and says so', () => {
    const ff = Buffer.alloc(300, 0x11);
    ff.writeUInt32BE(0xfffb0064, 0);
    const data = Buffer.concat([ff, ff, ff, ff, ff]);
    expect(find(data)).toMatchObject({ ok: false, reason: expect.stringMatching(/free-format/) });
  });

  it('keeps the format of the first frame', () => {
    const data = frames(0xffe318c0, 8); // MPEG-2.5 8 kHz mono
    const r = find(data);
    expect(r.ok && r.header).toMatchObject({ mpegVersion: 2.5, sampleRate: 8000, channels: 1 });
    expect(find(Buffer.concat([frame(0xfffb9464), frames(V1_128, 4)]))).toMatchObject({
      ok: true,
      offset: 384,
    });
  });
});
