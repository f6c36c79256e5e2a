// The audio player of a row: metadata preloaded, and a "listen" report while it plays (docs/reference/widget.md).
import { useEffect, useRef, useState, type RefObject } from 'react';
import { playPath, type AudioItem } from '../../shared/types.js';
import { t } from '../i18n/locale.js';
import { clock } from '../trim/span.js';

export const DEFAULT_LISTEN_INTERVAL = 10000;

export type ListenHandler = (currentTime: number, item: AudioItem) => void;

export interface RowPlayerProps {
  item: AudioItem;
  /** Called with the play position at most every `listenInterval` ms while playing. */
  onListen?: ListenHandler;
  listenInterval?: number;
  /** The kept span: play starts at its start and stops at its end. */
  span?: { start: number; end: number };
}

export function RowPlayer({
  item,
  onListen,
  listenInterval = DEFAULT_LISTEN_INTERVAL,
  span,
}: RowPlayerProps) {
  const audioRef = useRef<HTMLAudioElement>(null);
  // Kept in a ref so a new callback each render does not restart the interval.
  const onListenRef = useRef(onListen);
  const itemRef = useRef(item);
  useEffect(() => {
    onListenRef.current = onListen;
    itemRef.current = item;
  });
  const listening = onListen !== undefined;

  useEffect(() => {
    const audio = audioRef.current;
    if (!audio || !listening) return;
    let timer: ReturnType<typeof setInterval> | undefined;
    const stop = () => {
      if (timer !== undefined) clearInterval(timer);
      timer = undefined;
    };
    const start = () => {
      stop();
      timer = setInterval(() => onListenRef.current?.(audio.currentTime, itemRef.current), listenInterval);
    };
    audio.addEventListener('play', start);
    audio.addEventListener('pause', stop);
    audio.addEventListener('ended', stop);
    return () => {
      stop();
      audio.removeEventListener('play', start);
      audio.removeEventListener('pause', stop);
      audio.removeEventListener('ended', stop);
    };
  }, [listening, listenInterval]);

  useKeptSpan(audioRef, span);
  const audio = (
    <audio
      ref={audioRef}
      className="audio-merge-player"
      controls={span === undefined}
      preload="metadata"
      src={playPath(item)}
      aria-label={t().play(item.filename)}
    />
  );
  if (!span) return audio;
  return (
    <div className="audio-merge-span-player">
      {audio}
      <SpanControls audioRef={audioRef} span={span} name={item.filename} />
    </div>
  );
}

/**
 * A trimmed row's own play button and clock: the browser's controls would count the whole file
 * ("0:00 / 0:33" for a 30.8 s span); these count the kept span, from its start.
 */
function SpanControls({
  audioRef,
  span,
  name,
}: {
  audioRef: RefObject<HTMLAudioElement | null>;
  span: { start: number; end: number };
  name: string;
}) {
  const [playing, setPlaying] = useState(false);
  const [at, setAt] = useState(span.start);
  useEffect(() => {
    const audio = audioRef.current;
    if (!audio) return;
    const sync = () => {
      setPlaying(!audio.paused);
      setAt(audio.currentTime);
    };
    const events = ['play', 'pause', 'ended', 'timeupdate', 'seeked'] as const;
    for (const e of events) audio.addEventListener(e, sync);
    return () => {
      for (const e of events) audio.removeEventListener(e, sync);
    };
  }, [audioRef]);
  const elapsed = Math.min(Math.max(at - span.start, 0), span.end - span.start);
  const toggle = () => {
    const audio = audioRef.current;
    if (!audio) return;
    if (audio.paused) void audio.play().catch(() => undefined);
    else audio.pause();
  };
  return (
    <>
      <button
        type="button"
        className="audio-merge-span-play"
        aria-label={t().play(name)}
        aria-pressed={playing}
        onClick={toggle}
      >
        <svg viewBox="0 0 12 12" width="12" height="12" focusable="false" aria-hidden="true">
          {playing ? <path d="M2.5 1.5h2.5v9H2.5zM7 1.5h2.5v9H7z" /> : <path d="M2.5 1.2l8 4.8-8 4.8z" />}
        </svg>
      </button>
      <bdi className="audio-merge-span-time" dir="ltr">
        {clock(elapsed)} / {clock(span.end - span.start)}
      </bdi>
    </>
  );
}

/**
 * While a span is kept, the player plays only it: a play outside it starts at its start, and the
 * position is watched every frame while playing so it stops at the end (timeupdate comes only
 * every quarter second or so).
 */
function useKeptSpan(
  audioRef: RefObject<HTMLAudioElement | null>,
  span: { start: number; end: number } | undefined,
) {
  const start = span?.start;
  const end = span?.end;
  useEffect(() => {
    const audio = audioRef.current;
    if (!audio || start === undefined || end === undefined) return;
    let frame: number | undefined;
    const watch = () => {
      if (audio.currentTime >= end) {
        audio.pause();
        audio.currentTime = start;
        return;
      }
      frame = requestAnimationFrame(watch);
    };
    const onPlay = () => {
      if (audio.currentTime < start || audio.currentTime >= end) audio.currentTime = start;
      if (frame !== undefined) cancelAnimationFrame(frame);
      frame = requestAnimationFrame(watch);
    };
    const onStop = () => {
      if (frame !== undefined) cancelAnimationFrame(frame);
      frame = undefined;
    };
    if (!audio.paused) onPlay();
    audio.addEventListener('play', onPlay);
    audio.addEventListener('pause', onStop);
    audio.addEventListener('ended', onStop);
    return () => {
      onStop();
      audio.removeEventListener('play', onPlay);
      audio.removeEventListener('pause', onStop);
      audio.removeEventListener('ended', onStop);
    };
  }, [audioRef, start, end]);
}
