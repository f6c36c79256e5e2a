import { describe, expect, it } from 'vitest';
import { displayName, wantsHtml } from './upload-names.js';

describe('displayName', () => {
  it('keeps the base name only, without control or direction-override characters', () => {
    expect(displayName('C:\\Users\\me\\song.mp3')).toBe('song.mp3');
    expect(displayName('../../etc/passwd')).toBe('passwd');
    expect(displayName('a\u0000b\u001b[31mc.wav')).toBe('ab[31mc.wav');
    expect(displayName('evil\u202Egnp.mp3')).toBe('evilgnp.mp3');
    expect(displayName('  Café – take 2.flac ')).toBe('Café – take 2.flac');
  });

  it('gives a name to an empty one and shortens a long one', () => {
    expect(displayName('')).toBe('unnamed file');
    expect(displayName(undefined)).toBe('unnamed file');
    expect(displayName('dir/')).toBe('unnamed file');
    expect(displayName('x'.repeat(400))).toHaveLength(255);
  });

  it('shortens a long name of emoji without cutting one in half', () => {
    const name = displayName('\u{1F3B5}'.repeat(300) + '.mp3');
    expect([...name]).toHaveLength(255);
    expect(name).toBe('\u{1F3B5}'.repeat(255));
  });
});

describe('wantsHtml', () => {
  it('is true for a browser form post and false for fetch or JSON clients', () => {
    expect(wantsHtml('text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8')).toBe(true);
    expect(wantsHtml('*/*')).toBe(false);
    expect(wantsHtml(undefined)).toBe(false);
    expect(wantsHtml('application/json, text/plain, */*')).toBe(false);
    expect(wantsHtml('application/json, text/html')).toBe(false);
  });
});
