import { execFile } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../../../test/support/audio-fixtures.js';
import { tools } from '../../../test/support/engine-kit.js';
import { flacClaiming } from '../../../test/support/flac-claims.js';
import { crc16, crc8, frameHeader, framesLength } from './flac-frames.js';
import { readFlacHead, readFlacSamples } from './flac-head.js';
import { streamInfo } from './flac-info.js';

const exec = promisify(execFile);

let dir: string;
let cleanup: () => Promise<void>;
const file = (name: string) => path.join(dir, name);

/** A FLAC of `samples` samples of a tone, encoded by ffmpeg (frames of `frameSize` when given). */
async function flac(name: string, samples: number, rate: number, channels: number, frameSize?: number) {
  await exec(tools.ffmpeg, [
    ...['-v', 'error', '-y', '-f', 'lavfi', '-i', `sine=f=330:r=${rate}`, '-ac', String(channels)],
    ...['-af', `atrim=end_sample=${samples}`, '-c:a', 'flac'],
    ...(frameSize ? ['-frame_size', String(frameSize)] : []),
    file(name),
  ]);
  return file(name);
}

/** What decoding the whole file gives, in samples per channel. */
async function decodedSamples(f: string): Promise<number> {
  const pcm = await exec(tools.ffmpeg, ['-v', 'error', '-i', f, '-f', 's16le', '-ac', '1', '-'], {
    encoding: 'buffer',
    maxBuffer: 1 << 24,
  });
  return pcm.stdout.length / 2;
}

/** The file's STREAMINFO, its first frame's bytes on, and all its audio (the pure function's inputs). */
async function parts(f: string) {
  const bytes = await readFile(f);
  let at = 4;
  for (let last = false; !last;) {
    last = (bytes[at] & 0x80) !== 0;
    at += 4 + bytes.readUIntBE(at + 1, 3);
  }
  const info = streamInfo(bytes.subarray(8, 42))!;
  return { info, audio: bytes.subarray(at) };
}

beforeAll(async () => {
  ({ dir, cleanup } = await tempDir('flac-frames-'));
});
afterAll(async () => {
  await cleanup?.();
});

describe('the FLAC checksums', () => {
  it('match the published check values for "123456789"', () => {
    const check = Buffer.from('123456789', 'latin1');
    expect(crc8(check, 0, check.length)).toBe(0xf4); // CRC-8 (poly 0x07)
    expect(crc16(check, 0, check.length)).toBe(0xfee8); // CRC-16/BUYPASS (poly 0x8005)
  });
});

describe('a FLAC stream length from its frames', () => {
  it('is what the file decodes to, a short last frame included', async () => {
    const cases = [
      await flac('tone.flac', 321_930, 44100, 2),
      await flac('blocks-1152.flac', 120_001, 48000, 1, 1152),
      await flac('one-frame.flac', 1000, 8000, 1),
      await flac('exact-frames.flac', 4608 * 3, 22050, 2),
    ];
    for (const f of cases) {
      const { info, audio } = await parts(f);
      const expected = await decodedSamples(f);
      expect(framesLength(audio, audio, info)).toBe(expected);
      expect(info.stated).toBe(expected); // ffmpeg's STREAMINFO is honest: the two agree
    }
  });

  it('is read from the tail alone: the head and the last bytes are enough', async () => {
    const { info, audio } = await parts(file('tone.flac'));
    expect(framesLength(audio.subarray(0, 16), audio.subarray(audio.length - 20_000), info)).toBe(321_930);
  });

  it('holds when STREAMINFO states one second of ten minutes, 0 (unknown), or twice the truth', async () => {
    const long = await flac('long.flac', 8000 * 600, 8000, 1);
    for (const claim of [8000, 0, 2 * 8000 * 600]) {
      const liar = file(`claims-${claim}.flac`);
      await flacClaiming(long, liar, claim);
      expect((await parts(liar)).info.stated).toBe(claim);
      expect(readFlacSamples(liar)).toBe(8000 * 600);
      expect(readFlacHead(liar)).toMatchObject({ stated: claim, samples: 8000 * 600 });
    }
  });

  it('looks past an ID3v1 tag after the frames', async () => {
    const bytes = await readFile(file('tone.flac'));
    const tag = Buffer.alloc(128);
    tag.write('TAGA title', 'latin1');
    await writeFile(file('id3v1.flac'), Buffer.concat([bytes, tag]));
    expect(readFlacSamples(file('id3v1.flac'))).toBe(321_930);
  });

  it('is unknown when the last frame is cut short or bytes follow it: the file must be decoded', async () => {
    const bytes = await readFile(file('tone.flac'));
    await writeFile(file('cut.flac'), bytes.subarray(0, Math.floor(bytes.length * 0.6)));
    await writeFile(file('junk.flac'), Buffer.concat([bytes, Buffer.from('TAG junk after the frames')]));
    for (const f of ['cut.flac', 'junk.flac']) {
      expect(readFlacSamples(file(f))).toBeUndefined();
      expect(readFlacHead(file(f))).toBeUndefined();
    }
  });

  it('is unknown when the frames are not of the stream STREAMINFO describes', async () => {
    const { info, audio } = await parts(file('tone.flac'));
    expect(framesLength(audio, audio, { ...info, channels: 1 })).toBeUndefined();
    // A fixed block size that STREAMINFO does not pin down: frame numbers give no sample count.
    expect(framesLength(audio, audio, { ...info, minBlockSize: 16 })).toBeUndefined();
    expect(framesLength(audio, audio, { ...info, maxBlockSize: 8192, minBlockSize: 8192 })).toBeUndefined();
  });
});

describe('a FLAC frame header', () => {
  it('reads the first frame of ffmpeg: frame 0, the stream block size, its CRC-8', async () => {
    const { audio } = await parts(file('blocks-1152.flac'));
    expect(frameHeader(audio, 0)).toMatchObject({ variable: false, number: 0, blockSize: 1152, channels: 1 });
  });

  it('is refused when a bit of it changes (CRC-8) or a field is reserved', async () => {
    const { audio } = await parts(file('tone.flac'));
    const length = frameHeader(audio, 0)!.length;
    for (let byte = 2; byte < length; byte++) {
      const bent = Buffer.from(audio.subarray(0, 32));
      bent[byte] ^= 0x01;
      expect(frameHeader(bent, 0)).toBeUndefined();
    }
    const reserved = Buffer.from(audio.subarray(0, 32));
    reserved[2] |= 0x0f; // sample rate code 1111
    expect(frameHeader(reserved, 0)).toBeUndefined();
  });
});
