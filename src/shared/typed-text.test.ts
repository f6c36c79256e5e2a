import { describe, expect, it } from 'vitest';
import { CHAPTER_TITLE } from './chapters-file.js';
import { detailRule } from './details.js';
import {
  codePoints,
  cutToCodePoints,
  fitTypedText,
  typedTextPattern,
  typedTextProblem,
} from './typed-text.js';

const note = '\u{1F3B5}';

describe('text a person gives the book', () => {
  it('is counted in code points: 500 emoji are kept, 501 are too long', () => {
    expect(codePoints(note.repeat(500))).toBe(500);
    expect(typedTextProblem(note.repeat(500), CHAPTER_TITLE)).toBeUndefined();
    expect(typedTextProblem(note.repeat(501), CHAPTER_TITLE)).toBe('tooLong');
    expect(cutToCodePoints(`ab${note}c`, 3)).toBe(`ab${note}`);
    expect(cutToCodePoints(`ab${note}c`, 2)).toBe('ab');
  });

  it('refuses control and bidirectional control characters; keeps the direction marks', () => {
    for (const c of ['\u0007', '\n', '\u0085', '\u202a', '\u202e', '\u2066', '\u2069'])
      expect(typedTextProblem(`a${c}b`, CHAPTER_TITLE), JSON.stringify(c)).toBe('refusedCharacter');
    expect(typedTextProblem('الفصل \u200f1', CHAPTER_TITLE)).toBeUndefined();
    expect(typedTextProblem('one\ntwo\tthree', detailRule('description'))).toBeUndefined();
    expect(typedTextProblem('one\n\u202etwo', detailRule('description'))).toBe('refusedCharacter');
    expect(typedTextProblem(7, CHAPTER_TITLE)).toBe('notText');
  });

  it('refuses a lone surrogate (it cannot be stored as it was given) and keeps pairs', () => {
    for (const t of ['a\ud800b', '\udc00', 'end\ud83c', `${note.slice(1)}${note.slice(0, 1)}`])
      expect(typedTextProblem(t, CHAPTER_TITLE), JSON.stringify(t)).toBe('refusedCharacter');
    expect(typedTextProblem(`a${note}b`, CHAPTER_TITLE)).toBeUndefined();
    expect(fitTypedText(`a\ud800${note}\udc00b`, CHAPTER_TITLE)).toBe(`a${note}b`);
  });

  it('gives the schema the same rule, as JSON Schema reads it, and a field what the check keeps', () => {
    const pattern = new RegExp(typedTextPattern(CHAPTER_TITLE), 'u');
    expect(pattern.test('Chapter \u200f1')).toBe(true);
    expect(pattern.test('gpj\u202e.exe')).toBe(false);
    expect(pattern.test('two\nlines')).toBe(false);
    expect(pattern.test(`a${note}b`)).toBe(true);
    expect(pattern.test('a\ud800b')).toBe(false);
    const fitted = fitTypedText(`\u202e${note.repeat(501)}`, CHAPTER_TITLE);
    expect(fitted).toBe(note.repeat(500));
    expect(typedTextProblem(fitted, CHAPTER_TITLE)).toBeUndefined();
  });
});
