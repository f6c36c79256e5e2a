import { describe, expect, it } from 'vitest';
import { headTagSize, id3v2Size, readId3v1, tailTag, unsynchronise } from './tags.js';

function id3Header(major: number, flags: number, size: number): Buffer {
  return Buffer.from([
    0x49,
    0x44,
    0x33,
    major,
    0,
    flags,
    (size >> 21) & 0x7f,
    (size >> 14) & 0x7f,
    (size >> 7) & 0x7f,
    size & 0x7f,
  ]);
}

function apeFooter(size: number, isHeader: boolean, hasHeader: boolean): Buffer {
  const b = Buffer.alloc(32);
  b.write('APETAGEX', 0, 'latin1');
  b.writeUInt32LE(2000, 8);
  b.writeUInt32LE(size, 12);
  b.writeUInt32LE(1, 16);
  b.writeUInt32LE(((hasHeader ? 0x80000000 : 0) | (isHeader ? 0x20000000 : 0)) >>> 0, 20);
  return b;
}

function id3v1(title: string): Buffer {
  const b = Buffer.alloc(128);
  b.write('TAG', 0, 'latin1');
  b.write(title, 3, 'latin1');
  b.write('An Artist', 33, 'latin1');
  return b;
}

const audio = Buffer.alloc(300, 0x22);

describe('tag regions at the head', () => {
  it('skips an ID3v2 tag by its synchsafe size', () => {
    const tag = Buffer.concat([id3Header(3, 0, 200), Buffer.alloc(200)]);
    expect(id3v2Size(Buffer.concat([tag, audio]), 0)).toBe(210);
  });

  it('counts the footer of an ID3v2.4 tag that has one', () => {
    expect(id3v2Size(id3Header(4, 0x10, 50), 0)).toBe(70);
    expect(id3v2Size(id3Header(3, 0x10, 50), 0)).toBe(60); // the flag means nothing before 2.4
  });

  it('skips an unsynchronised tag by its stored size', () => {
    expect(id3v2Size(id3Header(3, 0x80, 1234), 0)).toBe(1244);
  });

  it('refuses a header whose size bytes are not synchsafe or whose version is unknown', () => {
    const bad = id3Header(3, 0, 0);
    bad[7] = 0x80;
    expect(id3v2Size(bad, 0)).toBe(0);
    expect(id3v2Size(id3Header(5, 0, 10), 0)).toBe(0);
    expect(id3v2Size(Buffer.from('ID3'), 0)).toBe(0);
  });

  it('skips an APEv2 tag at the head by its header', () => {
    const b = Buffer.concat([apeFooter(100, true, true), Buffer.alloc(68), apeFooter(100, false, true)]);
    expect(headTagSize(b, 0)).toBe(132);
    expect(headTagSize(apeFooter(100, false, true), 0)).toBe(0);
  });
});

describe('tag regions at the tail', () => {
  it('finds ID3v1', () => {
    expect(tailTag(Buffer.concat([audio, id3v1('Song')]))).toEqual({ kind: 'id3v1', size: 128 });
  });

  it('finds APEv2 with a header and without one', () => {
    const withHeader = Buffer.concat([
      audio,
      apeFooter(80, true, true),
      Buffer.alloc(48),
      apeFooter(80, false, true),
    ]);
    expect(tailTag(withHeader)).toEqual({ kind: 'ape', size: 112 });
    const bare = Buffer.concat([audio, Buffer.alloc(48), apeFooter(80, false, false)]);
    expect(tailTag(bare)).toEqual({ kind: 'ape', size: 80 });
  });

  it('finds Lyrics3 v2 by its size field and v1 by its begin marker', () => {
    const body = 'LYRICSBEGININD00003110';
    const v2 = Buffer.from(`${body}${String(body.length).padStart(6, '0')}LYRICS200`, 'latin1');
    expect(tailTag(Buffer.concat([audio, v2]))).toEqual({ kind: 'lyrics3v2', size: v2.length });
    const v1 = Buffer.from('LYRICSBEGINsome words hereLYRICSEND', 'latin1');
    expect(tailTag(Buffer.concat([audio, v1]))).toEqual({ kind: 'lyrics3v1', size: v1.length });
  });

  it('finds an appended ID3v2.4 tag by its footer', () => {
    const footer = Buffer.from(id3Header(4, 0x10, 40));
    footer.write('3DI', 0, 'latin1');
    const tag = Buffer.concat([id3Header(4, 0x10, 40), Buffer.alloc(40), footer]);
    expect(tailTag(Buffer.concat([audio, tag]))).toEqual({ kind: 'id3v2', size: 60 });
  });

  it('peels stacked tags one at a time: APEv2, then Lyrics3, then ID3v1', () => {
    const body = 'LYRICSBEGININD00003110';
    const lyrics = Buffer.from(`${body}${String(body.length).padStart(6, '0')}LYRICS200`, 'latin1');
    const ape = Buffer.concat([Buffer.alloc(48), apeFooter(80, false, false)]);
    let file = Buffer.concat([audio, ape, lyrics, id3v1('T')]);
    const kinds: string[] = [];
    for (let t = tailTag(file); t; t = tailTag(file)) {
      kinds.push(t.kind);
      file = file.subarray(0, file.length - t.size);
    }
    expect(kinds).toEqual(['id3v1', 'lyrics3v2', 'ape']);
    expect(file.equals(audio)).toBe(true);
  });

  it('finds nothing at the end of plain audio', () => {
    expect(tailTag(audio)).toBeNull();
  });
});

describe('tag text', () => {
  it('reads ID3v1 title and artist, trimming padding', () => {
    expect(readId3v1(id3v1('Song'))).toEqual({ title: 'Song', artist: 'An Artist' });
  });

  it('removes the zero byte after each 0xFF when undoing unsynchronisation', () => {
    expect([...unsynchronise(Buffer.from([1, 0xff, 0, 0xe0, 0xff, 0, 0, 2]))]).toEqual([
      1, 0xff, 0xe0, 0xff, 0, 2,
    ]);
  });
});
