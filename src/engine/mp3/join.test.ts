import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  decodeErrors,
  decodePcm,
  dominantFrequency,
  ffprobeJson,
  makeTone,
  tempDir,
  tools,
} from '../../../test/support/audio-fixtures.js';
import { makeToneWithArt } from '../../../test/support/mp3-fixtures.js';
import { parseFrameHeader, readWord } from './frames.js';
import { buildId3v23 } from './id3-write.js';
import { joinMp3, type JoinPart } from './join.js';
import { scanMp3, type Mp3Scan } from './scan.js';
import { id3v2Size } from './tags.js';
import { readXingFrame } from '../../../test/support/xing-read.js';
import { isHeaderFrame } from './xing.js';

let dir: string;
let cleanup: () => Promise<void>;
beforeAll(async () => ({ dir, cleanup } = await tempDir()));
afterAll(() => cleanup());

const exec = promisify(execFile);
const CBR = ['-c:a', 'libmp3lame', '-b:a', '128k'];
const VBR = ['-c:a', 'libmp3lame', '-q:a', '4'];

async function part(file: string): Promise<JoinPart> {
  const r = await scanMp3(file);
  if (!r.ok) throw new Error(`${file}: ${r.reason}`);
  return { file, scan: r.scan };
}

async function audioOf(p: JoinPart): Promise<Buffer> {
  return (await readFile(p.file)).subarray(p.scan.audioStart, p.scan.audioEnd);
}

/** Every frame of the output after its ID3 tag: where the header frames are, and how many audio frames. */
function walkOutput(out: Buffer) {
  const start = id3v2Size(out, 0);
  const headerFrames: number[] = [];
  let frames = 0;
  let p = start;
  while (p < out.length) {
    const h = parseFrameHeader(readWord(out, p));
    if (!h || !h.frameLength) throw new Error(`no frame at ${p}`);
    if (isHeaderFrame(out, p, 4 + h.sideInfoSize)) headerFrames.push(p);
    else frames++;
    p += h.frameLength;
  }
  expect(p).toBe(out.length);
  return { start, headerFrames, frames };
}

const frameSeconds = (s: Mp3Scan) => s.samplesPerFrame / s.sampleRate;

