// The widget as one headless store: its state, its actions, and a subscribe for the views.
// Everything it calls (HTTP, the socket, timers, the page) is injectable, so it is tested alone.
import { httpApi, type WidgetApi } from '../api/http.js';
import { subscribeStatus, type Subscribe } from '../api/realtime.js';
import { browserEnv, createContainer, type WidgetEnv } from './container.js';
import { createListActions, type ListActions } from './list-actions.js';
import { cancelledMark, createMergeActions, type MergeActions } from './merge-actions.js';
import { t } from '../i18n/locale.js';
import { inList, type WidgetState } from './state.js';
import { createTrimActions, type TrimActions } from '../trim/trim-actions.js';
import { trimApi, type TrimApi } from '../trim/trim-api.js';
import { createTitleActions, titleApi, type TitleActions, type TitleApi } from '../book/chapter-titles.js';
import {
  createChoiceActions,
  saveChoices,
  type ChoiceActions,
  type ChoicesApi,
} from '../book/kept-choices.js';

export interface WidgetStoreConfig {
  appid: string;
  sid: string;
  port: string;
}

export interface WidgetStoreDeps {
  api?: WidgetApi;
  trimApi?: TrimApi;
  titleApi?: TitleApi;
  choicesApi?: ChoicesApi;
  subscribe?: Subscribe;
  env?: Partial<WidgetEnv>;
  undoMs?: number;
  successPauseMs?: number;
  subscribeWaitMs?: number;
}

export type WidgetActions = ListActions &
  Omit<TrimActions, 'flushSpans'> &
  Omit<TitleActions, 'flushTitles'> &
  Omit<ChoiceActions, 'flushChoices'> &
  Pick<TrimApi, 'fetchPeaks'> &
  Omit<MergeActions, 'close'> & {
    /** Load the list and look for a merge under way. */
    start(): Promise<void>;
    /** Stop following; removals still waiting are sent. */
    dispose(): void;
  };

export interface WidgetStore {
  getState(): WidgetState;
  subscribe(listener: () => void): () => void;
  actions: WidgetActions;
}

export const UNDO_MS = 5000;
export const SUCCESS_PAUSE_MS = 800;
export const SUBSCRIBE_WAIT_MS = 2000;

export function createWidgetStore(config: WidgetStoreConfig, deps: WidgetStoreDeps = {}): WidgetStore {
  const container = createContainer();
  const env: WidgetEnv = { ...browserEnv, ...deps.env };
  const api = deps.api ?? httpApi;
  const list = createListActions(container, {
    appid: config.appid,
    api,
    env,
    undoMs: deps.undoMs ?? UNDO_MS,
  });
  const trimCalls = deps.trimApi ?? trimApi;
  const trim = createTrimActions(container, { api: trimCalls, env });
  const titles = createTitleActions(container, { api: deps.titleApi ?? titleApi, env });
  const choices = createChoiceActions({
    appid: config.appid,
    api: deps.choicesApi ?? { saveChoices },
    env,
  });
  // The one rule for every save still waiting (spans, titles, choices): a merge is asked for only
  // once they are answered, and leaving the page sends them with keepalive.
  const flushEdits = async (opts?: { keepalive?: boolean }) => {
    await Promise.all([trim.flushSpans(opts), titles.flushTitles(opts), choices.flushChoices(opts)]);
  };
  const merge = createMergeActions(container, {
    ...config,
    api,
    env,
    subscribe: deps.subscribe ?? subscribeStatus,
    beforeMerge: () => {
      list.flushRemovals();
      return flushEdits();
    },
    successPauseMs: deps.successPauseMs ?? SUCCESS_PAUSE_MS,
    subscribeWaitMs: deps.subscribeWaitMs ?? SUBSCRIBE_WAIT_MS,
  });
  // A removal the person made happens even when they leave within the undo window.
  const stopLeaving = env.onLeave(() => {
    list.flushRemovals({ keepalive: true });
    void flushEdits({ keepalive: true });
  });
  const { close, ...mergeActions } = merge;
  const { flushSpans: _spans, ...trimActions } = trim;
  const { flushTitles: _titles, ...titleActions } = titles;
  const { flushChoices: _choices, ...choiceActions } = choices;

  return {
    getState: container.getState,
    subscribe: container.subscribe,
    actions: {
      ...list,
      ...trimActions,
      ...titleActions,
      keepChoices(kept) {
        choiceActions.keepChoices(kept);
        container.dispatch({ type: 'info', text: null });
      },
      fetchPeaks: trimCalls.fetchPeaks,
      ...mergeActions,
      async start() {
        await Promise.all([list.load(), merge.attachToRunning()]);
        // Said once the list is shown, so its live region is in the page to announce it.
        if (env.carryOver.take(cancelledMark(config.appid)) && inList(container.getState()))
          container.dispatch({ type: 'info', text: t().mergeCancelled });
      },
      dispose() {
        stopLeaving();
        list.flushRemovals({ keepalive: true });
        void flushEdits({ keepalive: true });
        close();
      },
    },
  };
}
