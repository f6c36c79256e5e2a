import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTone, tempDir } from '../../../test/support/audio-fixtures.js';
import { tools } from '../../../test/support/engine-kit.js';
import { readLameTag } from '../../../test/support/xing-read.js';
import { mergeFiles } from '../index.js';
import { bitRateKbps, parseFrameHeader, readWord } from '../mp3/frames.js';
import { crc16 } from '../mp3/lame.js';
import { id3v2Size } from '../mp3/tags.js';

const run = promisify(execFile);
// mediainfo is what a person checks a file with; Debian's package, where it is installed.
const hasMediainfo = ['/usr/bin/mediainfo', '/usr/local/bin/mediainfo'].some((p) => existsSync(p));

let dir: string;
let cleanup: () => Promise<void>;
beforeAll(async () => ({ dir, cleanup } = await tempDir()));
afterAll(() => cleanup());

/** The merged file's LAME tag, and the bit rates and channel modes its audio frames really have. */
async function mergedTag(name: string, inputs: string[]) {
  const out = path.join(dir, name);
  await mergeFiles(inputs, out, { tools });
  const bytes = await readFile(out);
  const start = id3v2Size(bytes, 0);
  const header = parseFrameHeader(readWord(bytes, start))!;
  const tag = readLameTag(bytes.subarray(start, start + header.frameLength));
  const kbps = new Set<number>();
  const modes = new Set<number>();
  for (let p = start + header.frameLength; p < bytes.length;) {
    const h = parseFrameHeader(readWord(bytes, p));
    if (!h?.frameLength) break;
    kbps.add(bitRateKbps(h.mpegVersion, 3, h.bitRateIndex));
    modes.add(h.channelMode);
    p += h.frameLength;
  }
  return { tag: tag!, kbps: [...kbps].sort((a, b) => a - b), modes: [...modes] };
}

/**
 * `file` as if LAME itself had written its tag (ffmpeg's states no settings): version LAME3.100,
 * the Xing quality field (ffmpeg's frame has one) and the settings LAME writes, under a good CRC.
 */
async function asLameMade(file: string, quality: number): Promise<string> {
  const bytes = await readFile(file);
  const start = id3v2Size(bytes, 0);
  const h = parseFrameHeader(readWord(bytes, start))!;
  const xing = start + 4 + h.sideInfoSize;
  expect(readWord(bytes, xing + 4)).toBe(15); // frames, bytes, TOC and quality
  bytes.writeUInt32BE(quality, xing + 116);
  const lame = xing + 120;
  bytes.write('LAME3.100', lame, 'latin1');
  bytes[lame + 9] = 1; // CBR
  bytes[lame + 10] = 170; // lowpass 17 kHz
  bytes[lame + 19] = 0x24; // ATH type 4, safe joint
  bytes[lame + 24] = 0x40 | (3 << 2) | 1; // 44.1 kHz source, joint stereo, noise shaping 1
  bytes.writeUInt16BE(crc16(bytes.subarray(start), 0, lame - start + 34), lame + 34);
  await writeFile(file, bytes);
  return file;
}

const tone = (name: string, codecArgs: string[], opts: { channels?: number; frequency?: number } = {}) =>
  makeTone(path.join(dir, name), { seconds: 2, codecArgs, ...opts });

