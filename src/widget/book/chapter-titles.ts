// Each row's chapter title as a person types it: shown at once, saved with saveItem {id,
// chapterTitle} once the typing has rested (null when the field is emptied: the default title).
// A title the server refuses is said on its row until a title is saved.
import { API } from '../../shared/types.js';
import { isExpired, postJson, reasonOf } from '../api/http.js';
import type { Container, WidgetEnv } from '../store/container.js';
import { createDebouncedSaves } from '../store/debounced-saves.js';

export const TITLE_SAVE_DELAY_MS = 400;

/** POST saveItem {id, chapterTitle}; null is the default title. */
export async function saveChapterTitle(
  id: string,
  chapterTitle: string | null,
  opts: { keepalive?: boolean } = {},
): Promise<void> {
  await postJson(API.saveItem, { id, chapterTitle }, opts.keepalive ? { keepalive: true } : {});
}

export interface TitleApi {
  saveChapterTitle: typeof saveChapterTitle;
}

export interface TitleActions {
  /** The row's title as typed; blank is the default title. */
  setChapterTitle(id: string, text: string): void;
  /** Send every waiting title now; resolves when they have been answered. */
  flushTitles(opts?: { keepalive?: boolean }): Promise<void>;
}

export interface TitleDeps {
  api: TitleApi;
  env: Pick<WidgetEnv, 'setTimeout' | 'clearTimeout'>;
  saveDelayMs?: number;
}

export function createTitleActions(c: Container, deps: TitleDeps): TitleActions {
  const saves = createDebouncedSaves(deps.env, deps.saveDelayMs ?? TITLE_SAVE_DELAY_MS, (id, keepalive) => {
    const item = c.getState().items.find((i) => i.id === id);
    if (!item) return Promise.resolve();
    return deps.api.saveChapterTitle(id, item.chapterTitle ?? null, { keepalive }).then(
      () => c.dispatch({ type: 'chapterTitleSaved', id, refused: null }),
      (err: unknown) => {
        console.error('Error', err);
        if (isExpired(err)) c.dispatch({ type: 'expired' });
        else c.dispatch({ type: 'chapterTitleSaved', id, refused: reasonOf(err) });
      },
    );
  });

  return {
    setChapterTitle(id, text) {
      const before = c.getState().items;
      c.dispatch({ type: 'chapterTitleChanged', id, chapterTitle: text.trim() === '' ? null : text });
      if (c.getState().items !== before) saves.schedule(id);
    },
    flushTitles: (opts) => saves.flush(opts),
  };
}

export const titleApi: TitleApi = { saveChapterTitle };
