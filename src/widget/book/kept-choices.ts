// The person's choices (output, book details, sound options) kept on the server with saveChoices
// {appid, choices}: sent once the changes have rested for a moment, the latest only. They wait
// with the rows' edits, so the one flush before a merge, or as the page is left, sends them too.
import { API } from '../../shared/types.js';
import { postJson } from '../api/http.js';
import type { WidgetEnv } from '../store/container.js';
import { createDebouncedSaves } from '../store/debounced-saves.js';

export const CHOICES_SAVE_DELAY_MS = 400;

/** POST saveChoices {appid, choices}. `keepalive` lets the call outlive the page. */
export async function saveChoices(
  appid: string,
  choices: Record<string, unknown>,
  opts: { keepalive?: boolean } = {},
): Promise<void> {
  await postJson(API.saveChoices, { appid, choices }, opts.keepalive ? { keepalive: true } : {});
}

export interface ChoicesApi {
  saveChoices: typeof saveChoices;
}

export interface ChoiceActions {
  /** Keep these choices for the page's appid (sent after a short pause). */
  keepChoices(choices: Record<string, unknown>): void;
  /** Send the waiting choices now; resolves when they have been answered. */
  flushChoices(opts?: { keepalive?: boolean }): Promise<void>;
}

export interface ChoiceDeps {
  appid: string;
  api: ChoicesApi;
  env: Pick<WidgetEnv, 'setTimeout' | 'clearTimeout'>;
  saveDelayMs?: number;
}

export function createChoiceActions(deps: ChoiceDeps): ChoiceActions {
  let latest: Record<string, unknown> = {};
  const saves = createDebouncedSaves(
    deps.env,
    deps.saveDelayMs ?? CHOICES_SAVE_DELAY_MS,
    (appid, keepalive) =>
      deps.api.saveChoices(appid, latest, { keepalive }).catch((err: unknown) => {
        // Losing a kept choice costs the person a click on their next visit, never the merge.
        console.warn('Warning', err);
      }),
  );
  return {
    keepChoices(choices) {
      latest = choices;
      saves.schedule(deps.appid);
    },
    flushChoices: (opts) => saves.flush(opts),
  };
}
