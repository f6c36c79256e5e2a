// Pure: a row's kept span as the handles move it. Positions are seconds of the item's decoded
// audio; a span touching an end of the file is saved as null there (the whole file, whatever its
// exact length), so a reset is null, null.
import { t } from '../i18n/locale.js';

/** The shortest span the handles leave (they never cross). */
export const MIN_KEEP = 0.1;
/** Arrow keys move a handle this far; Page Up/Down ten times that. */
export const STEP = 0.1;
export const PAGE = 1;
/** A handle this close to where it can go no further is there (the server's own slack is 50 ms). */
const SNAP = 0.05;

export interface Span {
  start: number;
  end: number;
}

export type Handle = 'start' | 'end';

/** The span shown for an item: its saved ends, or the file's own. */
export function spanOf(item: { start?: number | null; end?: number | null }, duration: number): Span {
  const start = Math.min(Math.max(item.start ?? 0, 0), duration);
  const end = Math.max(Math.min(item.end ?? duration, duration), start);
  return { start, end };
}

/** Where a handle may go: it keeps MIN_KEEP from the other, inside the file. */
export function limitsOf(span: Span, handle: Handle, duration: number): { min: number; max: number } {
  const keep = Math.min(MIN_KEEP, duration);
  return handle === 'start'
    ? { min: 0, max: Math.max(0, span.end - keep) }
    : { min: Math.min(duration, span.start + keep), max: duration };
}

const tenth = (s: number) => Math.round(s * 1000) / 1000;

/** The span with one handle moved to `at` seconds (held inside its limits). */
export function moveHandle(span: Span, handle: Handle, at: number, duration: number): Span {
  const { min, max } = limitsOf(span, handle, duration);
  // Within SNAP of a limit is at it exactly: a handle put back at the file's end (by a pointer
  // that cannot hit its last sample) is at its end, not a rounding short of it.
  const to = at >= max - SNAP ? max : at <= min + SNAP ? min : tenth(at);
  return handle === 'start' ? { start: to, end: span.end } : { start: span.start, end: to };
}

/** Where a key takes a handle, or undefined for a key that does not move it. */
export function keyTarget(key: string, span: Span, handle: Handle, duration: number): number | undefined {
  const now = span[handle];
  const { min, max } = limitsOf(span, handle, duration);
  switch (key) {
    case 'ArrowLeft':
    case 'ArrowDown':
      return now - STEP;
    case 'ArrowRight':
    case 'ArrowUp':
      return now + STEP;
    case 'PageDown':
      return now - PAGE;
    case 'PageUp':
      return now + PAGE;
    case 'Home':
      return min;
    case 'End':
      return max;
    default:
      return undefined;
  }
}

/** What saveItem is sent: null for an end that is the file's own. */
export function savedSpan(span: Span, duration: number): { start: number | null; end: number | null } {
  return {
    start: span.start <= 0 ? null : span.start,
    end: span.end >= duration ? null : span.end,
  };
}

export const isTrimmed = (span: Span, duration: number) => span.start > 0 || span.end < duration;

/** `1:05.2`, `0:07.0`: a length or position to a tenth of a second. */
export function clock(seconds: number): string {
  const tenths = Math.round(seconds * 10);
  const m = Math.floor(tenths / 600);
  const s = (tenths % 600) / 10;
  return `${m}:${s.toFixed(1).padStart(4, '0')}`;
}

/** aria-valuetext: minutes and seconds in words. */
export function spokenTime(seconds: number): string {
  const tenths = Math.round(seconds * 10);
  return t().timeText(Math.floor(tenths / 600), (tenths % 600) / 10);
}
