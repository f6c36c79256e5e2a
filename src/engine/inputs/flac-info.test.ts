import { describe, expect, it } from 'vitest';
import { FLAC_BLOCK, flacHead, streamInfo, vorbisTags } from './flac-info.js';

/** "fLaC", a metadata block header, and the 34 bytes of STREAMINFO. */
const FLAC_HEAD_BYTES = 42;

/** "fLaC" and a STREAMINFO block stating this rate, stereo 16-bit, and this total. */
function flacHeadBytes(rate: number, total: number, last = true): Buffer {
  const b = Buffer.alloc(FLAC_HEAD_BYTES);
  b.write('fLaC', 0, 'latin1');
  b[4] = last ? 0x80 : 0x00; // block type 0 (STREAMINFO), last-block flag
  b.writeUIntBE(34, 5, 3);
  const info = 8;
  b.writeUInt16BE(4096, info);
  b.writeUInt16BE(4096, info + 2);
  // rate (20 bits), channels - 1 (3), bits - 1 (5), total (36)
  b[info + 10] = (rate >> 12) & 0xff;
  b[info + 11] = (rate >> 4) & 0xff;
  b[info + 12] = ((rate & 0x0f) << 4) | (1 << 1) | (15 >> 4);
  b[info + 13] = ((15 & 0x0f) << 4) | Math.floor(total / 2 ** 32);
  b.writeUInt32BE(total % 2 ** 32, info + 14);
  return b;
}

describe('FLAC STREAMINFO', () => {
  const info = (rate: number, total: number) => streamInfo(flacHeadBytes(rate, total).subarray(8));

  it('reads the stated total, up to 36 bits, 0 when the encoder did not know it', () => {
    expect(info(44100, 5292000)?.stated).toBe(5292000);
    expect(info(96000, 2 ** 33 + 5)?.stated).toBe(2 ** 33 + 5);
    expect(info(44100, 0)?.stated).toBe(0);
  });

  it('refuses a block of another length, no rate, or block sizes out of order', () => {
    expect(streamInfo(flacHeadBytes(44100, 1000).subarray(8, 40))).toBeUndefined();
    expect(info(0, 1000)).toBeUndefined();
    const body = Buffer.from(flacHeadBytes(44100, 1000).subarray(8));
    body.writeUInt16BE(8192, 0);
    expect(streamInfo(body)).toBeUndefined();
  });
});

/** A VORBIS_COMMENT block's body: vendor, then each comment, lengths little-endian. */
function comments(...entries: Array<string | Buffer>): Buffer {
  const le = (n: number) => Buffer.from(Uint32Array.of(n).buffer);
  const bytes = entries.map((e) => (typeof e === 'string' ? Buffer.from(e, 'utf8') : e));
  return Buffer.concat([
    le(6),
    Buffer.from('vendor'),
    le(bytes.length),
    ...bytes.flatMap((b) => [le(b.length), b]),
  ]);
}

/** A PICTURE block of this MIME type holding `data` bytes. */
function picture(mime: string, data = 10) {
  const u32 = (n: number) => Buffer.from([n >>> 24, (n >> 16) & 0xff, (n >> 8) & 0xff, n & 0xff]);
  const head = Buffer.concat([
    u32(3),
    u32(mime.length),
    Buffer.from(mime),
    u32(0),
    u32(16),
    u32(16),
    u32(24),
    u32(0),
    u32(data),
  ]);
  return { type: FLAC_BLOCK.picture, length: head.length + data, body: head };
}

describe('FLAC metadata blocks as ffmpeg reads them', () => {
  const info = { type: FLAC_BLOCK.streaminfo, length: 34, body: flacHead44(1000) };
  function flacHead44(total: number) {
    return flacHeadBytes(44100, total).subarray(8);
  }

  it('states the shape and the stated length from STREAMINFO', () => {
    expect(flacHead([info])).toEqual({
      sampleRate: 44100,
      channels: 2,
      bitsPerSample: 16,
      stated: 1000,
      minBlockSize: 4096,
      maxBlockSize: 4096,
      maxFrameSize: 0,
      tags: {},
      hasPicture: false,
    });
    expect(flacHead([{ ...info, body: flacHead44(0) }])?.stated).toBe(0);
  });

  it('keys comments as ffmpeg does: renamed, case kept, those without key or value skipped', () => {
    expect(
      vorbisTags(
        comments(
          'ALBUMARTIST=a',
          'tracknumber=3',
          'DiscNumber=1',
          'Description=d',
          'Title=x=y',
          '=v',
          'k=',
          'none',
        ),
      ),
    ).toEqual({ album_artist: 'a', track: '3', disc: '1', comment: 'd', Title: 'x=y' });
  });

  it('leaves to ffprobe what depends on its order or other readers: a key twice, chapters, pictures, bad bytes', () => {
    expect(vorbisTags(comments('artist=a', 'ARTIST=b'))).toBeUndefined();
    expect(vorbisTags(comments('DESCRIPTION=a', 'comment=b'))).toBeUndefined();
    expect(vorbisTags(comments('CHAPTER001=00:00:00.000'))).toBeUndefined();
    expect(vorbisTags(comments('METADATA_BLOCK_PICTURE=AAAA'))).toBeUndefined();
    expect(vorbisTags(comments(Buffer.from([0x61, 0x3d, 0xff])))).toBeUndefined();
    expect(vorbisTags(comments('a=b').subarray(0, 20))).toBeUndefined();
  });

  it('counts a JPEG or PNG picture as a cover, and leaves other pictures to ffprobe', () => {
    expect(flacHead([info, picture('image/png')])?.hasPicture).toBe(true);
    expect(flacHead([info, picture('image/jpeg')])?.hasPicture).toBe(true);
    expect(flacHead([info, picture('image/gif')])).toBeUndefined();
    expect(flacHead([info, { ...picture('image/png'), length: 5 }])).toBeUndefined();
  });
});
