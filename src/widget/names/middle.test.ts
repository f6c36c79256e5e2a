import { describe, expect, it } from 'vitest';
import { fitMiddle, splitName } from './middle.js';

const NAMES = [1, 2, 3].map((n) => `The Lighthouse Keeper (Unabridged) - Part 0${n}.mp3`);
/** One unit a code point: what a monospaced font would measure. */
const mono = (s: string) => Array.from(s).length;

describe('a long name cut in its middle', () => {
  it('keeps the end whole, where names of one set differ', () => {
    const ends = NAMES.map((n) => splitName(n).end);
    expect(ends).toEqual(['- Part 01.mp3', '- Part 02.mp3', '- Part 03.mp3'].map((e) => ` ${e}`));
    expect(splitName('Short name.mp3')).toEqual({ start: 'Short name.mp3', end: '' });
  });

  it('splits between code points, never inside an emoji', () => {
    const { start, end } = splitName(`${'🎧'.repeat(30)}.mp3`);
    expect(`${start}${end}`).toBe(`${'🎧'.repeat(30)}.mp3`);
    expect(Array.from(end)).toHaveLength(14);
  });

  it('fits a width: whole when it fits, else as much of the start as fits, an ellipsis, the end', () => {
    expect(fitMiddle(NAMES[0], 60, mono)).toBe(NAMES[0]);
    const cut = NAMES.map((n) => fitMiddle(n, 30, mono));
    expect(cut[0]).toBe('The Lighthouse… - Part 01.mp3');
    for (const c of cut) expect(mono(c)).toBeLessThanOrEqual(30);
    expect(new Set(cut).size).toBe(3);
    expect(fitMiddle(NAMES[2], 10, mono)).toBe('… - Part 03.mp3');
  });
});
