import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { item } from '../../../test/support/widget-fakes.js';
import { ApiError } from '../api/http.js';
import { createContainer } from '../store/container.js';
import { createTitleActions, TITLE_SAVE_DELAY_MS, type TitleApi } from './chapter-titles.js';

let save: ReturnType<typeof vi.fn<TitleApi['saveChapterTitle']>>;
beforeEach(() => {
  vi.useFakeTimers();
  vi.spyOn(console, 'error').mockImplementation(() => {});
  save = vi.fn<TitleApi['saveChapterTitle']>(async () => {});
});
afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

function setUp() {
  const c = createContainer();
  c.dispatch({
    type: 'loaded',
    items: [item('a', 'alpha.mp3', { chapterTitle: 'Prologue' }), item('b', 'bravo.mp3')],
  });
  const titles = createTitleActions(c, {
    api: { saveChapterTitle: save },
    env: {
      setTimeout: (fn, ms) => setTimeout(fn, ms),
      clearTimeout: (h) => clearTimeout(h as ReturnType<typeof setTimeout>),
    },
  });
  return { c, titles };
}

describe("a row's chapter title", () => {
  it('shows as typed at once and saves only the latest, once the typing has rested', async () => {
    const { c, titles } = setUp();
    titles.setChapterTitle('b', 'O');
    titles.setChapterTitle('b', 'Op');
    titles.setChapterTitle('b', 'Opening ');
    expect(c.getState().items[1].chapterTitle).toBe('Opening ');
    await vi.advanceTimersByTimeAsync(TITLE_SAVE_DELAY_MS - 1);
    expect(save).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(save).toHaveBeenCalledTimes(1);
    expect(save).toHaveBeenCalledWith('b', 'Opening ', { keepalive: false });
  });

  it('is saved as null (the default title) when the field is emptied, and a flush sends it at once', async () => {
    const { c, titles } = setUp();
    titles.setChapterTitle('a', '   ');
    expect(c.getState().items[0].chapterTitle).toBeNull();
    await titles.flushTitles({ keepalive: true });
    expect(save).toHaveBeenCalledWith('a', null, { keepalive: true });
    // The same title again is no change and sends nothing.
    titles.setChapterTitle('a', '');
    await vi.advanceTimersByTimeAsync(TITLE_SAVE_DELAY_MS * 2);
    expect(save).toHaveBeenCalledTimes(1);
  });

  it('says on the row why the server refused a title, until a title is saved', async () => {
    const { c, titles } = setUp();
    save.mockRejectedValueOnce(
      new ApiError('/app/merge/saveItem', 400, 'chapterTitle: no control characters', 'badChapterTitle'),
    );
    titles.setChapterTitle('b', 'Bell \u0007');
    await vi.advanceTimersByTimeAsync(TITLE_SAVE_DELAY_MS);
    expect(c.getState().titleErrors).toEqual({ b: 'chapterTitle: no control characters' });
    titles.setChapterTitle('b', 'Bell');
    await vi.advanceTimersByTimeAsync(TITLE_SAVE_DELAY_MS);
    expect(save).toHaveBeenLastCalledWith('b', 'Bell', { keepalive: false });
    expect(c.getState().titleErrors).toEqual({});
  });
});
