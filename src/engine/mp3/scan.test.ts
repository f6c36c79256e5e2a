import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ffprobeJson, makeTone, tempDir } from '../../../test/support/audio-fixtures.js';
import { makeToneWithArt } from '../../../test/support/mp3-fixtures.js';
import { noise } from '../../../test/support/mp3-synth.js';
import { parseFrameHeader, readWord } from './frames.js';
import { crc16 } from './lame.js';
import { scanMp3, type Mp3Scan } from './scan.js';
import { id3v2Size } from './tags.js';

let dir: string;
let cleanup: () => Promise<void>;
beforeAll(async () => ({ dir, cleanup } = await tempDir()));
afterAll(() => cleanup());

const CBR = ['-c:a', 'libmp3lame', '-b:a', '128k'];
const VBR = ['-c:a', 'libmp3lame', '-q:a', '4'];

async function scanned(file: string, opts: { fullWalk?: boolean } = {}): Promise<Mp3Scan> {
  const r = await scanMp3(file, opts);
  if (!r.ok) throw new Error(`scan failed: ${r.reason}`);
  return r.scan;
}

/** Walk the frames of [audioStart, audioEnd) independently of the scanner. */
async function framesIn(file: string, s: Mp3Scan): Promise<number> {
  const b = await readFile(file);
  let n = 0;
  for (let p = s.audioStart; p < s.audioEnd; n++) p += parseFrameHeader(readWord(b, p))!.frameLength;
  return n;
}