describe('the LAME tag of a merged MP3', () => {
  it('says CBR at the inputs’ bit rate, joint stereo, as the frames are; its CRC holds', async () => {
    const cbr = ['-c:a', 'libmp3lame', '-b:a', '160k'];
    const inputs = [await tone('j1.mp3', cbr), await tone('j2.mp3', cbr, { frequency: 880 })];
    const { tag, kbps, modes } = await mergedTag('joint.mp3', inputs);
    expect(kbps).toEqual([160]);
    expect(modes).toEqual([1]); // every frame joint stereo
    expect(tag).toMatchObject({ version: 'LAME3.100', method: 1, bitRateKbps: 160, stereoMode: 3 });
    expect(tag.sampleRateClass).toBe(1); // 44.1 kHz
    expect(tag.tagCrcOk).toBe(true);
    // What is not known of the encoders is zero, which the layout reads as unknown; the quality
    // field, which readers take as 0 (-V 10 -q 0) when it is missing, says LAME's defaults.
    expect(tag).toMatchObject({ lowpass: 0, preset: 0, encodingFlags: 0, noiseShaping: 0 });
    expect(tag.quality).toBe(57);
  });

  it('says plain stereo for frames in stereo mode', async () => {
    const cbr = ['-c:a', 'libmp3lame', '-b:a', '128k', '-joint_stereo', '0'];
    const inputs = [await tone('s1.mp3', cbr), await tone('s2.mp3', cbr, { frequency: 660 })];
    const { tag, modes } = await mergedTag('stereo.mp3', inputs);
    expect(modes).toEqual([0]);
    expect(tag).toMatchObject({ method: 1, bitRateKbps: 128, stereoMode: 1, tagCrcOk: true });
  });

  it('says VBR with the lowest bit rate the frames use, and mono, for mono VBR inputs', async () => {
    const vbr = ['-c:a', 'libmp3lame', '-q:a', '4'];
    const inputs = [
      await tone('m1.mp3', vbr, { channels: 1 }),
      await tone('m2.mp3', vbr, { channels: 1, frequency: 3000 }),
    ];
    const { tag, kbps, modes } = await mergedTag('mono-vbr.mp3', inputs);
    expect(kbps.length).toBeGreaterThan(1); // the inputs really are VBR
    expect(modes).toEqual([3]);
    expect(tag.method).toBeGreaterThanOrEqual(3); // 3 to 6: the VBR methods
    expect(tag.method).toBeLessThanOrEqual(6);
    expect(tag).toMatchObject({ bitRateKbps: kbps[0], stereoMode: 0, tagCrcOk: true });
  });

  it("carries the encoder's quality, lowpass and flags when every input is LAME's, set alike; else LAME's default quality", async () => {
    const cbr = ['-c:a', 'libmp3lame', '-b:a', '128k'];
    const alike = [
      await asLameMade(await tone('l1.mp3', cbr), 57),
      await asLameMade(await tone('l2.mp3', cbr, { frequency: 550 }), 57),
    ];
    const { tag } = await mergedTag('lame-made.mp3', alike);
    expect(tag).toMatchObject({
      quality: 57,
      method: 1,
      bitRateKbps: 128,
      lowpass: 170,
      encodingFlags: 0x24,
    });
    expect(tag).toMatchObject({ stereoMode: 3, sampleRateClass: 1, noiseShaping: 1, tagCrcOk: true });

    const unlike = [alike[0], await asLameMade(await tone('l3.mp3', cbr, { frequency: 660 }), 47)];
    const { tag: mixed } = await mergedTag('lame-unlike.mp3', unlike);
    expect(mixed.quality).toBe(57);
    expect(mixed).toMatchObject({
      method: 1,
      bitRateKbps: 128,
      lowpass: 0,
      encodingFlags: 0,
      tagCrcOk: true,
    });
  });

  it.runIf(hasMediainfo)('reads as CBR 128 in mediainfo, with no made-up VBR quality', async () => {
    const cbr = ['-c:a', 'libmp3lame', '-b:a', '128k'];
    const inputs = [await tone('mi1.mp3', cbr), await tone('mi2.mp3', cbr, { frequency: 770 })];
    const out = path.join(dir, 'mediainfo.mp3');
    await mergeFiles(inputs, out, { tools });
    const { stdout } = await run('mediainfo', ['--Output=JSON', out]);
    const audio = (JSON.parse(stdout) as MediaInfo).media.track.find((t) => t['@type'] === 'Audio')!;
    expect(audio.BitRate_Mode).toBe('CBR');
    expect(audio.BitRate).toBe('128000');
    expect(audio.Encoded_Library_Settings).toMatch(/ -b 128$/);
    expect(audio.Encoded_Library_Settings).not.toMatch(/-V 10/);
  });
});

interface MediaInfo {
  media: { track: Record<string, string>[] };
}
