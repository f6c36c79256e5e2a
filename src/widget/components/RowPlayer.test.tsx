// @vitest-environment jsdom
import { act, cleanup, fireEvent, render } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { RowPlayer } from './RowPlayer.js';
import { item } from '../../../test/support/widget-fakes.js';

afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

function playerAt(audio: HTMLAudioElement, seconds: number) {
  Object.defineProperty(audio, 'currentTime', { configurable: true, get: () => seconds });
}

describe('the row player', () => {
  it('preloads metadata and plays from the upload path', () => {
    const { container } = render(<RowPlayer item={item('x', 'my song.mp3', { sid: 's 1' })} />);
    const audio = container.querySelector('audio')!;
    expect(audio.getAttribute('preload')).toBe('metadata');
    expect(audio.getAttribute('src')).toBe('/upload/s%201/stored-x.mp3');
    expect(audio.getAttribute('aria-label')).toBe('Play my song.mp3');
  });

  it('reports the position every 10 s while playing, and stops when paused', () => {
    vi.useFakeTimers();
    const onListen = vi.fn();
    const it0 = item('x', 'a.mp3');
    const { container } = render(<RowPlayer item={it0} onListen={onListen} />);
    const audio = container.querySelector('audio')!;
    act(() => vi.advanceTimersByTime(30_000));
    expect(onListen).not.toHaveBeenCalled();

    fireEvent(audio, new Event('play'));
    playerAt(audio, 9.5);
    act(() => vi.advanceTimersByTime(9_999));
    expect(onListen).not.toHaveBeenCalled();
    act(() => vi.advanceTimersByTime(1));
    expect(onListen).toHaveBeenCalledTimes(1);
    expect(onListen).toHaveBeenLastCalledWith(9.5, it0);
    playerAt(audio, 19.5);
    act(() => vi.advanceTimersByTime(10_000));
    expect(onListen).toHaveBeenCalledTimes(2);
    expect(onListen).toHaveBeenLastCalledWith(19.5, it0);

    fireEvent(audio, new Event('pause'));
    act(() => vi.advanceTimersByTime(60_000));
    expect(onListen).toHaveBeenCalledTimes(2);
  });

  it('honours a shorter listen interval', () => {
    vi.useFakeTimers();
    const onListen = vi.fn();
    const { container } = render(
      <RowPlayer item={item('x', 'a.mp3')} onListen={onListen} listenInterval={1000} />,
    );
    fireEvent(container.querySelector('audio')!, new Event('play'));
    act(() => vi.advanceTimersByTime(3_500));
    expect(onListen).toHaveBeenCalledTimes(3);
  });

  it("a trimmed row's player counts the kept span, not the whole file: 0:00.0 / 0:30.8, then where it plays", () => {
    const { container, getByRole } = render(
      <RowPlayer item={item('x', 'a.mp3')} span={{ start: 1.2, end: 32 }} />,
    );
    const audio = container.querySelector('audio')!;
    expect(audio.hasAttribute('controls')).toBe(false);
    const time = container.querySelector('.audio-merge-span-time')!;
    expect(time.textContent).toBe('0:00.0 / 0:30.8');
    const play = vi.spyOn(audio, 'play').mockResolvedValue(undefined);
    const button = getByRole('button', { name: 'Play a.mp3' });
    expect(button.getAttribute('aria-pressed')).toBe('false');
    fireEvent.click(button);
    expect(play).toHaveBeenCalledTimes(1);
    playerAt(audio, 11.7);
    Object.defineProperty(audio, 'paused', { configurable: true, get: () => false });
    act(() => void audio.dispatchEvent(new Event('timeupdate')));
    expect(time.textContent).toBe('0:10.5 / 0:30.8');
    expect(button.getAttribute('aria-pressed')).toBe('true');
  });
});
