import { execFile } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTone, tempDir } from '../../../test/support/audio-fixtures.js';
import { tools } from '../../../test/support/engine-kit.js';
import { makeImage, withPicture } from '../../../test/support/pictures.js';
import type { Runner } from '../ffmpeg/runner.js';
import { readFlacHead } from './flac-head.js';
import { probeInput } from './probe.js';

const exec = promisify(execFile);

interface Stated {
  format: { duration: string; bit_rate: string; tags?: Record<string, string> };
  streams: Array<{
    codec_type: string;
    sample_rate?: string;
    channels?: number;
    bits_per_raw_sample?: string;
    disposition?: { attached_pic: number };
  }>;
}

async function stated(file: string): Promise<Stated> {
  const args = ['-v', 'error', '-print_format', 'json', '-show_format', '-show_streams', file];
  return JSON.parse((await exec(tools.ffprobe, args)).stdout) as Stated;
}

/** `file` with its Vorbis comments replaced by `comments` (the other blocks and the audio kept). */
async function withComments(src: string, file: string, comments: string[]): Promise<string> {
  const bytes = await readFile(src);
  const blocks: Buffer[] = [];
  let at = 4;
  for (let last = false; !last;) {
    last = (bytes[at] & 0x80) !== 0;
    const length = bytes.readUIntBE(at + 1, 3);
    if ((bytes[at] & 0x7f) !== 4) blocks.push(Buffer.from(bytes.subarray(at, at + 4 + length)));
    at += 4 + length;
  }
  const entries = comments.map((c) => Buffer.from(c, 'utf8'));
  const le = (n: number) => Buffer.from(Uint32Array.of(n).buffer);
  const body = Buffer.concat([le(0), le(entries.length), ...entries.flatMap((e) => [le(e.length), e])]);
  const header = Buffer.from([4, 0, 0, 0]);
  header.writeUIntBE(body.length, 1, 3);
  blocks.push(Buffer.concat([header, body]));
  blocks.forEach((b, k) => (b[0] = (b[0] & 0x7f) | (k === blocks.length - 1 ? 0x80 : 0)));
  await writeFile(file, Buffer.concat([bytes.subarray(0, 4), ...blocks, bytes.subarray(at)]));
  return file;
}

describe('FLAC inputs probed in-process', () => {
  let dir: string;
  let cleanup: () => Promise<void>;
  let cover: string;
  beforeAll(async () => {
    ({ dir, cleanup } = await tempDir());
    cover = path.join(dir, 'cover.png');
    await makeImage(cover, { size: '16x16' });
  });
  afterAll(() => cleanup());

  const tagArgs = ['title=Hello', 'artist=Me', 'album_artist=Us', 'track=3', 'disc=1', 'comment=Note = kept'];
  it.each([
    ['mono, tags', { channels: 1, extraArgs: tagArgs.flatMap((t) => ['-metadata', t]) }],
    ['24-bit 96 kHz', { sampleRate: 96000, codecArgs: ['-c:a', 'flac', '-sample_fmt', 's32'] }],
    ['a PNG cover', { extraArgs: [] as string[], cover: true }],
  ])('reads what ffprobe states of a FLAC with %s, without ffprobe', async (name, opts) => {
    const tone = await makeTone(path.join(dir, `${name}.flac`), { seconds: 1.3, ...opts });
    let file = tone;
    if ('cover' in opts) {
      file = path.join(dir, 'covered.flac');
      await withPicture(tone, cover, file);
    }
    expect(readFlacHead(file)).toBeDefined();
    const spawned: string[] = [];
    const runner: Runner = () => {
      spawned.push('tool');
      throw new Error('no tool should run');
    };
    const probed = await probeInput(file, { tools, runner, headDecode: false });
    expect(spawned).toEqual([]);
    const json = await stated(file);
    const audio = json.streams.find((s) => s.codec_type === 'audio')!;
    expect(probed.result).toMatchObject({
      format: 'flac',
      codec: 'flac',
      sampleRate: Number(audio.sample_rate),
      channels: audio.channels,
      bitsPerSample: Number(audio.bits_per_raw_sample),
    });
    // ffprobe prints microseconds and whole bits per second.
    expect(Math.abs(probed.result.durationSeconds - Number(json.format.duration))).toBeLessThanOrEqual(5e-7);
    expect(Math.abs(probed.result.bitRate - Number(json.format.bit_rate))).toBeLessThanOrEqual(1);
    const tags = Object.fromEntries(
      Object.entries(json.format.tags ?? {}).map(([k, v]) => [k.toLowerCase(), v]),
    );
    expect(probed.result.tags).toEqual(tags);
    expect(probed.hasCover).toBe(json.streams.some((s) => s.disposition?.attached_pic === 1));
    expect(probed.hasCover).toBe('cover' in opts);
    expect(probed.samples).toBe(Math.round(probed.result.durationSeconds * probed.result.sampleRate));
  });

  it('leaves to ffprobe the comments whose reading depends on its order: a key twice, chapters', async () => {
    const tone = await makeTone(path.join(dir, 'plain.flac'), { seconds: 1 });
    const twice = await withComments(tone, path.join(dir, 'twice.flac'), [
      'artist=one',
      'Artist=two',
      'title=T',
    ]);
    const chapters = await withComments(tone, path.join(dir, 'chapters.flac'), [
      'CHAPTER001=00:00:00.000',
      'CHAPTER001NAME=Intro',
      'title=T',
    ]);
    for (const file of [twice, chapters]) expect(readFlacHead(file)).toBeUndefined();
    expect((await probeInput(twice, { tools, headDecode: false })).result.tags).toMatchObject({
      artist: 'one;two',
      title: 'T',
    });
    const read = await probeInput(chapters, { tools, headDecode: false });
    expect(read.result.tags).toEqual({ title: 'T' });
  });

  it('reads renamed and skipped comments as ffprobe does', async () => {
    const tone = await makeTone(path.join(dir, 'plain2.flac'), { seconds: 1 });
    const file = await withComments(tone, path.join(dir, 'renamed.flac'), [
      'ALBUMARTIST=aa',
      'TrackNumber=3',
      'DiscNumber=2',
      'DESCRIPTION=dd',
      '=no key',
      'empty=',
      'no equals sign',
      'Ünï=x',
    ]);
    expect(readFlacHead(file)).toBeDefined();
    const tags = Object.fromEntries(
      Object.entries((await stated(file)).format.tags ?? {}).map(([k, v]) => [k.toLowerCase(), v]),
    );
    expect((await probeInput(file, { tools, headDecode: false })).result.tags).toEqual(tags);
  });
});
