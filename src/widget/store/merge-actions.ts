// The merge, followed to its end: make (with a requestId of our own), a merge already under way
// found on load, status events of that merge only, cancel, and the reload that ends every path.
import { statusChannel } from '../../shared/types.js';
import { ApiError, isExpired, type WidgetApi } from '../api/http.js';
import type { StatusSubscription, Subscribe } from '../api/realtime.js';
import type { Container, WidgetEnv } from './container.js';
import { mergeFailure } from '../i18n/server-words.js';
import { inList } from './state.js';
import { runningMerge, type MergeStatus } from './status.js';

export interface MergeActions {
  /** Ask for the merge of the list as it stands; never rejects (failures are shown and logged). */
  /** `options`: the output the person chose (format, chapters), when the host offers a choice. */
  make(options?: Record<string, unknown>): Promise<void>;
  /** On load: when this session's latest merge is queued or running, show it. */
  attachToRunning(): Promise<void>;
  cancel(): Promise<void>;
  reload(): void;
  close(): void;
}

export interface MergeDeps {
  appid: string;
  sid: string;
  port: string;
  api: Pick<WidgetApi, 'requestMerge' | 'mergeStatus' | 'cancelMerge'>;
  subscribe: Subscribe;
  env: WidgetEnv;
  /** Called just before the merge is asked for (pending removals and spans are sent first); the merge waits for it. */
  beforeMerge: () => void | Promise<void>;
  /** How long 100% stays on screen before the success reload. */
  successPauseMs: number;
  /** How long make waits for the status socket before asking for the merge anyway. */
  subscribeWaitMs: number;
}

/** The mark a cancel leaves for the page its reload brings. */
export const cancelledMark = (appid: string) => `cancelled:${appid}`;

/** The 409 a cancelled merge's own call answers with. */
const isCancelAnswer = (err: unknown) =>
  err instanceof ApiError && err.status === 409 && err.code === 'cancelled';

export function createMergeActions(c: Container, deps: MergeDeps): MergeActions {
  const { api, env } = deps;
  let subscription: StatusSubscription | null = null;
  let callPending = false;
  let reloading = false;
  /** Merges this page cancelled: their late answers and statuses change nothing. */
  const cancelledIds = new Set<string | null>();

  function reload(): void {
    if (reloading) return;
    reloading = true;
    env.reload();
  }

  function succeed(): void {
    c.dispatch({ type: 'succeeded' });
    if (reloading) return;
    reloading = true;
    env.setTimeout(() => env.reload(), deps.successPauseMs);
  }

  function onStatus(status: MergeStatus): void {
    const before = c.getState().phase;
    c.dispatch({ type: 'status', status });
    const after = c.getState();
    if (after.phase === before) return;
    // Our own call's "success" answer reloads (docs/reference/widget.md); a merge found on load has no call to wait for.
    if (after.phase === 'done' && !callPending) succeed();
    if (after.phase === 'failed' && !after.cancelling) console.error('Error', after.message);
  }

  function follow(): StatusSubscription {
    subscription?.close();
    subscription = deps.subscribe(deps.port, statusChannel(deps.appid, deps.sid), {
      onStatus,
      onDisconnect: () => c.dispatch({ type: 'connectionLost' }),
    });
    return subscription;
  }

  function callFailed(err: unknown): void {
    const state = c.getState();
    // A cancelled merge's call answers 409: the answer the cancel asked for.
    if (state.cancelling || cancelledIds.has(state.requestId) || isCancelAnswer(err)) return;
    console.error('Error', err);
    if (isExpired(err)) c.dispatch({ type: 'expired' });
    else if (err instanceof ApiError)
      c.dispatch({ type: 'failed', message: mergeFailure(err.code, err.reason, err.file) });
    // The answer was lost but the merge's own status said it succeeded.
    else if (state.phase === 'done') succeed();
    // No answer at all (the server went away): the status of the merge, sent again when the
    // socket is back, says how it ended.
    else c.dispatch({ type: 'connectionLost' });
  }

  return {
    async make(options?: Record<string, unknown>) {
      const { items } = c.getState();
      if (!inList(c.getState()) || items.length === 0) return;
      const sent = deps.beforeMerge();
      c.dispatch({ type: 'makePressed', requestId: env.newRequestId() });
      const { requestId } = c.getState();
      env.scrollToTop();
      const sub = follow();
      // Give the subscription a moment so the first statuses are not missed; never wait forever.
      await Promise.race([
        sub.ready,
        new Promise((r) => env.setTimeout(() => r(undefined), deps.subscribeWaitMs)),
      ]);
      callPending = true;
      try {
        await sent;
        const { success, answer } = await (options
          ? api.requestMerge(items, requestId as string, options)
          : api.requestMerge(items, requestId as string));
        callPending = false;
        if (success) succeed();
        else console.error('Error', answer);
      } catch (err) {
        callPending = false;
        callFailed(err);
      }
    },

    async attachToRunning() {
      try {
        const running = runningMerge(await api.mergeStatus());
        if (!running) return;
        const before = c.getState().phase;
        c.dispatch({ type: 'attached', status: running });
        if (c.getState().phase !== before) follow();
      } catch (err) {
        console.error('Error', err);
        if (isExpired(err)) c.dispatch({ type: 'expired' });
      }
    },

    async cancel() {
      const state = c.getState();
      if (state.phase !== 'merging' || state.cancelling) return;
      c.dispatch({ type: 'cancelRequested' });
      try {
        await api.cancelMerge(state.requestId);
      } catch (err) {
        // 404: the merge ended before the cancel reached it; the reload shows how.
        if (!(err instanceof ApiError && err.status === 404)) console.error('Error', err);
        return reload();
      }
      // Answered: it has stopped. The list comes back in place (a reload would flash the page's
      // plain form first), saying the merge was cancelled.
      cancelledIds.add(state.requestId);
      subscription?.close();
      subscription = null;
      c.dispatch({ type: 'cancelled' });
    },

    reload,

    close() {
      subscription?.close();
      subscription = null;
    },
  };
}
