import { describe, expect, it } from 'vitest';
import { makeLabelFor } from './make-label.js';

describe('the make label', () => {
  it('replaces the format the host label names with the chosen one', () => {
    expect(makeLabelFor('Make MP3', 'mp3')).toBe('Make MP3');
    expect(makeLabelFor('Make MP3', 'm4b')).toBe('Make M4B');
    expect(makeLabelFor('Make MP3', 'm4a')).toBe('Make M4A');
    expect(makeLabelFor('Make MP3', 'opus')).toBe('Make Opus');
    expect(makeLabelFor('Make MP3', 'ogg')).toBe('Make Ogg');
    expect(makeLabelFor('Make MP3', 'flac')).toBe('Make FLAC');
    expect(makeLabelFor('Make MP3', 'wav')).toBe('Make WAV');
    // Whatever the case and wherever the word stands; only the first is the host's format word.
    expect(makeLabelFor('Créer le mp3', 'flac')).toBe('Créer le FLAC');
    expect(makeLabelFor('FLAC erstellen', 'mp3')).toBe('MP3 erstellen');
  });

  it('keeps a label that names no format, with the chosen format beside it', () => {
    expect(makeLabelFor('Make file', 'm4b')).toBe('Make file · M4B');
    expect(makeLabelFor('Merge', 'mp3')).toBe('Merge · MP3');
    // A format name inside a longer word is not a format named.
    expect(makeLabelFor('Make wave', 'opus')).toBe('Make wave · Opus');
  });

  it('without a choice offered, is the host label as it is', () => {
    expect(makeLabelFor('Make MP3', null)).toBe('Make MP3');
    expect(makeLabelFor('Make file', null)).toBe('Make file');
  });
});
