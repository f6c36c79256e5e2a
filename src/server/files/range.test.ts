import { describe, expect, it } from 'vitest';
import { contentTypeFor, parseRange } from './range.js';

describe('parseRange', () => {
  it('serves the whole file without a Range header or with one it cannot read', () => {
    expect(parseRange(undefined, 100)).toEqual({ kind: 'full' });
    expect(parseRange('bytes=', 100)).toEqual({ kind: 'full' });
    expect(parseRange('items=0-5', 100)).toEqual({ kind: 'full' });
    expect(parseRange('bytes=0-1,5-6', 100)).toEqual({ kind: 'full' });
    expect(parseRange('bytes=9-3', 100)).toEqual({ kind: 'full' });
  });

  it('reads first-last, open-ended and suffix ranges, clamped to the file', () => {
    expect(parseRange('bytes=0-0', 100)).toEqual({ kind: 'partial', start: 0, end: 0 });
    expect(parseRange('bytes=10-19', 100)).toEqual({ kind: 'partial', start: 10, end: 19 });
    expect(parseRange('bytes=90-500', 100)).toEqual({ kind: 'partial', start: 90, end: 99 });
    expect(parseRange('bytes=95-', 100)).toEqual({ kind: 'partial', start: 95, end: 99 });
    expect(parseRange('bytes=-10', 100)).toEqual({ kind: 'partial', start: 90, end: 99 });
    expect(parseRange('bytes=-1000', 100)).toEqual({ kind: 'partial', start: 0, end: 99 });
  });

  it('is unsatisfiable past the end, for an empty suffix, and on an empty file', () => {
    expect(parseRange('bytes=100-', 100)).toEqual({ kind: 'unsatisfiable' });
    expect(parseRange('bytes=200-300', 100)).toEqual({ kind: 'unsatisfiable' });
    expect(parseRange('bytes=-0', 100)).toEqual({ kind: 'unsatisfiable' });
    expect(parseRange('bytes=-5', 0)).toEqual({ kind: 'unsatisfiable' });
  });
});

describe('contentTypeFor', () => {
  it('names the audio type browsers expect for each stored format', () => {
    expect(contentTypeFor('mp3')).toBe('audio/mpeg');
    expect(contentTypeFor('wav')).toBe('audio/wav');
    expect(contentTypeFor('m4a')).toBe('audio/mp4');
    expect(contentTypeFor('opus')).toBe('audio/ogg; codecs=opus');
    expect(contentTypeFor('exe')).toBe('application/octet-stream');
  });
});
