import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeApi, fakeSubscribe, item } from '../../../test/support/widget-fakes.js';
import { ApiError } from '../api/http.js';
import { en } from '../i18n/en.js';
import { applyLocale, loadLocale } from '../i18n/locale.js';
import { statusLine } from './state.js';
import { parseStatus } from './status.js';
import { createWidgetStore } from './widget-store.js';

const three = [item('a', 'alpha.wav'), item('b', 'bravo.mp3'), item('c', 'charlie.ogg')];
const CHANNEL = 'status-channel-app-7-sid-1';

let api: ReturnType<typeof fakeApi>;
let socket: ReturnType<typeof fakeSubscribe>;
let reload: ReturnType<typeof vi.fn<() => void>>;
let leave: (() => void) | null;
/** The tab's marks for its next page: kept across the stores of one test, as across a reload. */
let marks: Set<string>;
let errors: ReturnType<typeof vi.spyOn>;

let titleSaves: Array<[string, string | null]>;
let choiceSaves: Array<[string, Record<string, unknown>, { keepalive?: boolean } | undefined]>;
let answerTitle: () => void;

function makeStore() {
  return createWidgetStore(
    { appid: 'app-7', sid: 'sid-1', port: '6123' },
    {
      api,
      titleApi: {
        saveChapterTitle: (id, title) => {
          titleSaves.push([id, title]);
          return new Promise<void>((resolve) => (answerTitle = resolve));
        },
      },
      choicesApi: {
        saveChoices: async (appid, choices, opts) => void choiceSaves.push([appid, choices, opts]),
      },
      subscribe: socket.subscribe,
      undoMs: 5000,
      successPauseMs: 800,
      env: {
        reload,
        scrollToTop: vi.fn(),
        newRequestId: () => 'req-1',
        setTimeout: (fn, ms) => setTimeout(fn, ms),
        clearTimeout: (h) => clearTimeout(h as ReturnType<typeof setTimeout>),
        onLeave(fn) {
          leave = fn;
          return () => (leave = null);
        },
        carryOver: {
          mark: (key) => void marks.add(key),
          take: (key) => marks.delete(key),
        },
      },
    },
  );
}

const flush = () => vi.advanceTimersByTimeAsync(0);
const emit = (payload: Record<string, unknown>) =>
  socket.subs.at(-1)!.handlers.onStatus(parseStatus(payload)!);
const ids = (store: ReturnType<typeof makeStore>) => store.getState().items.map((i) => i.id);

beforeEach(() => {
  vi.useFakeTimers();
  api = fakeApi(three);
  socket = fakeSubscribe();
  reload = vi.fn<() => void>();
  leave = null;
  marks = new Set();
  titleSaves = [];
  choiceSaves = [];
  errors = vi.spyOn(console, 'error').mockImplementation(() => {});
});
afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

async function started() {
  const store = makeStore();
  await store.actions.start();
  return store;
}

