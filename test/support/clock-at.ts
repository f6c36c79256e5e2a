// A clock for tests that move the time but not the timers.
import { systemClock, type Clock } from '../../src/shared/clock.js';

/** The system's timers with the time read from `now`. */
export const clockAt = (now: () => number): Clock => ({ ...systemClock, now });
