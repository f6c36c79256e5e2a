import { describe, expect, it } from 'vitest';
import { formatNamedBy, makeHintFor } from './make-label.js';

describe('the make button and the chosen format', () => {
  it('reads the format a host label names, whatever its case or place', () => {
    expect(formatNamedBy('Make MP3')).toBe('mp3');
    expect(formatNamedBy('Créer le flac')).toBe('flac');
    expect(formatNamedBy('M4B erstellen')).toBe('m4b');
    // A format name inside a longer word is not a format named.
    expect(formatNamedBy('Make wave')).toBeUndefined();
    expect(formatNamedBy('Merge')).toBeUndefined();
  });

  it('says what will be made when the label names another format than the one chosen', () => {
    expect(makeHintFor('Make MP3', 'm4b')).toBe('Makes M4B');
    expect(makeHintFor('Make MP3', 'opus')).toBe('Makes Opus');
    expect(makeHintFor('Créer le mp3', 'flac')).toBe('Makes FLAC');
  });

  it('says nothing when the label names the chosen format, names none, or no choice is offered', () => {
    expect(makeHintFor('Make MP3', 'mp3')).toBeNull();
    expect(makeHintFor('Merge', 'm4b')).toBeNull();
    expect(makeHintFor('Make MP3', null)).toBeNull();
  });
});