describe('the widget store: the list', () => {
  it('start loads the items in the order the server keeps', async () => {
    const store = await started();
    expect(api.fetchItems).toHaveBeenCalledWith('app-7');
    expect(ids(store)).toEqual(['a', 'b', 'c']);
    expect(store.getState()).toMatchObject({ phase: 'idle', load: 'loaded' });
  });

  it('a failed load logs Error and says the list could not be loaded', async () => {
    api.fetchItems.mockRejectedValue(
      new ApiError('/app/merge/getDataJson', 500, 'Something went wrong on the server', 'internal'),
    );
    const store = await started();
    expect(errors).toHaveBeenCalledWith('Error', expect.any(ApiError));
    expect(store.getState()).toMatchObject({
      load: 'failed',
      loadError: 'Something went wrong on the server',
    });
  });

  it('an expired session on load says the page has expired', async () => {
    api.fetchItems.mockRejectedValue(
      new ApiError('/app/merge/getDataJson', 403, 'No session: load the page first', 'noSession'),
    );
    const store = await started();
    expect(store.getState()).toMatchObject({ phase: 'expired', message: en.expired });
  });

  it('saves the order after each drop, the latest order last', async () => {
    let release!: () => void;
    api.saveOrder.mockImplementationOnce(() => new Promise<void>((r) => (release = r)));
    const store = await started();
    store.actions.reorder('c', 'a');
    store.actions.reorder('b', 'c');
    store.actions.reorder('a', 'a'); // a drop in place saves nothing
    expect(api.saveOrder).toHaveBeenCalledTimes(1);
    expect(api.saveOrder).toHaveBeenLastCalledWith('app-7', ['c', 'a', 'b']);
    release();
    await flush();
    // The second drop waited for the first save and sent the order as it stands now.
    expect(api.saveOrder).toHaveBeenCalledTimes(2);
    expect(api.saveOrder).toHaveBeenLastCalledWith('app-7', ['b', 'c', 'a']);
  });

  it('an order the server refused says so', async () => {
    api.saveOrder.mockRejectedValue(
      new ApiError('/app/merge/saveOrder', 403, 'An item does not belong to this session', 'foreignItem'),
    );
    const store = await started();
    store.actions.reorder('c', 'a');
    await flush();
    expect(store.getState().notice).toBe(en.orderNotSaved('An item does not belong to this session'));
    store.actions.dismissNotice();
    expect(store.getState().notice).toBeNull();
  });

  it('a removed row is deleted on the server only when its undo window has passed', async () => {
    const store = await started();
    store.actions.remove('b');
    expect(ids(store)).toEqual(['a', 'c']);
    await vi.advanceTimersByTimeAsync(4999);
    expect(api.deleteItem).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(api.deleteItem).toHaveBeenCalledTimes(1);
    expect(api.deleteItem).toHaveBeenCalledWith('b', { keepalive: false });
    expect(store.getState().removals).toEqual([]);
    expect(ids(store)).toEqual(['a', 'c']);
  });

  it('no undo window runs out while the person is on the undo lines; leaving them gives it whole again', async () => {
    const store = await started();
    store.actions.remove('b');
    await vi.advanceTimersByTimeAsync(4000);
    store.actions.holdRemovals(true);
    store.actions.remove('c');
    await vi.advanceTimersByTimeAsync(60_000);
    expect(api.deleteItem).not.toHaveBeenCalled();
    store.actions.holdRemovals(false);
    await vi.advanceTimersByTimeAsync(4999);
    expect(api.deleteItem).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(api.deleteItem.mock.calls.map((call) => call[0])).toEqual(['b', 'c']);
  });

  it('the hold ends with the last undo line, so the next removal has its window', async () => {
    const store = await started();
    store.actions.remove('b');
    store.actions.holdRemovals(true);
    store.actions.undo('b'); // the line goes from under the pointer: no leave comes
    store.actions.remove('c');
    await vi.advanceTimersByTimeAsync(5000);
    expect(api.deleteItem).toHaveBeenCalledWith('c', { keepalive: false });
  });

  it('undo brings the row back where it was and nothing is deleted', async () => {
    const store = await started();
    store.actions.remove('a');
    store.actions.reorder('c', 'b'); // saved without the removed row
    await flush();
    store.actions.undo('a');
    expect(ids(store)).toEqual(['a', 'c', 'b']);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(api.deleteItem).not.toHaveBeenCalled();
    expect(api.saveOrder).toHaveBeenLastCalledWith('app-7', ['a', 'c', 'b']);
  });

  it('a delete the server refused puts the row back and says why; one already gone is fine', async () => {
    api.deleteItem.mockRejectedValueOnce(
      new ApiError('/app/merge/deleteItem', 500, 'Something went wrong on the server', 'internal'),
    );
    api.deleteItem.mockRejectedValueOnce(new ApiError('/app/merge/deleteItem', 404, 'Not found', 'notFound'));
    const store = await started();
    store.actions.remove('a');
    store.actions.remove('c');
    await vi.advanceTimersByTimeAsync(5000);
    expect(ids(store)).toEqual(['a', 'b']);
    expect(store.getState().notice).toBe(en.removeFailed('alpha.wav', 'Something went wrong on the server'));
    expect(store.getState().removals).toEqual([]);
  });

  it('leaving the page sends waiting deletes at once, with keepalive', async () => {
    const store = await started();
    store.actions.remove('c');
    leave!();
    expect(api.deleteItem).toHaveBeenCalledWith('c', { keepalive: true });
    await vi.advanceTimersByTimeAsync(10_000);
    expect(api.deleteItem).toHaveBeenCalledTimes(1);
    expect(store.getState().items).toHaveLength(2);
  });
});

