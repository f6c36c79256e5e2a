import { describe, expect, it } from 'vitest';
import { parseFormats } from './output-formats.js';

describe("a host's data-formats", () => {
  it('keeps the known formats in order, once, and means MP3 when it names none', () => {
    expect(parseFormats('mp3 m4b, FLAC m4b aiff')).toEqual(['mp3', 'm4b', 'flac']);
    expect(parseFormats(undefined)).toEqual(['mp3']);
    expect(parseFormats('aiff')).toEqual(['mp3']);
  });
});
