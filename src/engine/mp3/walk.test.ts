import { describe, expect, it } from 'vitest';
import { frame, frames, V1_128 } from '../../../test/support/mp3-synth.js';
import { FormatChangeError, FrameWalker, FreeFormatError, OffsetLog } from './walk.js';
import { buildXingFrame, planXingFrame } from './xing.js';

/** Walk `data` in chunks of `chunk` bytes the way the scan and join do, collecting the copied bytes. */
function walkAll(data: Buffer, chunk: number, offsets?: OffsetLog) {
  const w = new FrameWalker(1, 44100, 2, offsets);
  const out: Buffer[] = [];
  let buf = Buffer.alloc(0);
  let pos = 0;
  for (;;) {
    const next = data.subarray(pos, pos + chunk);
    pos += next.length;
    buf = Buffer.concat([buf, next]);
    const final = pos >= data.length;
    const consumed = w.walk(buf, 0, buf.length, final, (s, e) => out.push(Buffer.from(buf.subarray(s, e))));
    if (final) break;
    buf = buf.subarray(consumed);
  }
  return { walker: w, copied: Buffer.concat(out) };
}

describe('walking frames', () => {
  it('copies every frame of a clean stream, whatever the chunk size', () => {
    const data = frames(V1_128, 20);
    for (const chunk of [100, 417, 1000, 1 << 20]) {
      const { walker, copied } = walkAll(data, chunk);
      expect(walker.frames).toBe(20);
      expect(walker.audioBytes).toBe(20 * 417);
      expect(copied.equals(data)).toBe(true);
    }
  });

  it('skips junk between frames, including junk holding false sync words, with the frame before it', () => {
    const a = frames(V1_128, 5, 1);
    const b = frames(V1_128, 5, 40);
    const junk = Buffer.concat([
      Buffer.from('JUNK JUNK '),
      Buffer.from([0xff, 0xfb, 0x90, 0x64, 0x00, 0xff, 0xe0]),
      Buffer.from(' more'),
    ]);
    const data = Buffer.concat([a, junk, b]);
    for (const chunk of [64, 500, 4096]) {
      const { walker, copied } = walkAll(data, chunk);
      // The last frame before the junk may hold the junk's start (junk written into a frame):
      // nothing after it says it ended whole, so it is dropped.
      expect(walker.frames).toBe(9);
      expect(copied.equals(Buffer.concat([a.subarray(0, 4 * 417), b]))).toBe(true);
    }
  });

  it('drops a frame that junk was written into, and keeps the frames around it', () => {
    const a = frames(V1_128, 5, 1);
    const hit = frame(V1_128, 0x22);
    const b = frames(V1_128, 5, 40);
    const junk = Buffer.from('junk in the middle of a frame');
    const data = Buffer.concat([a, hit.subarray(0, 200), junk, hit.subarray(200), b]);
    for (const chunk of [64, 500, 4096]) {
      const { walker, copied } = walkAll(data, chunk);
      expect(walker.frames).toBe(10);
      expect(copied.equals(Buffer.concat([a, b]))).toBe(true);
    }
  });

  it('keeps the frame before a tag (files joined with cat) and before a frame of another stream', () => {
    const a = frames(V1_128, 5, 1);
    const b = frames(V1_128, 5, 40);
    for (const tag of ['TAG', 'ID3\x03\x00', 'APETAGEX', 'LYRICSBEGIN']) {
      const { walker } = walkAll(Buffer.concat([a, Buffer.from(`${tag} some tag bytes`, 'latin1'), b]), 500);
      expect(walker.frames).toBe(10);
    }
  });

  it('drops a frame cut short when another stream was appended after it', () => {
    const a = frames(V1_128, 3, 1);
    const cut = frame(V1_128, 30).subarray(0, 200);
    const b = frames(V1_128, 3, 50);
    for (const chunk of [64, 500, 4096]) {
      const { walker, copied } = walkAll(Buffer.concat([a, cut, b]), chunk);
      expect(walker.frames).toBe(6);
      expect(copied.equals(Buffer.concat([a, b]))).toBe(true);
    }
  });

  it('drops a truncated last frame', () => {
    const data = frames(V1_128, 6).subarray(0, 5 * 417 + 200);
    const { walker, copied } = walkAll(data, 1000);
    expect(walker.frames).toBe(5);
    expect(copied.length).toBe(5 * 417);
  });

  it('drops Xing/Info header frames wherever they are', () => {
    const plan = planXingFrame({ mpegVersion: 1, sampleRate: 44100, channels: 2 }, 128000);
    const xing = buildXingFrame(plan, { vbr: false, frames: 3, bytes: 1, toc: new Uint8Array(100) });
    const data = Buffer.concat([xing, frames(V1_128, 3), xing, frames(V1_128, 2)]);
    const { walker, copied } = walkAll(data, 300);
    expect(walker.frames).toBe(5);
    expect(copied.equals(Buffer.concat([frames(V1_128, 3), frames(V1_128, 2)]))).toBe(true);
  });

  it("keeps audio frames whose bytes merely start like a header frame's tag ('X', 'I', 'V')", () => {
    const plan = planXingFrame({ mpegVersion: 1, sampleRate: 44100, channels: 2 }, 128000);
    const xing = buildXingFrame(plan, { vbr: false, frames: 3, bytes: 1, toc: new Uint8Array(100) });
    const lookalikes = Buffer.concat([0x58, 0x49, 0x56, 0x11].map((fill) => frame(V1_128, fill)));
    const data = Buffer.concat([frames(V1_128, 40), lookalikes, xing, lookalikes, frames(V1_128, 40, 60)]);
    for (const chunk of [300, 4096, 1 << 20]) {
      const log = new OffsetLog(1);
      const { walker, copied } = walkAll(data, chunk, log);
      expect(walker.frames).toBe(88);
      expect(copied.equals(Buffer.concat([data.subarray(0, 44 * 417), data.subarray(45 * 417)]))).toBe(true);
      expect([...log.data.subarray(0, log.length)]).toEqual(Array.from({ length: 88 }, (_, i) => i * 417));
    }
  });

  it('copies CRC-protected frames and drops a header frame whose tag sits after the CRC', () => {
    const crc = frames(0xfffa9064, 4, 60);
    const xing = frame(0xfffa9064, 0);
    xing.write('Xing', 4 + 2 + 32, 'latin1');
    const data = Buffer.concat([xing, crc, frames(V1_128, 2)]);
    const { walker, copied } = walkAll(data, 700);
    expect(walker.frames).toBe(6);
    expect(copied.equals(data.subarray(417))).toBe(true);
  });

  it('skips frames of another format as junk', () => {
    const other = frame(0xfffb9464); // 48 kHz
    const data = Buffer.concat([frames(V1_128, 3), other, frames(V1_128, 3)]);
    const { walker, copied } = walkAll(data, 2048);
    expect(walker.frames).toBe(6);
    expect(copied.equals(Buffer.concat([frames(V1_128, 3), frames(V1_128, 3)]))).toBe(true);
  });

  it('refuses a run of frames of another format rather than losing it as junk (files joined with cat)', () => {
    const mono = 0xfffb90c4; // the same rate and bit rate, mono
    const at48 = 0xfffb9464; // 48 kHz
    for (const other of [mono, at48]) {
      const data = Buffer.concat([frames(V1_128, 5), frames(other, 6, 30)]);
      for (const chunk of [300, 4096]) expect(() => walkAll(data, chunk)).toThrow(FormatChangeError);
    }
    expect(() => walkAll(Buffer.concat([frames(V1_128, 5), frames(mono, 6, 30)]), 4096)).toThrow(
      /MPEG-1 layer III 44100 Hz stereo, then MPEG-1 layer III 44100 Hz mono/,
    );
  });

  it('refuses a free-format frame where a frame is expected', () => {
    const data = Buffer.concat([frames(V1_128, 2), Buffer.from([0xff, 0xfb, 0x00, 0x64]), Buffer.alloc(400)]);
    expect(() => walkAll(data, 4096)).toThrow(FreeFormatError);
  });

  it('logs each frame offset for the seek table, and notes the bit rates used', () => {
    const log = new OffsetLog();
    const data = Buffer.concat([frames(V1_128, 2), frame(0xfffb9264), frame(0xfffbe064)]);
    const { walker } = walkAll(data, 512, log);
    expect([...log.data.subarray(0, log.length)]).toEqual([0, 417, 834, 1252]);
    expect(walker.bitRateMask).toBe((1 << 9) | (1 << 14));
  });
});
