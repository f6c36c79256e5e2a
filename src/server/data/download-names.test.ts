import { describe, expect, it } from 'vitest';
import { uniqueDownloadName } from './download-names.js';

describe('download names', () => {
  it('keeps a free name and gives a taken one the next free number', () => {
    expect(uniqueDownloadName('a.mp3', new Set(['b.mp3']))).toBe('a.mp3');
    expect(uniqueDownloadName('a.mp3', new Set(['a.mp3', 'a (2).mp3']))).toBe('a (3).mp3');
    expect(uniqueDownloadName('Book 2026-11-21 1430.m4b', new Set(['Book 2026-11-21 1430.m4b']))).toBe('Book 2026-11-21 1430 (2).m4b');
    expect(uniqueDownloadName('noext', new Set(['noext']))).toBe('noext (2)');
  });
});
