// A file's name as a row shows it: isolated from the page's direction, and when it is longer than
// the room it has, cut in its middle, so the end (where names of one set differ) always shows.
import { useLayoutEffect, useState, type RefObject } from 'react';
import { fitMiddle, splitName } from './middle.js';

export function FileName({ name, className }: { name: string; className: string }) {
  const { start, end } = splitName(name);
  return (
    <bdi className={`${className} audio-merge-name`} title={name}>
      <span className="audio-merge-name-start">{start}</span>
      {end && <span className="audio-merge-name-end">{end}</span>}
    </bdi>
  );
}

let canvas: HTMLCanvasElement | undefined;

/** Text width in the element's font, or undefined where the browser cannot measure (tests). */
function measurer(el: HTMLElement): ((s: string) => number) | undefined {
  try {
    canvas ??= document.createElement('canvas');
    const context = canvas.getContext('2d');
    if (!context) return undefined;
    context.font = getComputedStyle(el).font;
    return (s) => context.measureText(s).width;
  } catch {
    return undefined;
  }
}

/**
 * A field's placeholder fitted to the field's width (its padding left out), cut in the middle
 * when too long; the whole text until the field has been measured, and again on every resize.
 */
export function useFittedPlaceholder(ref: RefObject<HTMLInputElement | null>, text: string): string {
  const [fitted, setFitted] = useState(text);
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el || typeof ResizeObserver === 'undefined') return setFitted(text);
    const fit = () => {
      const measure = measurer(el);
      const style = getComputedStyle(el);
      const room = el.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
      setFitted(measure && room > 0 ? fitMiddle(text, room - 2, measure) : text);
    };
    fit();
    const observer = new ResizeObserver(fit);
    observer.observe(el);
    return () => observer.disconnect();
  }, [ref, text]);
  return fitted;
}
