// A row's waveform with its kept span highlighted, and the two handles that set the span: sliders
// for the keyboard (arrows 0.1 s, Page Up/Down 1 s, Home/End) and for a pointer (mouse, pen or
// touch: pointer events, captured while dragging). A handle never starts a row drag.
import { useEffect, useRef, useState, type KeyboardEvent, type PointerEvent } from 'react';
import type { AudioItem } from '../../shared/types.js';
import { t } from '../i18n/locale.js';
import { keyTarget, moveHandle, spanOf, spokenTime, type Handle, type Span } from './span.js';
import type { PeaksAnswer } from './trim-api.js';

export interface TrimBarProps {
  item: AudioItem;
  duration: number;
  onSpan: (span: Span) => void;
  fetchPeaks: (id: string, bins: number) => Promise<PeaksAnswer>;
}

/** The strip's size in CSS pixels; the canvas holds devicePixelRatio times as many. */
const HEIGHT = 20;

function draw(canvas: HTMLCanvasElement, peaks: number[], span: Span, duration: number): void {
  const ratio = window.devicePixelRatio || 1;
  const width = canvas.clientWidth;
  if (width === 0) return;
  canvas.width = Math.round(width * ratio);
  canvas.height = Math.round(HEIGHT * ratio);
  const g = canvas.getContext('2d');
  if (!g) return;
  g.setTransform(ratio, 0, 0, ratio, 0, 0);
  g.clearRect(0, 0, width, HEIGHT);
  const from = (span.start / duration) * width;
  const to = (span.end / duration) * width;
  g.fillStyle = 'rgba(79, 70, 229, 0.10)';
  g.fillRect(from, 0, to - from, HEIGHT);
  const step = width / Math.max(1, peaks.length);
  peaks.forEach((p, i) => {
    const x = i * step;
    const h = Math.max(1, p * HEIGHT);
    g.fillStyle = x >= from && x < to ? '#4f46e5' : '#c7c9d1';
    g.fillRect(x, (HEIGHT - h) / 2, Math.max(step - 0.5, 0.5), h);
  });
}

export function TrimBar({ item, duration, onSpan, fetchPeaks }: TrimBarProps) {
  const span = spanOf(item, duration);
  const barRef = useRef<HTMLDivElement>(null);
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const dragging = useRef<Handle | null>(null);
  const [peaks, setPeaks] = useState<number[]>([]);

  useEffect(() => {
    const width = barRef.current?.clientWidth ?? 0;
    if (width === 0) return;
    let live = true;
    const bins = Math.min(4000, Math.round(width * (window.devicePixelRatio || 1)));
    fetchPeaks(item.id, bins).then(
      (answer) => live && setPeaks(answer.peaks),
      (err: unknown) => console.error('Error', err),
    );
    return () => {
      live = false;
    };
  }, [item.id, fetchPeaks]);

  useEffect(() => {
    if (canvasRef.current) draw(canvasRef.current, peaks, span, duration);
  }, [peaks, span.start, span.end, duration]); // eslint-disable-line react-hooks/exhaustive-deps

  const moveTo = (handle: Handle, at: number) => {
    const next = moveHandle(span, handle, at, duration);
    if (next.start !== span.start || next.end !== span.end) onSpan(next);
  };

  const onKeyDown = (handle: Handle) => (e: KeyboardEvent<HTMLDivElement>) => {
    const at = keyTarget(e.key, span, handle, duration);
    if (at === undefined) return;
    e.preventDefault();
    e.stopPropagation();
    moveTo(handle, at);
  };

  const secondsAt = (clientX: number) => {
    const rect = barRef.current!.getBoundingClientRect();
    return ((clientX - rect.left) / Math.max(1, rect.width)) * duration;
  };
  const onPointerDown = (handle: Handle) => (e: PointerEvent<HTMLDivElement>) => {
    e.stopPropagation();
    e.preventDefault();
    e.currentTarget.setPointerCapture(e.pointerId);
    e.currentTarget.focus();
    dragging.current = handle;
  };
  const onPointerMove = (e: PointerEvent<HTMLDivElement>) => {
    if (dragging.current) moveTo(dragging.current, secondsAt(e.clientX));
  };
  const onPointerUp = () => {
    dragging.current = null;
  };

  const handle = (which: Handle) => {
    const value = span[which];
    return (
      <div
        role="slider"
        tabIndex={0}
        className={`audio-merge-trim-handle audio-merge-trim-${which}`}
        aria-label={which === 'start' ? t().trimStart(item.filename) : t().trimEnd(item.filename)}
        aria-valuemin={which === 'start' ? 0 : span.start}
        aria-valuemax={which === 'start' ? span.end : duration}
        aria-valuenow={value}
        aria-valuetext={spokenTime(value)}
        aria-orientation="horizontal"
        style={{ left: `${(value / duration) * 100}%` }}
        onKeyDown={onKeyDown(which)}
        onPointerDown={onPointerDown(which)}
        onPointerMove={onPointerMove}
        onPointerUp={onPointerUp}
        onPointerCancel={onPointerUp}
      />
    );
  };

  return (
    <div ref={barRef} className="audio-merge-waveform" title={t().waveform(item.filename)}>
      <canvas ref={canvasRef} aria-hidden="true" />
      {handle('start')}
      {handle('end')}
    </div>
  );
}
