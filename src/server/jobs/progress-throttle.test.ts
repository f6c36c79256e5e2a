import { describe, expect, it } from 'vitest';
import type { Clock } from '../../shared/clock.js';
import { createProgressThrottle } from './progress-throttle.js';

/** A hand-driven clock: time moves only when the test says so. */
function fakeClock() {
  let t = 1_000;
  let timers: Array<{ at: number; fn: () => void; id: number }> = [];
  let nextId = 1;
  const clock: Clock = {
    now: () => t,
    setTimeout(fn, ms) {
      const id = nextId++;
      timers.push({ at: t + ms, fn, id });
      return id;
    },
    clearTimeout(id) {
      timers = timers.filter((x) => x.id !== id);
    },
  };
  const advance = (ms: number) => {
    t += ms;
    for (;;) {
      const due = timers.filter((x) => x.at <= t).sort((a, b) => a.at - b.at)[0];
      if (!due) break;
      timers = timers.filter((x) => x !== due);
      due.fn();
    }
  };
  return { clock, advance, pendingTimers: () => timers.length };
}

describe('progress throttle', () => {
  it('sends each whole-percent change, once, never going back', () => {
    const { clock, advance } = fakeClock();
    const sent: number[] = [];
    const th = createProgressThrottle((p) => sent.push(p), 20, clock);
    for (const p of [0, 0.4, 1.9, 1, 3, 2, 3.99, 150]) {
      th.update(p);
      advance(100);
    }
    expect(sent).toEqual([0, 1, 3, 100]);
  });

  it('sends no more than 20 a second, and the latest value is not lost', () => {
    const { clock, advance, pendingTimers } = fakeClock();
    const sent: Array<[number, number]> = [];
    const th = createProgressThrottle((p) => sent.push([clock.now(), p]), 20, clock);
    // 100 readings in one second, one every 10 ms.
    for (let i = 0; i < 100; i++) {
      th.update(i);
      advance(10);
    }
    advance(1000);
    const times = sent.map(([at]) => at);
    for (let i = 1; i < times.length; i++) expect(times[i] - times[i - 1]).toBeGreaterThanOrEqual(50);
    expect(sent.length).toBeLessThanOrEqual(21);
    expect(sent.at(-1)![1]).toBe(99);
    const values = sent.map(([, p]) => p);
    expect(values).toEqual([...values].sort((a, b) => a - b));
    expect(pendingTimers()).toBe(0);
  });

  it('finish sends the final 100 at once, even inside the interval, and nothing after it', () => {
    const { clock, advance } = fakeClock();
    const sent: number[] = [];
    const th = createProgressThrottle((p) => sent.push(p), 20, clock);
    th.update(50);
    th.update(60); // pending: inside the interval
    th.finish(100);
    advance(1000);
    th.update(70);
    advance(1000);
    expect(sent).toEqual([50, 100]);
  });

  it('cancel drops a pending value so a failure message can be the last event', () => {
    const { clock, advance } = fakeClock();
    const sent: number[] = [];
    const th = createProgressThrottle((p) => sent.push(p), 20, clock);
    th.update(10);
    th.update(20);
    th.cancel();
    advance(1000);
    expect(sent).toEqual([10]);
  });

  it('sends the same percentage again when the merge moves to another stage or file, with the latest detail', () => {
    const { clock, advance } = fakeClock();
    const sent: string[] = [];
    const th = createProgressThrottle(
      (p, d) => sent.push(`${p} ${d?.stage}:${d?.file} ${d?.secondsLeft}`),
      20,
      clock,
    );
    const at = (stage: 'encoding' | 'storing', file: number, secondsLeft: number | null) => ({
      stage,
      file,
      files: 3,
      secondsLeft,
    });
    th.update(40, at('encoding', 1, 30));
    advance(100);
    th.update(40, at('encoding', 1, 29)); // only the time left changed: nothing to tell
    advance(100);
    th.update(40, at('encoding', 2, 28)); // the next file
    th.update(40, at('encoding', 3, 27)); // inside the interval: waits, then goes out as the latest
    advance(100);
    th.update(99, at('storing', 3, null));
    advance(100);
    th.update(99, at('storing', 3, null));
    advance(100);
    expect(sent).toEqual(['40 encoding:1 30', '40 encoding:2 28', '40 encoding:3 27', '99 storing:3 null']);
  });
});
