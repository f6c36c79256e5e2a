import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { item } from '../../../test/support/widget-fakes.js';
import { ApiError } from '../api/http.js';
import { createContainer } from '../store/container.js';
import { t } from '../i18n/locale.js';
import { createTrimActions, SAVE_DELAY_MS } from './trim-actions.js';
import type { TrimApi } from './trim-api.js';

let saveSpan: ReturnType<typeof vi.fn<TrimApi['saveSpan']>>;
beforeEach(() => {
  vi.useFakeTimers();
  vi.spyOn(console, 'error').mockImplementation(() => {});
  saveSpan = vi.fn<TrimApi['saveSpan']>(async () => {});
});
afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

function setUp() {
  const c = createContainer();
  c.dispatch({ type: 'loaded', items: [item('a', 'alpha.mp3', { duration: 10 }), item('b', 'bravo.wav')] });
  const trim = createTrimActions(c, {
    api: { saveSpan },
    env: {
      setTimeout: (fn, ms) => setTimeout(fn, ms),
      clearTimeout: (h) => clearTimeout(h as ReturnType<typeof setTimeout>),
    },
  });
  return { c, trim };
}

describe('trimming a row', () => {
  it('shows the span at once and saves only the latest, once the handle has rested', async () => {
    const { c, trim } = setUp();
    trim.setSpan('a', 1, null);
    trim.setSpan('a', 1.1, null);
    trim.setSpan('a', 1.2, 9);
    expect(c.getState().items[0]).toMatchObject({ start: 1.2, end: 9 });
    await vi.advanceTimersByTimeAsync(SAVE_DELAY_MS - 1);
    expect(saveSpan).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(saveSpan).toHaveBeenCalledTimes(1);
    expect(saveSpan).toHaveBeenCalledWith('a', { start: 1.2, end: 9 }, { keepalive: false });
  });

  it('resets at once to the whole file, and a merge first sends what is waiting', async () => {
    const { c, trim } = setUp();
    trim.setSpan('b', 0.5, null);
    let answered = false;
    saveSpan.mockImplementation(async () => {
      await new Promise((r) => setTimeout(r, 50));
      answered = true;
    });
    const flushed = trim.flushSpans();
    expect(saveSpan).toHaveBeenCalledWith('b', { start: 0.5, end: null }, { keepalive: false });
    await vi.advanceTimersByTimeAsync(50);
    await flushed;
    expect(answered).toBe(true);
    trim.resetSpan('b');
    expect(c.getState().items[1]).toMatchObject({ start: null, end: null });
    expect(saveSpan).toHaveBeenLastCalledWith('b', { start: null, end: null }, { keepalive: false });
    await vi.advanceTimersByTimeAsync(SAVE_DELAY_MS + 100);
    expect(saveSpan).toHaveBeenCalledTimes(2);
  });

  it('says when a span could not be saved, naming the file', async () => {
    const { c, trim } = setUp();
    saveSpan.mockRejectedValue(new ApiError('/app/merge/saveItem', 400, 'end: past the end', 'badSpan'));
    trim.setSpan('a', null, 4);
    await vi.advanceTimersByTimeAsync(SAVE_DELAY_MS);
    expect(c.getState().notice).toBe(t().spanNotSaved('alpha.mp3', 'end: past the end'));
  });
});
