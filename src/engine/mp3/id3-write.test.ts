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
});
