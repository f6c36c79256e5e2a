import { execFile } from 'node:child_process';
import { open, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../../../test/support/audio-fixtures.js';
import { makeImage } from '../../../test/support/pictures.js';
import { checkCover, COVER_LIMITS, imageShape, readAtMost } from './cover.js';

let dir: string;
let cleanup: () => Promise<void>;
beforeAll(async () => ({ dir, cleanup } = await tempDir('cover-')));
afterAll(() => cleanup());

/** A real image made by ffmpeg, `w` x `h`, as PNG or JPEG by the extension. */
const image = (name: string, w: number, h: number) => makeImage(path.join(dir, name), { size: `${w}x${h}` });

describe('covers', () => {
  it('takes real JPEGs and PNGs within 4096 x 4096, knowing their size', async () => {
    const png = await image('a.png', 64, 48);
    const jpg = await image('a.jpg', 640, 480);
    expect(imageShape(png)).toEqual({ mime: 'image/png', width: 64, height: 48 });
    expect(imageShape(jpg)).toEqual({ mime: 'image/jpeg', width: 640, height: 480 });
    expect(checkCover(jpg)).toMatchObject({ ok: true, cover: { mime: 'image/jpeg' } });
  });

  it('refuses junk that starts like a PNG or a JPEG, saying why', () => {
    const fakePng = Buffer.concat([Buffer.from('\x89PNG\r\n\x1a\n', 'latin1'), Buffer.alloc(100, 7)]);
    const fakeJpeg = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(100, 7)]);
    for (const junk of [fakePng, fakeJpeg, Buffer.from('GIF89a')])
      expect(checkCover(junk)).toEqual({ ok: false, reason: 'cover is not a JPEG or PNG image' });
  });

  it('refuses a PNG that is a header and no picture, which no FLAC can carry', async () => {
    const png = await image('whole.png', 16, 16);
    const chunks: { type: string; data: Buffer }[] = [];
    for (let at = 8; at < png.length; at += 12 + png.readUInt32BE(at))
      chunks.push({
        type: png.toString('latin1', at + 4, at + 8),
        data: png.subarray(at + 8, at + 8 + png.readUInt32BE(at)),
      });
    const build = (list: { type: string; data: Buffer }[]) =>
      Buffer.concat([
        png.subarray(0, 8),
        ...list.map(({ type, data }) => {
          const length = Buffer.alloc(4);
          length.writeUInt32BE(data.length);
          return Buffer.concat([length, Buffer.from(type, 'latin1'), data, Buffer.alloc(4)]);
        }),
      ]);
    expect(imageShape(build(chunks))).toEqual({ mime: 'image/png', width: 16, height: 16 });
    const ihdr = chunks[0];
    const iend = chunks[chunks.length - 1];
    const badDepth = { type: 'IHDR', data: Buffer.from(ihdr.data) };
    badDepth.data[8] = 77;
    const lying = build(chunks);
    lying.writeUInt32BE(1 << 30, 8 + 25);
    for (const [what, junk] of [
      ['no image data', build([ihdr, iend])],
      ['noise for image data', build([ihdr, { type: 'zzZz', data: Buffer.alloc(100) }, iend])],
      ['a depth no PNG has', build([badDepth, ...chunks.slice(1)])],
      ['a chunk longer than the file', lying],
    ] as const)
      expect(checkCover(junk), what).toEqual({ ok: false, reason: 'cover is not a JPEG or PNG image' });
  });

  it('refuses a JPEG that is not baseline or progressive Huffman (arithmetic-coded, lossless), which FLAC cannot carry', async () => {
    const jpg = await image('coded.jpg', 16, 16);
    const sof = [...jpg.keys()].find((at) => jpg[at] === 0xff && [0xc0, 0xc1, 0xc2].includes(jpg[at + 1]))!;
    expect(sof).toBeGreaterThan(0);
    for (const marker of [0xc9, 0xca, 0xc3, 0xcb]) {
      const coded = Buffer.from(jpg);
      coded[sof + 1] = marker;
      expect(checkCover(coded), marker.toString(16)).toEqual({
        ok: false,
        reason: 'cover is not a JPEG or PNG image',
      });
    }
    // A frame header with no scan after it is no picture either.
    const headerOnly = Buffer.concat([
      jpg.subarray(0, sof + 2 + jpg.readUInt16BE(sof + 2)),
      Buffer.from([0xff, 0xd9]),
    ]);
    expect(checkCover(headerOnly)).toEqual({ ok: false, reason: 'cover is not a JPEG or PNG image' });
  });

  it('refuses a picture over 4096 pixels a side or over 10 MB', async () => {
    expect(checkCover(await image('wide.png', 5000, 8))).toEqual({
      ok: false,
      reason: 'cover is 5000 x 8 pixels, more than 4096 x 4096',
    });
    const big = Buffer.concat([await image('b.png', 8, 8), Buffer.alloc(COVER_LIMITS.bytes)]);
    expect(checkCover(big)).toEqual({ ok: false, reason: 'cover is larger than 10 MB' });
  });

  it('reads at most one byte over the limit, from /dev/zero too, and stops when told', async () => {
    expect((await readAtMost('/dev/zero', 3 * 1024 * 1024)).length).toBe(3 * 1024 * 1024 + 1);
    const small = path.join(dir, 'small.bin');
    await writeFile(small, Buffer.alloc(1000, 1));
    expect((await readAtMost(small, 5000)).length).toBe(1000);
    const stop = new AbortController();
    stop.abort();
    await expect(readAtMost('/dev/zero', 1 << 30, stop.signal)).rejects.toMatchObject({ name: 'AbortError' });
  });

  it('reads a pipe to at most one byte over the limit, and stops when told though its writer is silent', async () => {
    const fifo = path.join(dir, 'cover.fifo');
    await promisify(execFile)('mkfifo', [fifo]);
    // Read-write opens a FIFO at once: this handle is a writer that stays open.
    const writer = await open(fifo, 'r+');
    try {
      await writer.write(Buffer.alloc(5000, 1));
      expect((await readAtMost(fifo, 3000)).length).toBe(3001);
      const stop = new AbortController();
      const reading = readAtMost(fifo, 1 << 20, stop.signal);
      setImmediate(() => stop.abort());
      await expect(reading).rejects.toMatchObject({ name: 'AbortError' });
    } finally {
      await writer.close();
    }
  });
});
