import { describe, expect, it } from 'vitest';
import { checkCover, COVER_LIMITS, readImageInfo } from './cover-image.js';

function png(width: number, height: number): Buffer {
  const head = Buffer.from('\x89PNG\r\n\x1a\n', 'latin1');
  const ihdr = Buffer.alloc(25);
  ihdr.writeUInt32BE(13, 0);
  ihdr.write('IHDR', 4, 'latin1');
  ihdr.writeUInt32BE(width, 8);
  ihdr.writeUInt32BE(height, 12);
  return Buffer.concat([head, ihdr]);
}

function jpeg(width: number, height: number): Buffer {
  const app0 = Buffer.from([0xff, 0xe0, 0x00, 0x04, 0x4a, 0x46]);
  const sof = Buffer.from([
    0xff,
    0xc0,
    0x00,
    0x11,
    0x08,
    height >> 8,
    height & 255,
    width >> 8,
    width & 255,
    3,
  ]);
  return Buffer.concat([Buffer.from([0xff, 0xd8]), app0, sof, Buffer.alloc(16)]);
}

describe('a cover', () => {
  it('reads the kind and size of a PNG and a JPEG', () => {
    expect(readImageInfo(png(600, 400))).toEqual({ mime: 'image/png', width: 600, height: 400 });
    expect(readImageInfo(jpeg(1400, 1400))).toEqual({ mime: 'image/jpeg', width: 1400, height: 1400 });
    expect(readImageInfo(Buffer.from('GIF89a........'))).toBeUndefined();
  });

  it('is refused beyond 10 MB, 4096 x 4096, or when not a JPEG or PNG', () => {
    expect(checkCover(png(4096, 4096)).ok).toBe(true);
    expect(checkCover(png(4097, 10))).toMatchObject({ ok: false, problem: 'too-many-pixels' });
    expect(checkCover(jpeg(10, 5000))).toMatchObject({ ok: false, problem: 'too-many-pixels' });
    expect(checkCover(png(10, 10), COVER_LIMITS.bytes + 1)).toMatchObject({
      ok: false,
      problem: 'too-large',
    });
    expect(checkCover(Buffer.from('<svg/>'))).toMatchObject({ ok: false, problem: 'not-image' });
  });
});
