import { describe, expect, it } from 'vitest';
import {
  AAC_CODEC,
  AAC_FRAME,
  AAC_PRIMING,
  AAC_ROLL,
  encodedFractions,
  planChunks,
  rangesOf,
  runsOf,
  timelineFormat,
} from './chunks.js';

describe('AAC timeline chunks', () => {
  it('finds the runs of encoded inputs between copied ones', () => {
    expect(runsOf([true, true, false, true, false, false, true, true, true])).toEqual([
      [0, 1],
      [3],
      [6, 7, 8],
    ]);
    expect(runsOf([false, false])).toEqual([]);
    expect(runsOf([true])).toEqual([[0]]);
  });

  it('cuts a timeline into contiguous frame-aligned chunks of equal length within one frame', () => {
    const total = 3600 * 44100 + 777;
    const chunks = planChunks(total, 3);
    expect(chunks).toHaveLength(3);
    expect(chunks[0].start).toBe(0);
    expect(chunks.at(-1)!.end).toBe(total);
    chunks.slice(1).forEach((c, k) => expect(c.start).toBe(chunks[k].end));
    chunks.slice(0, -1).forEach((c) => expect(c.end % AAC_FRAME).toBe(0));
    const lengths = chunks.map((c) => Math.ceil((c.end - c.start) / AAC_FRAME));
    expect(Math.max(...lengths) - Math.min(...lengths)).toBeLessThanOrEqual(1);
  });

  it('feeds each chunk real audio around it and keeps exactly the packets of its own samples', () => {
    const total = 100 * AAC_FRAME * 10 + 5;
    const chunks = planChunks(total, 4, AAC_CODEC, 1);
    chunks.forEach((c, k) => {
      expect(c.feedStart).toBe(Math.max(0, c.start - AAC_ROLL));
      expect(c.feedEnd).toBe(Math.min(total, c.end + AAC_ROLL));
      // Packet j of an encode fed from f decodes to f + (j - 1) * 1024 onward (one frame of priming).
      expect(c.feedStart + (c.firstPacket - 1) * AAC_FRAME).toBe(k === 0 ? -AAC_PRIMING : c.start);
      expect(c.priming).toBe(k === 0 ? AAC_PRIMING : 0);
      if (k < chunks.length - 1) expect(c.packets * AAC_FRAME).toBe(c.end - c.start + c.priming);
      else expect(c.packets).toBe(Math.ceil((c.end - c.start) / AAC_FRAME));
      expect(c.last).toBe(k === chunks.length - 1);
    });
  });

  it('keeps a short timeline in one chunk, and never makes more chunks than frames', () => {
    expect(planChunks(44100 * 5, 2)).toHaveLength(1);
    expect(planChunks(44100 * 30, 2)).toHaveLength(2);
    expect(planChunks(3 * AAC_FRAME, 8, AAC_CODEC, 1)).toHaveLength(3);
    const [only] = planChunks(500, 2);
    expect(only).toMatchObject({
      start: 0,
      end: 500,
      feedStart: 0,
      feedEnd: 500,
      firstPacket: 0,
      packets: 2,
      priming: AAC_PRIMING,
      last: true,
    });
  });

  it('puts MP3 chunks on the frames of the output, whose first frame starts 1105 samples early', () => {
    const mp3 = { frame: 1152, delay: 1105, roll: 2048 };
    const total = 200 * 1152 + 300;
    const chunks = planChunks(total, 3, mp3, 1);
    expect(chunks).toHaveLength(3);
    let frames = 0;
    chunks.forEach((c, k) => {
      // Kept frame 0 of chunk k is output frame `frames`: it decodes to timeline sample frames * 1152 - 1105.
      expect(k === 0 ? -mp3.delay : c.start).toBe(frames * 1152 - mp3.delay);
      // Its encode's frame j decodes to feedStart + j * 1152 - 1105: the kept ones start at the chunk.
      if (k > 0) expect(c.feedStart + c.firstPacket * 1152 - mp3.delay).toBe(c.start);
      if (k > 0) expect(c.start - c.feedStart).toBeGreaterThanOrEqual(mp3.roll);
      if (k > 0) expect(c.start).toBe(chunks[k - 1].end);
      frames += c.packets;
    });
    // The kept frames cover the timeline and its delay, with less than one frame of padding.
    expect(frames * 1152 - mp3.delay - total).toBeGreaterThanOrEqual(0);
    expect(frames * 1152 - mp3.delay - total).toBeLessThan(1152);
  });

  it('finds the byte ranges of the part files that hold a span of the timeline', () => {
    expect(rangesOf([100, 50, 200], 90, 160, 4)).toEqual([
      { part: 0, from: 360, to: 400 },
      { part: 1, from: 0, to: 200 },
      { part: 2, from: 0, to: 40 },
    ]);
    expect(rangesOf([100, 0, 200], 100, 101, 2)).toEqual([{ part: 2, from: 0, to: 2 }]);
  });

  it("maps the chunks' progress back to the inputs they hold", () => {
    const chunks = planChunks(4 * AAC_FRAME, 2, AAC_CODEC, 1);
    const lengths = [AAC_FRAME, 2 * AAC_FRAME, AAC_FRAME];
    expect(encodedFractions(lengths, chunks, [0, 0])).toEqual([0, 0, 0]);
    expect(encodedFractions(lengths, chunks, [AAC_FRAME * 2, AAC_FRAME])).toEqual([1, 1, 0]);
    expect(encodedFractions(lengths, chunks, [AAC_FRAME, 0])).toEqual([1, 0, 0]);
    // An encoder's progress counts its pre-roll too: below its chunk's start is nothing yet.
    expect(encodedFractions(lengths, chunks, [-500, 1e9])).toEqual([0, 0.5, 1]);
  });

  it('keeps the timeline in 16-bit unless an input is deeper or sound filters run', () => {
    const mp3 = { codec: 'mp3' };
    expect(timelineFormat([mp3, { codec: 'flac', bitsPerSample: 16 }, { codec: 'vorbis' }], false)).toBe(
      's16le',
    );
    expect(timelineFormat([mp3, { codec: 'flac', bitsPerSample: 24 }], false)).toBe('f32le');
    expect(timelineFormat([{ codec: 'pcm_s32le', bitsPerSample: 32 }], false)).toBe('f32le');
    expect(timelineFormat([mp3], true)).toBe('f32le');
  });
});
