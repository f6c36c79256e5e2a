// Pure: the one rule for text a person gives the book (a chapter title, a detail such as the
// title or the author), in the command line, the server's checks, its API schema and the
// widget's fields. Control characters (C0, DEL, C1) cut a tag short or garble a header;
// bidirectional embeddings, overrides and isolates (U+202A-U+202E, U+2066-U+2069) make a title
// show other than it reads. The invisible direction marks right-to-left text uses (U+200E,
// U+200F, U+061C) are kept. A lone UTF-16 surrogate is no character at all: stored as UTF-8 it
// comes back as U+FFFD, so what was saved is not what is read. Lengths are counted in characters (Unicode code points): an emoji is
// one, as a person counts it.

export interface TypedTextRule {
  /** The most characters (code points) it may hold. */
  max: number;
  /** Newlines and tabs allowed (a description's paragraphs); otherwise one line. */
  lines: boolean;
}

const BIDI_CONTROLS = '\\u202a-\\u202e\\u2066-\\u2069';
const REFUSED = {
  line: `\\u0000-\\u001f\\u007f-\\u009f${BIDI_CONTROLS}`,
  lines: `\\u0000-\\u0008\\u000b-\\u001f\\u007f-\\u009f${BIDI_CONTROLS}`,
};

const refusedClass = (rule: Pick<TypedTextRule, 'lines'>) => (rule.lines ? REFUSED.lines : REFUSED.line);
/** A high surrogate with no low one after it, or a low one with no high one before it. */
const LONE_SURROGATE = '[\\ud800-\\udbff](?![\\udc00-\\udfff])|(?<![\\ud800-\\udbff])[\\udc00-\\udfff]';

/** The characters `rule` refuses (lone surrogates too), as a global expression (to find or take them out). */
export const refusedCharacters = (rule: Pick<TypedTextRule, 'lines'>): RegExp =>
  new RegExp(`[${refusedClass(rule)}]|${LONE_SURROGATE}`, 'g');

/**
 * The rule's characters as a JSON Schema `pattern` (its length is the schema's `maxLength`). JSON
 * Schema reads it as Unicode, where a pair of surrogates is one character outside the surrogate
 * range and only a lone one falls in it.
 */
export const typedTextPattern = (rule: Pick<TypedTextRule, 'lines'>): string =>
  `^[^${refusedClass(rule)}\\ud800-\\udfff]*$`;

/** How many characters (code points) `text` holds. */
export function codePoints(text: string): number {
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    // A high surrogate followed by a low one is a single character.
    if (unit >= 0xd800 && unit <= 0xdbff && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) i++;
    }
    n++;
  }
  return n;
}

/** `text` cut to its first `max` characters, never inside one. */
export function cutToCodePoints(text: string, max: number): string {
  if (text.length <= max) return text;
  let n = 0;
  let i = 0;
  while (i < text.length && n < max) {
    const unit = text.charCodeAt(i);
    const next = text.charCodeAt(i + 1);
    i += unit >= 0xd800 && unit <= 0xdbff && next >= 0xdc00 && next <= 0xdfff ? 2 : 1;
    n++;
  }
  return text.slice(0, i);
}

export type TypedTextProblem = 'notText' | 'tooLong' | 'refusedCharacter';

/** What is wrong with `value` under `rule`, or undefined when it may be kept as it is. */
export function typedTextProblem(value: unknown, rule: TypedTextRule): TypedTextProblem | undefined {
  if (typeof value !== 'string') return 'notText';
  if (codePoints(value) > rule.max) return 'tooLong';
  const refused = refusedCharacters(rule);
  return refused.test(value) ? 'refusedCharacter' : undefined;
}

/** What a field keeps of what is typed or pasted in it: the refused characters out, cut to the limit. */
export const fitTypedText = (text: string, rule: TypedTextRule): string =>
  cutToCodePoints(text.replace(refusedCharacters(rule), ''), rule.max);
