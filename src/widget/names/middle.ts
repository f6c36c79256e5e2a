// Pure: where a long name is cut so that its end, where names of one set differ ("... Part 01.mp3",
// "... Part 02.mp3"), always shows.

/** Code points kept whole at a long name's end. */
export const KEPT_END = 14;

/**
 * The name in two: a start that may be cut short (with an ellipsis) and an end that never is. A
 * short name is all start. Split between code points, so no emoji or letter is halved.
 */
export function splitName(name: string, keep = KEPT_END): { start: string; end: string } {
  const points = Array.from(name);
  if (points.length <= keep + 6) return { start: name, end: '' };
  return { start: points.slice(0, -keep).join(''), end: points.slice(-keep).join('') };
}

/**
 * `text` as it fits `width` (by `measure`): whole when it fits, else its start cut in the middle
 * with an ellipsis and its end kept (the end alone, after the ellipsis, when even that is too wide).
 */
export function fitMiddle(text: string, width: number, measure: (s: string) => number): string {
  if (measure(text) <= width) return text;
  const { start, end } = splitName(text);
  const head = Array.from(end ? start : text);
  const tail = end;
  let lo = 0;
  let hi = head.length;
  // The longest start that fits with the ellipsis and the end.
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (measure(`${head.slice(0, mid).join('').trimEnd()}…${tail}`) <= width) lo = mid;
    else hi = mid - 1;
  }
  if (lo > 0 || !tail) return `${head.slice(0, lo).join('').trimEnd()}…${tail}`;
  return `…${tail}`;
}
