import { describe, expect, it } from 'vitest';
import { decodeTextFrame, readId3v2Text } from './id3-read.js';
import { buildId3v23 } from './id3-write.js';

const ss = (n: number) => [(n >> 21) & 0x7f, (n >> 14) & 0x7f, (n >> 7) & 0x7f, n & 0x7f];

function tag(major: number, flags: number, body: Buffer): Buffer {
  return Buffer.concat([Buffer.from([0x49, 0x44, 0x33, major, 0, flags, ...ss(body.length)]), body]);
}

function frame23(id: string, data: Buffer, fmt = 0): Buffer {
  const h = Buffer.alloc(10);
  h.write(id, 0, 'latin1');
  h.writeUInt32BE(data.length, 4);
  h[9] = fmt;
  return Buffer.concat([h, data]);
}

function frame24(id: string, data: Buffer, fmt = 0): Buffer {
  return Buffer.concat([
    Buffer.from(id, 'latin1'),
    Buffer.from(ss(data.length)),
    Buffer.from([0, fmt]),
    data,
  ]);
}

describe('ID3v2 text frames', () => {
  it('decodes ISO-8859-1, UTF-16 with either BOM, UTF-16BE and UTF-8', () => {
    expect(decodeTextFrame(Buffer.from([0, 0x43, 0x61, 0x66, 0xe9]))).toBe('Café');
    expect(
      decodeTextFrame(Buffer.concat([Buffer.from([1, 0xff, 0xfe]), Buffer.from('Жук', 'utf16le')])),
    ).toBe('Жук');
    expect(
      decodeTextFrame(Buffer.concat([Buffer.from([1, 0xfe, 0xff]), Buffer.from('Жук', 'utf16le').swap16()])),
    ).toBe('Жук');
    expect(decodeTextFrame(Buffer.concat([Buffer.from([2]), Buffer.from('日本', 'utf16le').swap16()]))).toBe(
      '日本',
    );
    expect(decodeTextFrame(Buffer.concat([Buffer.from([3]), Buffer.from('naïve\0second', 'utf8')]))).toBe(
      'naïve',
    );
  });

  it('reads title, artist and album from an ID3v2.3 tag', () => {
    const body = Buffer.concat([
      frame23('TIT2', Buffer.from('\0Title', 'latin1')),
      frame23('TXXX', Buffer.from('\0x\0y', 'latin1')),
      frame23('TPE1', Buffer.from('\0Artist', 'latin1')),
      frame23('TALB', Buffer.from('\0Album', 'latin1')),
      Buffer.alloc(20),
    ]);
    expect(readId3v2Text(tag(3, 0, body))).toEqual({ title: 'Title', artist: 'Artist', album: 'Album' });
  });

  it('reads an ID3v2.2 tag with three-letter frame ids', () => {
    const tt2 = Buffer.concat([
      Buffer.from('TT2', 'latin1'),
      Buffer.from([0, 0, 4]),
      Buffer.from('\0Old', 'latin1'),
    ]);
    expect(readId3v2Text(tag(2, 0, tt2))).toEqual({ title: 'Old' });
  });

  it('undoes whole-tag unsynchronisation in ID3v2.3', () => {
    // title bytes FF E9 would be a false sync; the tag stores FF 00 E9
    const raw = frame23('TIT2', Buffer.from([0, 0x41, 0xff, 0xe9]));
    const stored = Buffer.from([...raw.subarray(0, 12), 0xff, 0x00, 0xe9]);
    expect(readId3v2Text(tag(3, 0x80, stored))).toEqual({ title: 'Aÿé' });
  });

  it('reads ID3v2.4 frames with synchsafe sizes, a data length indicator and per-frame unsynchronisation', () => {
    const text = Buffer.from([3, ...Buffer.from('ÿé', 'utf8')]); // UTF-8 C3 BF C3 A9: no FF
    const dli = Buffer.concat([Buffer.from(ss(text.length)), text]);
    const unsynced = Buffer.from([0, 0x41, 0xff, 0x00, 0xe0]); // Latin-1 'A', FF, E0 after undoing
    const body = Buffer.concat([frame24('TIT2', dli, 0x01), frame24('TPE1', unsynced, 0x02)]);
    expect(readId3v2Text(tag(4, 0, body))).toEqual({ title: 'ÿé', artist: 'A\u00ff\u00e0' });
  });

  it('skips an extended header', () => {
    const ext = Buffer.from([0, 0, 0, 6, 0, 0, 0, 0, 0, 0]); // v2.3: size 6 excludes itself
    const body = Buffer.concat([ext, frame23('TIT2', Buffer.from('\0T', 'latin1'))]);
    expect(readId3v2Text(tag(3, 0x40, body))).toEqual({ title: 'T' });
  });

  it('reads back what buildId3v23 wrote, Latin-1 and UTF-16', () => {
    const written = buildId3v23({ title: 'Übung 1', artist: 'Дмитрий', album: '"A & B" %2F' });
    expect(written.subarray(0, 4).toString('latin1')).toBe('ID3\x03');
    expect(readId3v2Text(written)).toEqual({ title: 'Übung 1', artist: 'Дмитрий', album: '"A & B" %2F' });
    expect(buildId3v23({}).length).toBe(0);
  });
});