describe('scanMp3', () => {
  it('counts the frames of a CBR file: the duration ffprobe reports, the region holding whole frames', async () => {
    const f = await makeTone(path.join(dir, 'cbr.mp3'), { seconds: 3, codecArgs: CBR });
    const s = await scanned(f);
    expect(s).toMatchObject({
      mpegVersion: 1,
      layer: 3,
      sampleRate: 44100,
      channels: 2,
      samplesPerFrame: 1152,
      vbr: false,
    });
    const probed = Number((await ffprobeJson(f)).format.duration);
    expect(Math.abs(s.durationSeconds - probed)).toBeLessThan(1152 / 44100);
    expect(s.durationSeconds).toBeCloseTo((s.frames * 1152) / 44100, 9);
    expect(Math.abs(s.bitRate - 128000)).toBeLessThan(1000);
    expect(await framesIn(f, s)).toBe(s.frames);
    expect(s.audioEnd - s.audioStart).toBe(s.audioBytes);
  });

  it('sees VBR as VBR', async () => {
    const f = await makeTone(path.join(dir, 'vbr.mp3'), { seconds: 3, codecArgs: VBR });
    const s = await scanned(f);
    expect(s.vbr).toBe(true);
    expect(Math.abs(s.durationSeconds - Number((await ffprobeJson(f)).format.duration))).toBeLessThan(
      1152 / 44100,
    );
  });

  it('reads title, artist and album from ID3v2.3 and ID3v2.4, and from ID3v1 alone', async () => {
    const meta = ['-metadata', 'title=Grüße 日本', '-metadata', 'artist=Ann', '-metadata', 'album=Best of'];
    for (const v of ['3', '4']) {
      const f = await makeTone(path.join(dir, `tags${v}.mp3`), {
        seconds: 1,
        codecArgs: CBR,
        extraArgs: [...meta, '-id3v2_version', v],
      });
      expect((await scanned(f)).tags).toEqual({ title: 'Grüße 日本', artist: 'Ann', album: 'Best of' });
    }
    // ffmpeg writes ID3v1 only beside ID3v2, so cut the ID3v2 tag off to leave ID3v1 alone
    const both = await readFile(
      await makeTone(path.join(dir, 'v1v2.mp3'), {
        seconds: 1,
        codecArgs: CBR,
        extraArgs: ['-metadata', 'title=Old One', '-write_id3v1', '1'],
      }),
    );
    const b = both.subarray(id3v2Size(both, 0));
    const v1 = path.join(dir, 'v1.mp3');
    await writeFile(v1, b);
    const s = await scanned(v1);
    expect(s.tags.title).toBe('Old One');
    expect(b.subarray(b.length - 128, b.length - 125).toString()).toBe('TAG');
    expect(s.audioEnd).toBeLessThanOrEqual(b.length - 128);
  });

  it('skips cover art in the ID3v2 tag', async () => {
    const f = await makeToneWithArt(path.join(dir, 'art.mp3'));
    const plain = await scanned(await makeTone(path.join(dir, 'noart.mp3'), { seconds: 1, codecArgs: CBR }));
    const s = await scanned(f);
    expect((await readFile(f)).subarray(0, s.audioStart).includes('APIC')).toBe(true);
    expect(s.audioStart).toBeGreaterThan(plain.audioStart + 100);
    expect(s.frames).toBe(plain.frames);
  });

  it('reads MPEG-2 and MPEG-2.5 streams', async () => {
    const cases: [number, number, number][] = [
      [22050, 1, 2],
      [24000, 2, 2],
      [16000, 1, 2],
      [8000, 1, 2.5],
      [11025, 1, 2.5],
    ];
    for (const [rate, ch, version] of cases) {
      const f = await makeTone(path.join(dir, `m${rate}.mp3`), {
        seconds: 1,
        sampleRate: rate,
        channels: ch,
        codecArgs: ['-c:a', 'libmp3lame', '-b:a', '32k'],
      });
      const s = await scanned(f);
      expect(s).toMatchObject({ sampleRate: rate, channels: ch, mpegVersion: version, samplesPerFrame: 576 });
      expect(Math.abs(s.durationSeconds - Number((await ffprobeJson(f)).format.duration))).toBeLessThan(
        576 / rate,
      );
    }
  });

  it('finds the same frames behind stacked ID3v2 tags and APEv2, Lyrics3 and ID3v1 at the tail', async () => {
    const f = await makeTone(path.join(dir, 'plain.mp3'), { seconds: 1, codecArgs: CBR });
    const base = await scanned(f);
    const audio = await readFile(f);
    const id3 = (n: number) =>
      Buffer.concat([
        Buffer.from([0x49, 0x44, 0x33, 4, 0, 0x10, 0, 0, 0, n]),
        Buffer.alloc(n),
        Buffer.from([0x33, 0x44, 0x49, 4, 0, 0x10, 0, 0, 0, n]),
      ]);
    const ape = Buffer.alloc(64);
    ape.write('APETAGEX', 32, 'latin1');
    ape.writeUInt32LE(2000, 40);
    ape.writeUInt32LE(64, 44); // no header: size covers items and footer
    const lyr = 'LYRICSBEGININD00003110';
    const lyrics = Buffer.from(`${lyr}${String(lyr.length).padStart(6, '0')}LYRICS200`, 'latin1');
    const v1 = Buffer.alloc(128);
    v1.write('TAGTail title', 0, 'latin1');
    const g = path.join(dir, 'stacked.mp3');
    await writeFile(g, Buffer.concat([id3(20), id3(7), audio, ape, lyrics, v1]));
    const s = await scanned(g);
    expect(s.frames).toBe(base.frames);
    expect(s.audioStart).toBe(base.audioStart + 20 + 20 + 7 + 20);
    expect(s.tags.title).toBe('Tail title');
  });

  it('scans a truncated file with its whole frames', async () => {
    const f = await makeTone(path.join(dir, 'whole.mp3'), { seconds: 2, codecArgs: CBR });
    const whole = await scanned(f);
    const b = await readFile(f);
    const cut = whole.audioStart + Math.floor(whole.audioBytes / 2) + 100;
    const g = path.join(dir, 'cut.mp3');
    await writeFile(g, b.subarray(0, cut));
    const s = await scanned(g);
    expect(s.frames).toBeLessThan(whole.frames);
    expect(s.audioEnd).toBeLessThanOrEqual(cut);
    expect(cut - s.audioEnd).toBeLessThan(418);
    expect(await framesIn(g, s)).toBe(s.frames);
  });

  it('says random bytes, text with sync words, an empty file and layer II are not MP3', async () => {
    const rnd = path.join(dir, 'random.mp3');
    await writeFile(rnd, noise(200_000, 99));
    expect(await scanMp3(rnd)).toMatchObject({ ok: false, reason: expect.stringMatching(/not an MP3/) });
    const txt = path.join(dir, 'text.mp3');
    await writeFile(
      txt,
      Buffer.concat([
        Buffer.from('Hello\n'.repeat(100)),
        Buffer.from([0xff, 0xfb, 0x90, 0x64]),
        Buffer.from('world\n'.repeat(100)),
      ]),
    );
    expect((await scanMp3(txt)).ok).toBe(false);
    const empty = path.join(dir, 'empty.mp3');
    await writeFile(empty, '');
    expect(await scanMp3(empty)).toMatchObject({ ok: false, reason: 'the file is empty' });
    const mp2 = await makeTone(path.join(dir, 'layer2.mp3'), {
      seconds: 1,
      codecArgs: ['-c:a', 'mp2', '-b:a', '192k'],
      extraArgs: ['-f', 'mp2'],
    });
    expect(await scanMp3(mp2)).toMatchObject({ ok: false, reason: expect.stringMatching(/layer II/) });
  });

  it('takes the count from a LAME tag that holds, and walks every frame otherwise', async () => {
    const files = [
      await makeTone(path.join(dir, 'l-cbr.mp3'), { seconds: 3, codecArgs: CBR }),
      await makeTone(path.join(dir, 'l-vbr.mp3'), {
        seconds: 3,
        codecArgs: VBR,
        extraArgs: ['-write_id3v1', '1'],
      }),
      await makeTone(path.join(dir, 'l-22.mp3'), {
        seconds: 2,
        sampleRate: 22050,
        channels: 1,
        codecArgs: ['-c:a', 'libmp3lame', '-b:a', '32k'],
      }),
      await makeTone(path.join(dir, 'l-8.mp3'), {
        seconds: 2,
        sampleRate: 8000,
        channels: 1,
        codecArgs: ['-c:a', 'libmp3lame', '-b:a', '16k'],
      }),
      await makeToneWithArt(path.join(dir, 'l-art.mp3')),
    ];
    for (const f of files) {
      const walked = await scanned(f, { fullWalk: true });
      expect(await scanned(f)).toEqual(walked);
      expect(await framesIn(f, walked)).toBe(walked.frames);
    }
    // a tag that lies: with its CRC broken the scan walks; with the CRC made to match, a CBR count
    // that does not fit the bytes is still refused, and a VBR one is believed (the join recounts)
    const lie = async (file: string, tagName: string) => {
      const b = await readFile(file);
      const truth = await scanned(file, { fullWalk: true });
      const tagAt = b.indexOf(tagName);
      const frameStart = tagAt - 36;
      expect(frameStart + parseFrameHeader(readWord(b, frameStart))!.frameLength).toBe(truth.audioStart);
      const lied = Buffer.from(b);
      lied.writeUInt32BE(truth.frames + 5, tagAt + 8);
      const out = path.join(dir, `lied-${tagName}.mp3`);
      await writeFile(out, lied);
      const withBadCrc = (await scanned(out)).frames;
      lied.writeUInt16BE(crc16(lied, frameStart, frameStart + 190), frameStart + 190);
      await writeFile(out, lied);
      return { truth: truth.frames, withBadCrc, withGoodCrc: (await scanned(out)).frames };
    };
    const cbr = await lie(files[0], 'Info');
    expect(cbr).toEqual({ truth: cbr.truth, withBadCrc: cbr.truth, withGoodCrc: cbr.truth });
    const vbr = await lie(files[1], 'Xing');
    expect(vbr).toEqual({ truth: vbr.truth, withBadCrc: vbr.truth, withGoodCrc: vbr.truth + 5 });
  });

  it('stops when aborted', async () => {
    const f = await makeTone(path.join(dir, 'abort.mp3'), { seconds: 1, codecArgs: CBR });
    await expect(scanMp3(f, { signal: AbortSignal.abort() })).rejects.toThrow(/cancelled/);
  });
});
