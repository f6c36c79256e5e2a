import { describe, expect, it } from 'vitest';
import { childBoxes, path, type Box } from './boxes.js';
import { buildMoov, chapterSample, type MoovLayout } from './moov.js';
import type { Mp4Audio } from './read.js';
import { mp4PartStarts } from './write.js';

const audio = (packets: number, priming: number, audioSamples: number): Mp4Audio => ({
  sampleEntry: Buffer.alloc(0),
  objectType: 2,
  sampleRate: 44100,
  channels: 2,
  sizes: new Uint32Array(packets).fill(300),
  offsets: new Float64Array(packets),
  priming,
  audioSamples,
});

function layout(over: Partial<MoovLayout> = {}): MoovLayout {
  return {
    brand: 'M4B ',
    sampleRate: 44100,
    sampleEntry: Buffer.from('0000000c6d70346100000000', 'hex'),
    sizes: new Uint32Array([10, 20, 30]),
    chunkSamples: [2, 1],
    chunkOffsets: [100, 130],
    lastDelta: 500,
    priming: 1024,
    presented: 3 * 1024 - 1024 - 524,
    chapters: [
      { title: 'Eins', start: 0 },
      { title: 'Zwei', start: 0.02 },
    ],
    chapterSizes: [18, 18],
    chapterOffset: 160,
    tags: { text: { title: 'T' } },
    wide: false,
    ...over,
  };
}

const find = (b: Buffer, parent: Box, ...types: string[]) => path(b, parent, ...types);

describe('the MP4 index', () => {
  it("puts each part's audio after the packets before it and its own priming, less the first part's", () => {
    const { starts, total } = mp4PartStarts([
      audio(45, 1024, 44100),
      audio(10, 1024, 8000),
      audio(3, 0, 3000),
    ]);
    expect(starts).toEqual([0, 45 * 1024, 55 * 1024 - 1024]);
    expect(total).toBe(55 * 1024 - 1024 + 3000);
  });

  it('holds an edit list skipping the priming, a chapter track and a Nero chpl box with the same chapters', () => {
    const moovBuf = buildMoov(layout());
    const moov = { type: 'moov', start: 8, end: moovBuf.length };
    const traks = childBoxes(moovBuf, 8, moovBuf.length).filter((b) => b.type === 'trak');
    expect(traks).toHaveLength(2);
    const elst = find(moovBuf, traks[0], 'edts', 'elst')!;
    expect([moovBuf.readUInt32BE(elst.start + 8), moovBuf.readUInt32BE(elst.start + 12)]).toEqual([
      layout().presented,
      1024,
    ]);
    const chap = find(moovBuf, traks[0], 'tref', 'chap')!;
    expect(moovBuf.readUInt32BE(chap.start)).toBe(2);
    const hdlr = find(moovBuf, traks[1], 'mdia', 'hdlr')!;
    expect(moovBuf.toString('latin1', hdlr.start + 8, hdlr.start + 12)).toBe('text');
    const stts = find(moovBuf, traks[1], 'mdia', 'minf', 'stbl', 'stts')!;
    expect([
      moovBuf.readUInt32BE(stts.start + 4),
      moovBuf.readUInt32BE(stts.start + 12),
      moovBuf.readUInt32BE(stts.start + 20),
    ]).toEqual([2, 20, 15]);
    const stco = find(moovBuf, traks[1], 'mdia', 'minf', 'stbl', 'stco')!;
    expect([moovBuf.readUInt32BE(stco.start + 8), moovBuf.readUInt32BE(stco.start + 12)]).toEqual([160, 178]);
    const chpl = find(moovBuf, moov, 'udta', 'chpl')!;
    const c = moovBuf.subarray(chpl.start);
    expect(c[8]).toBe(2);
    expect(Number(c.readBigUInt64BE(9 + 8 + 1 + 4))).toBe(200000); // 0.02 s in 100 ns units
    expect(c.toString('utf8', 9 + 8 + 1 + 4 + 9, 9 + 8 + 1 + 4 + 13)).toBe('Zwei');
  });

  it('writes no chapter track or chpl without chapters, and 64-bit offsets when asked', () => {
    const moovBuf = buildMoov(layout({ chapters: [], chapterSizes: [], wide: true }));
    expect(childBoxes(moovBuf, 8, moovBuf.length).filter((b) => b.type === 'trak')).toHaveLength(1);
    expect(moovBuf.includes('chpl')).toBe(false);
    expect(moovBuf.includes('co64')).toBe(true);
  });

  it('stores a chapter title as its length, UTF-8 text and an encd box', () => {
    expect(chapterSample('Ä').toString('hex')).toBe('0002c3840000000c656e636400000100');
  });
});
