// The audio player of a row: metadata preloaded, and a "listen" report while it plays (docs/api.md section 4).
import { useEffect, useRef } from 'react';
import { playPath, type AudioItem } from '../../shared/types.js';
import { t } from '../i18n/locale.js';

export const DEFAULT_LISTEN_INTERVAL = 10000;

export type ListenHandler = (currentTime: number, item: AudioItem) => void;

export interface RowPlayerProps {
  item: AudioItem;
  /** Called with the play position at most every `listenInterval` ms while playing. */
  onListen?: ListenHandler;
  listenInterval?: number;
}

export function RowPlayer({ item, onListen, listenInterval = DEFAULT_LISTEN_INTERVAL }: RowPlayerProps) {
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

  return (
    <audio
      ref={audioRef}
      className="audio-merge-player"
      controls
      preload="metadata"
      src={playPath(item)}
      aria-label={t().play(item.filename)}
    />
  );
}
