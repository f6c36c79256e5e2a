// Turns the engine's progress callbacks into status events: only whole-percent changes (or, at the
// same percentage, a move to another stage or file), never going back, and no more than
// `perSecond` sends. A value that arrives too soon is not dropped: the latest one goes out when
// the interval allows, with the latest detail.

import { systemClock, type Clock } from '../../shared/clock.js';
import type { ProgressDetail } from '../../shared/types.js';

export interface ProgressThrottle {
  /** A new progress reading, any number; rounded down and clamped to 0..100; and where the merge stands. */
  update(percent: number, detail?: ProgressDetail): void;
  /** Send `percent` now, whatever the interval says (the final "100"), and stop any pending send. */
  finish(percent: number): void;
  /** Drop anything pending; nothing more is sent by update(). */
  cancel(): void;
}

/** What tells one place in the work from another: the stage and the file, not the time left. */
const placeOf = (d: ProgressDetail | undefined) => (d ? `${d.stage}:${d.file ?? ''}` : '');

export function createProgressThrottle(
  send: (percent: number, detail?: ProgressDetail) => void,
  perSecond = 20,
  clock: Clock = systemClock,
): ProgressThrottle {
  const interval = 1000 / perSecond;
  let lastSent = -1;
  let lastPlace = '';
  let lastSentAt = -Infinity;
  let pending: number | null = null;
  let pendingDetail: ProgressDetail | undefined;
  let timer: unknown = null;
  let stopped = false;

  const emit = (p: number, detail: ProgressDetail | undefined) => {
    lastSent = p;
    lastPlace = placeOf(detail);
    lastSentAt = clock.now();
    send(p, detail);
  };
  const flush = () => {
    timer = null;
    if (pending !== null && !stopped) {
      const p = pending;
      pending = null;
      emit(p, pendingDetail);
    }
  };
  /** Nothing new: a lower percentage, or the same one at the same place as what is sent or waiting. */
  const stale = (p: number, detail: ProgressDetail | undefined) => {
    const latest = Math.max(lastSent, pending ?? -1);
    if (p < latest) return true;
    if (p > latest) return false;
    const place = pending !== null ? placeOf(pendingDetail) : lastPlace;
    return placeOf(detail) === place;
  };
  const stopTimer = () => {
    if (timer !== null) clock.clearTimeout(timer);
    timer = null;
    pending = null;
  };

  return {
    update(percent, detail) {
      if (stopped || !Number.isFinite(percent)) return;
      const p = Math.max(0, Math.min(100, Math.floor(percent)));
      if (stale(p, detail)) return;
      const wait = lastSentAt + interval - clock.now();
      if (wait <= 0 && timer === null) {
        emit(p, detail);
        return;
      }
      pending = p;
      pendingDetail = detail;
      timer ??= clock.setTimeout(flush, Math.max(0, wait));
    },
    finish(percent) {
      stopTimer();
      stopped = true;
      if (percent !== lastSent) emit(percent, undefined);
    },
    cancel() {
      stopTimer();
      stopped = true;
    },
  };
}
