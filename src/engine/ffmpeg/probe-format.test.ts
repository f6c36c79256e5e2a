import { describe, expect, it } from 'vitest';
import { formatFromProbe } from './probe-format.js';

describe('the stored format of a probed file', () => {
  it.each([
    ['mp3', 'mp3', 'mp3'],
    ['wav', 'pcm_s24le', 'wav'],
    ['flac', 'flac', 'flac'],
    ['ogg', 'vorbis', 'ogg'],
    ['ogg', 'opus', 'opus'],
    ['mov,mp4,m4a,3gp,3g2,mj2', 'aac', 'm4a'],
    ['aac', 'aac', 'aac'],
    ['matroska,webm', 'opus', 'webm'],
    ['matroska,webm', 'flac', 'mka'],
    ['asf', 'wmav2', 'wma'],
  ])('%s with %s is stored as .%s', (format, codec, ext) => {
    expect(formatFromProbe(format, codec)).toBe(ext);
  });

  it('never yields a name that could be a path', () => {
    expect(formatFromProbe('../../etc', 'x')).toBe('etc');
    expect(formatFromProbe('', 'x')).toBe('bin');
    expect(formatFromProbe('averyveryverylongname', 'x')).toBe('bin');
  });
});
