// Turns the engine's progress callbacks into status events: only whole-percent changes, never
// going back, and no more than `perSecond` sends. A value that arrives too soon is not dropped:
// the latest one goes out when the interval allows.

import { systemClock, type Clock } from '../../shared/clock.js';

export interface ProgressThrottle {
  /** A new progress reading, any number; rounded down and clamped to 0..100. */
  update(percent: number): void;
  /** Send `percent` now, whatever the interval says (the final "100"), and stop any pending send. */
  finish(percent: number): void;
  /** Drop anything pending; nothing more is sent by update(). */
  cancel(): void;
}

export function createProgressThrottle(
  send: (percent: number) => void,
  perSecond = 20,
  clock: Clock = systemClock,
): ProgressThrottle {
  const interval = 1000 / perSecond;
  let lastSent = -1;
  let lastSentAt = -Infinity;
  let pending: number | null = null;
  let timer: unknown = null;
  let stopped = false;

  const emit = (p: number) => {
    lastSent = p;
    lastSentAt = clock.now();
    send(p);
  };
  const flush = () => {
    timer = null;
    if (pending !== null && !stopped) {
      const p = pending;
      pending = null;
      emit(p);
    }
  };
  const stopTimer = () => {
    if (timer !== null) clock.clearTimeout(timer);
    timer = null;
    pending = null;
  };

  return {
    update(percent) {
      if (stopped || !Number.isFinite(percent)) return;
      const p = Math.max(0, Math.min(100, Math.floor(percent)));
      if (p <= lastSent || p <= (pending ?? -1)) return;
      const wait = lastSentAt + interval - clock.now();
      if (wait <= 0 && timer === null) {
        emit(p);
        return;
      }
      pending = p;
      timer ??= clock.setTimeout(flush, Math.max(0, wait));
    },
    finish(percent) {
      stopTimer();
      stopped = true;
      if (percent !== lastSent) emit(percent);
    },
    cancel() {
      stopTimer();
      stopped = true;
    },
  };
}