describe('the widget store: the merge', () => {
  it('make subscribes, then posts the list with its requestId, and follows only that merge', async () => {
    const store = await started();
    store.actions.reorder('c', 'a');
    const made = store.actions.make();
    expect(store.getState()).toMatchObject({ phase: 'merging', showSpinner: true, requestId: 'req-1' });
    expect(socket.subscribe).toHaveBeenCalledWith('6123', CHANNEL, expect.anything());
    await flush();
    expect(api.requestMerge).toHaveBeenCalledWith([three[2], three[0], three[1]], 'req-1');
    emit({ data: '30', requestId: 'req-1', state: 'running', percent: 30 });
    emit({ data: '95', requestId: 'another-tab', state: 'running', percent: 95 });
    emit({ data: '100', requestId: 'another-tab', state: 'succeeded', percent: 100 });
    expect(store.getState()).toMatchObject({ phase: 'merging', percent: 30 });
    void made;
  });

  it('make sends waiting deletes first, so the merge and the list agree', async () => {
    const store = await started();
    store.actions.remove('b');
    void store.actions.make();
    expect(api.deleteItem).toHaveBeenCalledWith('b', { keepalive: false });
    await flush();
    expect(api.requestMerge.mock.calls[0][0].map((i) => i.id)).toEqual(['a', 'c']);
  });

  it('make first sends a chapter title still being typed, and posts the merge once it is saved', async () => {
    const store = await started();
    store.actions.setChapterTitle('c', 'Epilogue');
    void store.actions.make();
    expect(titleSaves).toEqual([['c', 'Epilogue']]);
    await flush();
    expect(api.requestMerge).not.toHaveBeenCalled();
    answerTitle();
    await flush();
    expect(api.requestMerge).toHaveBeenCalledTimes(1);
  });

  it('make first sends the choices still waiting to be kept, once, the latest only', async () => {
    const store = await started();
    store.actions.keepChoices({ bitrate: 128 });
    store.actions.keepChoices({ bitrate: 192 });
    void store.actions.make({ bitrate: 192 });
    expect(choiceSaves).toEqual([['app-7', { bitrate: 192 }, { keepalive: false }]]);
    await flush();
    expect(api.requestMerge).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(choiceSaves).toHaveLength(1);
  });

  it('leaving the page sends the choices still waiting, with keepalive', async () => {
    const store = await started();
    store.actions.keepChoices({ trimSilence: true });
    leave!();
    expect(choiceSaves).toEqual([['app-7', { trimSilence: true }, { keepalive: true }]]);
  });

  it('the answer "success" shows 100% for a moment, then reloads', async () => {
    api.requestMerge.mockResolvedValue({ success: true, answer: 'success' });
    const store = await started();
    await store.actions.make();
    expect(store.getState()).toMatchObject({ phase: 'done', percent: 100 });
    expect(statusLine(store.getState())).toBe('100%');
    expect(reload).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(800);
    expect(reload).toHaveBeenCalledTimes(1);
  });

  it('any other answer logs Error and keeps the progress view', async () => {
    api.requestMerge.mockResolvedValue({ success: false, answer: 'queued' });
    const store = await started();
    await store.actions.make();
    expect(errors).toHaveBeenCalledWith('Error', 'queued');
    expect(store.getState().phase).toBe('merging');
    await vi.advanceTimersByTimeAsync(5000);
    expect(reload).not.toHaveBeenCalled();
  });

  it('a refused merge logs Error and shows why, with the way out (reload)', async () => {
    api.requestMerge.mockRejectedValue(
      new ApiError('/app/merge/mergemp3', 422, 'Could not merge: notes.txt is not audio', undefined),
    );
    const store = await started();
    await store.actions.make();
    expect(errors).toHaveBeenCalledWith('Error', expect.any(ApiError));
    expect(store.getState()).toMatchObject({
      phase: 'failed',
      showSpinner: true,
      message: 'Could not merge: notes.txt is not audio',
    });
    store.actions.reload();
    expect(reload).toHaveBeenCalledTimes(1);
  });

  it("a merge refused over one input, with its file, says so in the person's language", async () => {
    const de = await loadLocale('de');
    applyLocale('de', de);
    try {
      api.requestMerge.mockRejectedValue(
        new ApiError(
          '/app/merge/mergemp3',
          422,
          'Could not merge: notes.txt is not usable audio',
          'not-audio',
          'notes.txt',
        ),
      );
      const store = await started();
      await store.actions.make();
      expect(store.getState().message).toBe(
        'Zusammenfügen nicht möglich: \u2068notes.txt\u2069 enthält kein verwendbares Audio.',
      );
    } finally {
      applyLocale('en', en);
    }
  });

  it('a merge whose session expired says "This page has expired; reload to start again"', async () => {
    api.requestMerge.mockRejectedValue(
      new ApiError('/app/merge/mergemp3', 403, 'No session: load the page first', 'noSession'),
    );
    const store = await started();
    await store.actions.make();
    expect(statusLine(store.getState())).toBe('This page has expired; reload to start again');
    expect(store.getState().showSpinner).toBe(true);
  });

  it('a server that went away: waiting for it, then the failure it reports when back', async () => {
    api.requestMerge.mockRejectedValue(new TypeError('Failed to fetch'));
    const store = await started();
    await store.actions.make();
    expect(store.getState()).toMatchObject({ phase: 'merging', progress: en.connectionLost });
    // The socket is back and the server sends the merge's status on subscribe.
    emit({
      data: 'The server restarted while this merge was running; please press make again',
      requestId: 'req-1',
      state: 'failed',
      percent: 12,
    });
    expect(store.getState()).toMatchObject({
      phase: 'failed',
      message: 'The server restarted while this merge was running; please press make again',
    });
    expect(errors).toHaveBeenCalledWith(
      'Error',
      'The server restarted while this merge was running; please press make again',
    );
  });

  it('cancel asks the server to stop this merge, then shows the list again in place, saying so', async () => {
    let answer!: (e: unknown) => void;
    api.requestMerge.mockImplementation(() => new Promise((_r, reject) => (answer = reject)));
    const store = await started();
    const before = store.getState().items;
    const made = store.actions.make();
    await flush();
    await store.actions.cancel();
    expect(api.cancelMerge).toHaveBeenCalledWith('req-1');
    // No reload: it would flash the page's plain form before the widget is back.
    expect(reload).not.toHaveBeenCalled();
    expect(store.getState()).toMatchObject({
      phase: 'idle',
      showSpinner: false,
      cancelling: false,
      items: before,
      info: en.mergeCancelled,
    });
    // The merge call answers 409, then its last status comes: neither changes the list.
    answer(new ApiError('/app/merge/mergemp3', 409, 'The merge was cancelled', 'cancelled'));
    await made;
    emit({ data: 'The merge was cancelled', requestId: 'req-1', state: 'cancelled', code: 'cancelled' });
    expect(store.getState()).toMatchObject({ phase: 'idle', info: en.mergeCancelled });
    // That 409 is the answer a cancel expects: nothing is logged as an error.
    expect(errors).not.toHaveBeenCalled();
  });

  it('the word that the merge was cancelled stays until the next action, and a new merge can be made', async () => {
    const store = await started();
    void store.actions.make();
    await flush();
    await store.actions.cancel();
    expect(store.getState().info).toBe(en.mergeCancelled);
    store.actions.reorder('c', 'a');
    expect(store.getState().info).toBeNull();
    void store.actions.make();
    await flush();
    expect(store.getState().phase).toBe('merging');
  });

  it('a cancel that found no merge to stop leaves nothing to say', async () => {
    api.cancelMerge.mockRejectedValue(new ApiError('/app/merge/cancel', 404, 'No merge', 'noMerge'));
    const store = await started();
    void store.actions.make();
    await flush();
    await store.actions.cancel();
    expect(reload).toHaveBeenCalledTimes(1);
    expect((await started()).getState().info).toBeNull();
  });

  it('on load, a merge under way shows in the progress view and reloads when it succeeds', async () => {
    api.mergeStatus.mockResolvedValue({ state: 'running', requestId: 'earlier', percent: 41, text: '41' });
    const store = await started();
    expect(store.getState()).toMatchObject({
      phase: 'merging',
      showSpinner: true,
      requestId: 'earlier',
      percent: 41,
    });
    emit({ data: '60', requestId: 'earlier', state: 'running', percent: 60 });
    emit({ data: '100', requestId: 'earlier', state: 'succeeded', percent: 100 });
    expect(store.getState()).toMatchObject({ phase: 'done', percent: 100 });
    await vi.advanceTimersByTimeAsync(800);
    expect(reload).toHaveBeenCalledTimes(1);
  });

  it('after a reload, a merge that then failed on one input reads in German, naming the file', async () => {
    const de = await loadLocale('de');
    applyLocale('de', de);
    try {
      // The page was reloaded while the merge ran: GET status finds it and the widget follows it.
      api.mergeStatus.mockResolvedValue({
        state: 'running',
        requestId: 'earlier',
        percent: 30,
        text: 'Merging: 30%',
      });
      const store = await started();
      expect(store.getState()).toMatchObject({ phase: 'merging', requestId: 'earlier', percent: 30 });
      // It failed meanwhile: on subscribe the server sends the status its record keeps (the
      // server's English sentence, with the failure's code and file).
      emit({
        data: 'Could not merge: Aufnahme 2.wav is not usable audio',
        requestId: 'earlier',
        state: 'failed',
        percent: null,
        code: 'not-audio',
        file: 'Aufnahme 2.wav',
      });
      expect(store.getState()).toMatchObject({
        phase: 'failed',
        message: 'Zusammenfügen nicht möglich: \u2068Aufnahme 2.wav\u2069 enthält kein verwendbares Audio.',
      });
    } finally {
      applyLocale('en', en);
    }
  });

  it('on load, a merge that has ended leaves the list as it is', async () => {
    api.mergeStatus.mockResolvedValue({
      state: 'failed',
      requestId: 'earlier',
      percent: 40,
      text: 'It failed',
    });
    const store = await started();
    expect(store.getState()).toMatchObject({ phase: 'idle', showSpinner: false });
    expect(socket.subscribe).not.toHaveBeenCalled();
  });

  it('dispose stops following', async () => {
    const store = await started();
    void store.actions.make();
    store.actions.dispose();
    expect(socket.subs[0].closed).toBe(true);
  });
});