describe('joinMp3', () => {
  it('joins CBR and VBR inputs, with and without tags and cover art, frame for frame in the given order', async () => {
    const parts = [
      await part(
        await makeTone(path.join(dir, 'a.mp3'), {
          seconds: 2,
          frequency: 440,
          codecArgs: CBR,
          extraArgs: ['-metadata', 'title=First'],
        }),
      ),
      await part(
        await makeTone(path.join(dir, 'b.mp3'), {
          seconds: 2,
          frequency: 1000,
          codecArgs: VBR,
          extraArgs: ['-id3v2_version', '4', '-write_id3v1', '1', '-metadata', 'title=B'],
        }),
      ),
      await part(await makeToneWithArt(path.join(dir, 'c.mp3'), { seconds: 2, frequency: 250 })),
      await part(
        await makeTone(path.join(dir, 'd.mp3'), {
          seconds: 30,
          frequency: 700,
          codecArgs: ['-c:a', 'libmp3lame', '-b:a', '320k'],
        }),
      ), // 1.2 MB: crosses 1 MiB chunks
    ];
    const out = path.join(dir, 'out.mp3');
    const seen: [number, number][] = [];
    const result = await joinMp3(parts, out, {
      id3: () => buildId3v23({ title: 'Joined «ü»', artist: 'Me' }),
      onProgress: (d, t) => seen.push([d, t]),
    });

    const bytes = await readFile(out);
    const { start, headerFrames, frames } = walkOutput(bytes);
    const totalFrames = parts.reduce((n, p) => n + p.scan.frames, 0);
    expect(frames).toBe(totalFrames);
    expect(result).toMatchObject({ frames: totalFrames, bytes: bytes.length });
    // exactly one header frame, first, carrying the true counts and a rising seek table
    expect(headerFrames).toEqual([start]);
    const xingLen = parseFrameHeader(readWord(bytes, start))!.frameLength;
    const xing = readXingFrame(bytes.subarray(start, start + xingLen))!;
    const audioBytes = parts.reduce((n, p) => n + p.scan.audioBytes, 0);
    expect(xing).toMatchObject({ kind: 'Xing', frames: totalFrames, bytes: xingLen + audioBytes });
    for (let i = 1; i < 100; i++) expect(xing.toc![i]).toBeGreaterThanOrEqual(xing.toc![i - 1]);
    expect(xing.toc![99]).toBeGreaterThan(240);
    // each input's audio, byte for byte, in order
    const body = bytes.subarray(start + xingLen);
    expect(body.equals(Buffer.concat(await Promise.all(parts.map(audioOf))))).toBe(true);

    expect(await decodeErrors(out)).toBe('');
    const probed = await ffprobeJson(out);
    const sum = parts.reduce((n, p) => n + p.scan.frames * frameSeconds(p.scan), 0);
    expect(Math.abs(Number(probed.format.duration) - sum)).toBeLessThan(frameSeconds(parts[0].scan));
    expect(result.durationSeconds).toBeCloseTo(sum, 9);
    expect(probed.format.tags?.title).toBe('Joined «ü»');
    expect(probed.format.tags?.artist).toBe('Me');

    const pcm = await decodePcm(out);
    expect(dominantFrequency(pcm, 0.5, 1.5)).toBeCloseTo(440, -1);
    expect(dominantFrequency(pcm, 2.5, 3.5)).toBeCloseTo(1000, -1);
    expect(dominantFrequency(pcm, 4.5, 5.5)).toBeCloseTo(250, -1);
    expect(dominantFrequency(pcm, 15, 30)).toBeCloseTo(700, -1);
    expect(parts[3].scan.audioBytes).toBeGreaterThan(1 << 20);

    expect(seen.length).toBeGreaterThan(4);
    for (let i = 1; i < seen.length; i++) expect(seen[i][0]).toBeGreaterThanOrEqual(seen[i - 1][0]);
    const total = parts.reduce((n, p) => n + p.scan.audioEnd - p.scan.audioStart, 0);
    expect(seen.at(-1)).toEqual([total, total]);
  });

  it('lets a player seek by the seek table into the right input, bit rates very unequal', async () => {
    const mk = (n: string, f: number, rate: string) =>
      makeTone(path.join(dir, n), {
        seconds: 10,
        frequency: f,
        codecArgs: ['-c:a', 'libmp3lame', '-b:a', rate],
      });
    const parts = [
      await part(await mk('s1.mp3', 300, '32k')),
      await part(await mk('s2.mp3', 1200, '320k')),
      await part(await mk('s3.mp3', 600, '32k')),
    ];
    const out = path.join(dir, 'seek.mp3');
    await joinMp3(parts, out);
    // by bytes, 5 s and 25 s would land deep in the 320k middle part; by time they lie in the outer ones
    for (const [at, hz] of [
      [5, 300],
      [15, 1200],
      [25, 600],
    ]) {
      const { stdout } = await exec(
        tools.ffmpeg,
        [
          '-v',
          'error',
          '-usetoc',
          '1',
          '-ss',
          String(at),
          '-i',
          out,
          '-t',
          '1',
          '-ac',
          '1',
          '-ar',
          '8000',
          '-f',
          's16le',
          '-',
        ],
        { encoding: 'buffer' },
      );
      const pcm = new Int16Array(stdout.buffer, stdout.byteOffset, stdout.length >> 1);
      // the first frames after a seek may be silent (their bit reservoir lies before the seek point)
      expect(dominantFrequency(pcm, 0.5, 1)).toBeCloseTo(hz, -1);
    }
  });

  it('writes an Info frame for CBR inputs, in their bit rate and channel mode, and no ID3 tag when there is no text', async () => {
    const plainStereo = [...CBR, '-joint_stereo', '0'];
    const parts = [
      await part(await makeTone(path.join(dir, 'c1.mp3'), { seconds: 1, codecArgs: plainStereo })),
      await part(
        await makeTone(path.join(dir, 'c2.mp3'), { seconds: 1, frequency: 880, codecArgs: plainStereo }),
      ),
    ];
    const out = path.join(dir, 'cbr-out.mp3');
    await joinMp3(parts, out);
    const bytes = await readFile(out);
    expect(id3v2Size(bytes, 0)).toBe(0);
    const h = parseFrameHeader(readWord(bytes, 0))!;
    expect(h.bitRate).toBe(128000);
    expect(h.channelMode).toBe(parseFrameHeader(readWord(bytes, h.frameLength))!.channelMode);
    expect(h.channelMode).toBe(0);
    expect(readXingFrame(bytes.subarray(0, h.frameLength))).toMatchObject({
      kind: 'Info',
      frames: parts[0].scan.frames + parts[1].scan.frames,
    });
    expect(await decodeErrors(out)).toBe('');
  });

  it('joins MPEG-2 and MPEG-2.5 mono streams', async () => {
    for (const rate of [22050, 16000, 11025, 8000]) {
      const mk = (n: string, f: number) =>
        makeTone(path.join(dir, `${n}${rate}.mp3`), {
          seconds: 1.5,
          frequency: f,
          sampleRate: rate,
          channels: 1,
          codecArgs: ['-c:a', 'libmp3lame', '-b:a', '24k'],
        });
      const parts = [await part(await mk('x', 300)), await part(await mk('y', 600))];
      const out = path.join(dir, `low${rate}.mp3`);
      await joinMp3(parts, out, { id3: () => buildId3v23({ title: `Rate ${rate}` }) });
      expect(await decodeErrors(out)).toBe('');
      const probed = await ffprobeJson(out);
      const sum = ((parts[0].scan.frames + parts[1].scan.frames) * 576) / rate;
      expect(Math.abs(Number(probed.format.duration) - sum)).toBeLessThan(576 / rate);
      expect(probed.streams[0]).toMatchObject({ sample_rate: String(rate), channels: 1 });
      expect(walkOutput(await readFile(out)).headerFrames.length).toBe(1);
    }
  });

  /** The clean file with `junk` written in at `at`, and where its frames start. */
  async function withJunk(src: JoinPart, name: string, at: (starts: number[]) => number, junk: Buffer) {
    const b = await readFile(src.file);
    const starts: number[] = [];
    for (
      let q = src.scan.audioStart;
      q < src.scan.audioEnd;
      q += parseFrameHeader(readWord(b, q))!.frameLength
    )
      starts.push(q);
    const cut = at(starts);
    const file = path.join(dir, name);
    await writeFile(file, Buffer.concat([b.subarray(0, cut), junk, b.subarray(cut)]));
    return { file, starts, bytes: b };
  }
  const JUNK = Buffer.concat([
    Buffer.from('<<junk in the stream>>'),
    Buffer.from([0xff, 0xfb, 0x90, 0x64, 1, 2, 3]),
    Buffer.from('tail'),
  ]);

  it('drops the frame that junk was written into, so the output decodes without an error there', async () => {
    const src = await part(await makeTone(path.join(dir, 'clean-mid.mp3'), { seconds: 2, codecArgs: CBR }));
    // Into the side information (where a copied frame is a decoding error: "big_values too big")
    // and into the main data.
    for (const into of [8, 20, 150]) {
      const { file } = await withJunk(src, `junk-mid-${into}.mp3`, (s) => s[20] + into, JUNK);
      expect(await decodeErrors(file)).not.toBe(''); // the damage a player would stumble on
      const p = await part(file);
      const out = path.join(dir, `junk-mid-${into}-out.mp3`);
      const r = await joinMp3([p], out);
      expect(await decodeErrors(out)).toBe('');
      expect(r.frames).toBe(src.scan.frames - 1);
      expect(walkOutput(await readFile(out)).frames).toBe(src.scan.frames - 1);
      expect(p.scan.frames).toBe(r.frames); // the scan and the join agree on what is copied
    }
  });

  it('loses no frame of a clean input, and keeps the frame before a tag (files joined with cat)', async () => {
    const src = await part(await makeTone(path.join(dir, 'clean-all.mp3'), { seconds: 2, codecArgs: CBR }));
    const out = path.join(dir, 'clean-all-out.mp3');
    const r = await joinMp3([src], out);
    expect(r.frames).toBe(src.scan.frames);
    const bytes = await readFile(out);
    const { start } = walkOutput(bytes);
    const xingLen = parseFrameHeader(readWord(bytes, start))!.frameLength;
    expect(bytes.subarray(start + xingLen).equals(await audioOf(src))).toBe(true);

    const v1 = Buffer.alloc(128);
    v1.write('TAGa title');
    const tagged = await withJunk(src, 'tag-between.mp3', (s) => s[20], v1);
    const t = await part(tagged.file);
    expect(t.scan.frames).toBe(src.scan.frames);
  });

  it('skips junk spliced between frames, dropping the frame before it, and counts only the frames it copied', async () => {
    const src = await part(await makeTone(path.join(dir, 'clean.mp3'), { seconds: 2, codecArgs: CBR }));
    // Junk after a whole frame cannot be told from junk written into it, so that frame goes too.
    const { file: dirty, starts, bytes: b } = await withJunk(src, 'dirty.mp3', (s) => s[20], JUNK);
    const scanned = await part(dirty);
    expect(scanned.scan.frames).toBe(src.scan.frames - 1);
    const kept = Buffer.concat([
      b.subarray(src.scan.audioStart, starts[19]),
      b.subarray(starts[20], src.scan.audioEnd),
    ]);

    // a scan taken before the junk arrived: the header must still carry what was really copied
    const stale: JoinPart = { file: dirty, scan: { ...scanned.scan, frames: 9999, audioBytes: 1 } };
    for (const p of [scanned, stale]) {
      const out = path.join(dir, 'dejunked.mp3');
      const r = await joinMp3([p], out);
      const bytes = await readFile(out);
      const { start, frames } = walkOutput(bytes);
      const xingLen = parseFrameHeader(readWord(bytes, start))!.frameLength;
      expect(frames).toBe(src.scan.frames - 1);
      expect(r.frames).toBe(src.scan.frames - 1);
      expect(readXingFrame(bytes.subarray(start, start + xingLen))).toMatchObject({
        frames: src.scan.frames - 1,
        bytes: xingLen + kept.length,
      });
      expect(bytes.subarray(start + xingLen).equals(kept)).toBe(true);
      expect(await decodeErrors(out)).toBe('');
    }
  });

  it('drops the cut frame, tag and header frame where a truncated MP3 has another appended (cat)', async () => {
    const a = await part(
      await makeTone(path.join(dir, 'head.mp3'), { seconds: 2, frequency: 440, codecArgs: CBR }),
    );
    const b = await part(
      await makeTone(path.join(dir, 'next.mp3'), {
        seconds: 2,
        frequency: 880,
        codecArgs: CBR,
        extraArgs: ['-metadata', 'title=Next'],
      }),
    );
    const aBytes = await readFile(a.file);
    const cutAt = a.scan.audioStart + Math.floor(a.scan.audioBytes / 2) + 200; // inside a frame
    const catted = path.join(dir, 'catted.mp3');
    await writeFile(catted, Buffer.concat([aBytes.subarray(0, cutAt), await readFile(b.file)]));
    expect(await decodeErrors(catted)).not.toBe(''); // what a player would stumble on
    const p = await part(catted);
    const wholeFramesOfA = (() => {
      let n = 0;
      for (let q = a.scan.audioStart; q + parseFrameHeader(readWord(aBytes, q))!.frameLength <= cutAt; n++)
        q += parseFrameHeader(readWord(aBytes, q))!.frameLength;
      return n;
    })();
    expect(p.scan.frames).toBe(wholeFramesOfA + b.scan.frames);
    const out = path.join(dir, 'catted-out.mp3');
    const r = await joinMp3([p], out);
    expect(r.frames).toBe(p.scan.frames);
    expect(await decodeErrors(out)).toBe('');
    expect(walkOutput(await readFile(out)).headerFrames.length).toBe(1);
  });

  it('refuses parts of another sample rate or channel count, naming the file, and writes nothing', async () => {
    const a = await part(await makeTone(path.join(dir, 'm1.mp3'), { seconds: 1, codecArgs: CBR }));
    const b = await part(
      await makeTone(path.join(dir, 'odd rate.mp3'), { seconds: 1, sampleRate: 22050, codecArgs: CBR }),
    );
    const c = await part(
      await makeTone(path.join(dir, 'mono.mp3'), { seconds: 1, channels: 1, codecArgs: CBR }),
    );
    const out = path.join(dir, 'never.mp3');
    await expect(joinMp3([a, b], out)).rejects.toThrow(/odd rate\.mp3.*22050 Hz/);
    await expect(joinMp3([a, c], out)).rejects.toThrow(/mono\.mp3.*1 ch/);
    await expect(joinMp3([a], a.file)).rejects.toThrow(/m1\.mp3: is also the output file/);
    expect((await scanMp3(a.file)).ok).toBe(true);
    expect(existsSync(out)).toBe(false);
  });

  it('refuses free-format frames, naming the file', async () => {
    const good = await part(await makeTone(path.join(dir, 'good.mp3'), { seconds: 1, codecArgs: CBR }));
    const b = await readFile(good.file);
    const free = Buffer.alloc(600, 0x11);
    free.writeUInt32BE(0xfffb0064, 0);
    const file = path.join(dir, 'free format.mp3');
    await writeFile(file, Buffer.concat([b.subarray(0, good.scan.audioEnd), free]));
    const p: JoinPart = { file, scan: { ...good.scan, audioEnd: good.scan.audioEnd + free.length } };
    await expect(joinMp3([p], path.join(dir, 'free-out.mp3'))).rejects.toThrow(
      /free format\.mp3: free-format/,
    );
    expect((await scanMp3(file)).ok).toBe(false);
  });

  it('stops when aborted, with the files closed', async () => {
    const parts = [
      await part(await makeTone(path.join(dir, 'ab1.mp3'), { seconds: 1, codecArgs: CBR })),
      await part(await makeTone(path.join(dir, 'ab2.mp3'), { seconds: 1, codecArgs: CBR })),
    ];
    const ac = new AbortController();
    let calls = 0;
    const out = path.join(dir, 'aborted.mp3');
    await expect(
      joinMp3(parts, out, { signal: ac.signal, onProgress: () => (calls++, ac.abort()) }),
    ).rejects.toThrow(/cancelled/);
    expect(calls).toBe(1);
  });
});
