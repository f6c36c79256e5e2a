import { describe, expect, it } from 'vitest';
import { buildId3v23, encodeText } from './id3-write.js';
import { id3v2Size } from './tags.js';

describe('the output ID3v2.3 tag', () => {
  it('has an ID3v2.3 header whose synchsafe size covers its frames', () => {
    const tag = buildId3v23({ title: 'Hello' });
    expect([...tag.subarray(0, 6)]).toEqual([0x49, 0x44, 0x33, 3, 0, 0]);
    expect(id3v2Size(tag, 0)).toBe(tag.length);
    // one TIT2 frame: 10-byte header, encoding byte, text
    expect(tag.subarray(10, 14).toString('latin1')).toBe('TIT2');
    expect(tag.readUInt32BE(14)).toBe(6);
    expect([...tag.subarray(20)]).toEqual([0, ...Buffer.from('Hello')]);
  });

  it('writes Latin-1 when every character fits, else UTF-16 with a byte-order mark', () => {
    expect([...encodeText('Café')]).toEqual([0, 0x43, 0x61, 0x66, 0xe9]);
    expect([...encodeText('Жук')]).toEqual([1, 0xff, 0xfe, ...Buffer.from('Жук', 'utf16le')]);
    expect([...encodeText('😀')]).toEqual([1, 0xff, 0xfe, 0x3d, 0xd8, 0x00, 0xde]);
  });

  it('writes artist and album when given, and nothing for empty or missing text', () => {
    const tag = buildId3v23({ title: ' ', artist: 'A', album: 'B' });
    const ids = tag.toString('latin1');
    expect(ids).not.toContain('TIT2');
    expect(ids).toContain('TPE1');
    expect(ids).toContain('TALB');
    expect(buildId3v23({ title: '' }).length).toBe(0);
  });

  it('keeps sizes right past 127 bytes, where synchsafe and plain integers part', () => {
    const long = 'x'.repeat(300);
    const tag = buildId3v23({ title: long });
    expect(id3v2Size(tag, 0)).toBe(tag.length);
    expect(tag.length).toBe(10 + 10 + 1 + 300);
  });

  it('writes chapters as one top-level ordered CTOC listing CHAP frames with times and titles', () => {
    const tag = buildId3v23({
      title: 'Book',
      chapters: [
        { title: 'One', startMs: 0, endMs: 1500.4 },
        { title: 'Zwei «2»', startMs: 1500.4, endMs: 4000 },
      ],
    });
    expect(id3v2Size(tag, 0)).toBe(tag.length);
    const ctoc = tag.indexOf('CTOC');
    const body = tag.subarray(ctoc + 10, ctoc + 10 + tag.readUInt32BE(ctoc + 4));
    expect([...body.subarray(0, 6)]).toEqual([...Buffer.from('toc\0'), 0x03, 2]);
    expect(body.subarray(6).toString('latin1')).toBe('ch0\0ch1\0');
    const second = tag.indexOf('CHAP', tag.indexOf('CHAP') + 4);
    const chap = tag.subarray(second + 10);
    expect(chap.subarray(0, 4).toString('latin1')).toBe('ch1\0');
    expect([
      chap.readUInt32BE(4),
      chap.readUInt32BE(8),
      chap.readUInt32BE(12),
      chap.readUInt32BE(16),
    ]).toEqual([1500, 4000, 0xffffffff, 0xffffffff]);
    expect(chap.subarray(20, 24).toString('latin1')).toBe('TIT2');
    expect(chap.subarray(30, 30 + 9).equals(Buffer.from('\0Zwei «2»', 'latin1'))).toBe(true);
  });

  it('refuses more than 255 chapters (a CTOC counts them in one byte)', () => {
    const chapters = Array.from({ length: 256 }, (_, i) => ({ title: `c${i}`, startMs: i, endMs: i + 1 }));
    expect(() => buildId3v23({ chapters })).toThrow(/at most 255/);
  });

  it('writes the cover as a front-cover APIC frame', () => {
    const data = Buffer.from([0x89, 0x50, 0x4e, 0x47, 1, 2, 3]);
    const tag = buildId3v23({ cover: { mime: 'image/png', data } });
    const at = tag.indexOf('APIC');
    const body = tag.subarray(at + 10, at + 10 + tag.readUInt32BE(at + 4));
    expect(body.equals(Buffer.concat([Buffer.from('\0image/png\0\x03\0', 'latin1'), data]))).toBe(true);
  });
});
