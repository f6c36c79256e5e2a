import { describe, expect, it } from 'vitest';
import { ffmetadata, pictureBlock } from './ffmetadata.js';

describe('ffmetadata', () => {
  it('escapes what ffmpeg would read as syntax and leaves out empty values', () => {
    expect(
      ffmetadata([
        ['title', 'a=b;c#d\\e\nf'],
        ['artist', ''],
        ['CHAPTER001', '00:00:01.000'],
      ]),
    ).toBe(';FFMETADATA1\ntitle=a\\=b\\;c\\#d\\\\e\\\nf\nCHAPTER001=00:00:01.000\n');
  });

  it('ends a value that ends in a backslash with a NUL, so the next line stays its own', () => {
    expect(
      ffmetadata([
        ['title', 'a\\'],
        ['artist', 'b'],
      ]),
    ).toBe(';FFMETADATA1\ntitle=a\\\\\0\nartist=b\n');
  });

  it('builds a FLAC picture block for Ogg covers', () => {
    const b = Buffer.from(pictureBlock('image/png', Buffer.from([1, 2])), 'base64');
    expect(b.readUInt32BE(0)).toBe(3);
    expect(b.toString('latin1', 8, 17)).toBe('image/png');
    expect([...b.subarray(b.length - 6)]).toEqual([0, 0, 0, 2, 1, 2]);
  });
});
