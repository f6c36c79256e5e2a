import { describe, expect, it } from 'vitest';
import type { AudioItem } from '../../shared/types.js';
import { en, type Locale } from '../i18n/en.js';
import { applyLocale, loadLocale } from '../i18n/locale.js';
import {
  initialState,
  parseItems,
  statusLine,
  widgetReducer,
  type WidgetAction,
  type WidgetState,
} from './state.js';
import { parseStatus } from './status.js';

const item = (id: string, filename = `${id}.mp3`): AudioItem => ({
  id,
  sid: 's1',
  newfilename: `n${id}`,
  format: 'mp3',
  filename,
});
const abc = [item('a'), item('b'), item('c')];
const ids = (s: WidgetState) => s.items.map((i) => i.id);
const run = (actions: WidgetAction[], from: WidgetState = initialState) =>
  actions.reduce(widgetReducer, from);
const loaded = run([{ type: 'loaded', items: abc }]);
const status = (payload: Record<string, unknown>): WidgetAction => ({
  type: 'status',
  status: parseStatus(payload)!,
});
const merging = run([{ type: 'makePressed', requestId: 'r1' }], loaded);

describe('widget state', () => {
  it('starts in the list view, idle, loading, with progress text "0"', () => {
    expect(initialState).toMatchObject({
      phase: 'idle',
      showSpinner: false,
      items: [],
      progress: '0',
      percent: 0,
      load: 'loading',
    });
  });

  it('loaded shows the items in the order the server gave', () => {
    expect(ids(loaded)).toEqual(['a', 'b', 'c']);
    expect(loaded.load).toBe('loaded');
  });

  it('a list loaded again keeps the titles and spans shown on the rows, which may not be saved yet', () => {
    const typed = run(
      [
        { type: 'chapterTitleChanged', id: 'a', chapterTitle: 'Prologue' },
        { type: 'spanChanged', id: 'b', start: 1, end: null },
      ],
      loaded,
    );
    const stale = [...abc, item('d')].map((i) => ({ ...i, start: null, end: null, chapterTitle: null }));
    const again = run([{ type: 'loaded', items: stale }], typed);
    expect(again.items.map((i) => [i.id, i.chapterTitle, i.start])).toEqual([
      ['a', 'Prologue', null],
      ['b', null, 1],
      ['c', null, null],
      ['d', null, null],
    ]);
  });

  it('a failed load says so instead of looking like an empty list', () => {
    const s = run([{ type: 'loadFailed', reason: 'The server is down' }]);
    expect(s).toMatchObject({ load: 'failed', loadError: 'The server is down', items: [] });
    // Once there is a list, a failed reload keeps it and says what went wrong.
    const t = run([{ type: 'loadFailed', reason: 'gone' }], loaded);
    expect(t).toMatchObject({ load: 'loaded', notice: en.loadFailed('gone') });
    expect(ids(t)).toEqual(['a', 'b', 'c']);
  });

  it('uploading is a state of the list view, and only of it', () => {
    expect(run([{ type: 'uploading', busy: true }], loaded).phase).toBe('uploading');
    expect(
      run(
        [
          { type: 'uploading', busy: true },
          { type: 'uploading', busy: false },
        ],
        loaded,
      ).phase,
    ).toBe('idle');
    expect(run([{ type: 'uploading', busy: true }], merging).phase).toBe('merging');
  });

  it('a removed row leaves the list at once and comes back where it was on undo', () => {
    const removed = run([{ type: 'removed', id: 'b' }], loaded);
    expect(ids(removed)).toEqual(['a', 'c']);
    expect(removed.removals).toEqual([{ item: abc[1], index: 1 }]);
    // A reload meanwhile (the server still has it) does not bring it back.
    expect(ids(run([{ type: 'loaded', items: abc }], removed))).toEqual(['a', 'c']);
    const undone = run([{ type: 'removalUndone', id: 'b' }], removed);
    expect(ids(undone)).toEqual(['a', 'b', 'c']);
    expect(undone.removals).toEqual([]);
    const done = run([{ type: 'removalDone', id: 'b' }], removed);
    expect(ids(done)).toEqual(['a', 'c']);
    expect(done.removals).toEqual([]);
  });

  it('a removal the server refused puts the row back and says why', () => {
    const s = run(
      [
        { type: 'removed', id: 'a' },
        { type: 'removalFailed', id: 'a', reason: 'The server is busy' },
      ],
      loaded,
    );
    expect(ids(s)).toEqual(['a', 'b', 'c']);
    expect(s.notice).toBe(en.removeFailed('a.mp3', 'The server is busy'));
  });

  it('make moves to the progress view with its requestId and freezes the order', () => {
    expect(merging).toMatchObject({
      phase: 'merging',
      showSpinner: true,
      requestId: 'r1',
      progress: '0',
      percent: 0,
    });
    expect(ids(run([{ type: 'reordered', activeId: 'c', overId: 'a' }], merging))).toEqual(['a', 'b', 'c']);
    expect(run([{ type: 'removed', id: 'a' }], merging).items).toHaveLength(3);
    // Nothing to merge: nothing happens.
    expect(run([{ type: 'makePressed', requestId: 'r' }])).toBe(initialState);
  });

  it("follows only its own merge's events, and the bar never moves backwards", () => {
    let s = run([status({ data: '35', requestId: 'r1', state: 'running', percent: 35 })], merging);
    expect(s).toMatchObject({ progress: '35', percent: 35 });
    s = run([status({ data: '80', requestId: 'other', state: 'running', percent: 80 })], s);
    expect(s.percent).toBe(35);
    s = run([status({ data: '20', requestId: 'r1', state: 'running', percent: 20 })], s);
    expect(s.percent).toBe(35);
    expect(statusLine(s)).toBe('35%');
    s = run([status({ data: 'Encoding bravo.mp3', requestId: 'r1', state: 'running', percent: null })], s);
    expect(s).toMatchObject({ progress: 'Encoding bravo.mp3', percent: 35 });
    expect(statusLine(s)).toBe('Encoding bravo.mp3');
  });

  it('never shows a lower percentage than before within one merge, whatever order the events come in', () => {
    // Late and repeated events, a reconnect's welcome with an older figure, a retry on another
    // worker that starts again from 0, messages between numbers, a lost connection: seeded, so
    // a failure replays.
    let seed = 11;
    const next = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2 ** 31), seed % n);
    for (let round = 0; round < 200; round++) {
      let s = merging;
      let shown = 0;
      for (let step = 0; step < 40; step++) {
        const p = next(101);
        const events: WidgetAction[] = [
          status({ data: String(p), requestId: 'r1', state: 'running', percent: p }),
          status({ data: String(p) }),
          status({
            data: 'Waiting: 1 merge ahead of yours',
            requestId: 'r1',
            state: 'queued',
            percent: null,
          }),
          status({ data: 'Measuring loudness', requestId: 'r1', state: 'running', percent: null }),
          { type: 'connectionLost' },
          {
            type: 'attached',
            status: {
              ...parseStatus({ data: String(p), requestId: 'r1', state: 'running', percent: p })!,
              requestId: 'r1',
            },
          },
        ];
        s = widgetReducer(s, events[next(events.length)]);
        const line = /^(\d+)%$/.exec(statusLine(s));
        expect(s.percent).toBeGreaterThanOrEqual(shown);
        if (line) expect(Number(line[1])).toBe(s.percent);
        shown = s.percent;
      }
    }
  });

  it('a server that sends only data still moves the bar (each event replaces the text)', () => {
    const s = run([status({ data: '42' }), status({ data: 'Joining' })], merging);
    expect(s).toMatchObject({ progress: 'Joining', percent: 42 });
  });

  it('succeeded is done at 100%; failed and cancelled end with their message', () => {
    expect(
      run([status({ data: '100', requestId: 'r1', state: 'succeeded', percent: 100 })], merging),
    ).toMatchObject({ phase: 'done', percent: 100 });
    const failed = run(
      [
        status({
          data: 'The server restarted while this merge was running',
          requestId: 'r1',
          state: 'failed',
          percent: 40,
        }),
      ],
      merging,
    );
    expect(failed).toMatchObject({
      phase: 'failed',
      message: 'The server restarted while this merge was running',
      showSpinner: true,
    });
    expect(statusLine(failed)).toBe('The server restarted while this merge was running');
    // Events after the end change nothing.
    expect(run([status({ data: '90', requestId: 'r1', state: 'running', percent: 90 })], failed)).toBe(
      failed,
    );
    const cancelled = run(
      [status({ data: '40', requestId: 'r1', state: 'cancelled', percent: 40 })],
      merging,
    );
    expect(cancelled).toMatchObject({ phase: 'failed', message: en.mergeCancelled });
  });

  it('a merge found running on load shows in the progress view, following its requestId', () => {
    const found = parseStatus({ data: '37', requestId: 'r9', state: 'running', percent: 37 })!;
    const s = run([{ type: 'attached', status: { ...found, requestId: 'r9' } }], loaded);
    expect(s).toMatchObject({ phase: 'merging', showSpinner: true, requestId: 'r9', percent: 37 });
  });

  it('an expired session says so; the list gives way to it', () => {
    const s = run([{ type: 'expired' }], loaded);
    expect(s).toMatchObject({ phase: 'expired', message: en.expired, showSpinner: false });
    expect(statusLine(run([{ type: 'expired' }], merging))).toBe(en.expired);
  });

  it('a lost connection says so while the merge is followed', () => {
    expect(run([{ type: 'connectionLost' }], merging).progress).toBe(en.connectionLost);
    expect(run([{ type: 'connectionLost' }], loaded)).toBe(loaded);
  });

  it('parses the item list from the JSON text, also when it is a JSON string', () => {
    const text = JSON.stringify(abc);
    expect(parseItems(text)).toEqual(abc);
    expect(parseItems(JSON.stringify(text))).toEqual(abc);
    expect(() => parseItems('{"error":"x"}')).toThrow(/list/);
    expect(
      parseItems('[{"id":7,"sid":"s","newfilename":"n","format":"wav","filename":"f.wav"},{"x":1}]'),
    ).toEqual([{ id: '7', sid: 's', newfilename: 'n', format: 'wav', filename: 'f.wav' }]);
  });
});

describe("the server's statuses in the person's language", () => {
  const inGerman = async (check: (de: Locale) => void) => {
    const de = await loadLocale('de');
    applyLocale('de', de);
    try {
      check(de);
    } finally {
      applyLocale('en', en);
    }
  };
  const waiting = (extra: Record<string, unknown>) =>
    status({
      data: 'Waiting: 2 merges ahead of yours',
      requestId: 'r1',
      state: 'queued',
      percent: null,
      ...extra,
    });

  it('a waiting merge by its code and place in line', async () => {
    await inGerman((de) => {
      expect(run([waiting({ code: 'queued', ahead: 2 })], merging).progress).toBe(de.waitingAhead(2));
      expect(run([waiting({ code: 'queued' })], merging).progress).toBe(de.waitingToStart);
      // Without a code, the words are the server's.
      expect(run([waiting({})], merging).progress).toBe('Waiting: 2 merges ahead of yours');
    });
    expect(run([waiting({ code: 'queued', ahead: 1 })], merging).progress).toBe(
      'Waiting: 1 merge ahead of yours',
    );
    // English keeps the server's sentence when the place in line did not come as a number.
    expect(run([waiting({ code: 'queued' })], merging).progress).toBe('Waiting: 2 merges ahead of yours');
  });

  it('a failure by its code; one naming a file, or an unknown code, keeps the server sentence', async () => {
    const failed = (data: string, code: string) =>
      status({ data, requestId: 'r1', state: 'failed', percent: null, code });
    await inGerman((de) => {
      expect(run([failed('The server restarted…', 'interrupted')], merging).message).toBe(
        de.serverMessages.interrupted,
      );
      expect(run([failed('Could not merge: a.txt is not audio', 'not-audio')], merging).message).toBe(
        'Could not merge: a.txt is not audio',
      );
      expect(run([failed('Something new', 'brandNew')], merging).message).toBe('Something new');
      expect(
        run(
          [
            status({
              data: 'The merge was cancelled',
              requestId: 'r1',
              state: 'cancelled',
              code: 'cancelled',
            }),
          ],
          merging,
        ).message,
      ).toBe(de.serverMessages.cancelled);
    });
  });

  it('a failure about one input, with its file, in each language naming that file set apart', async () => {
    const sentence = 'Could not merge: notes.txt is not usable audio';
    const failedOn = (file?: string) =>
      status({ data: sentence, requestId: 'r1', state: 'failed', percent: null, code: 'not-audio', file });
    const isolated = '\u2068notes.txt\u2069';
    await inGerman(() => {
      expect(run([failedOn('notes.txt')], merging).message).toBe(
        `Zusammenfügen nicht möglich: ${isolated} enthält kein verwendbares Audio.`,
      );
      // Without the file the widget cannot say which one: the server's sentence stays.
      expect(run([failedOn()], merging).message).toBe(sentence);
    });
    const ar = await loadLocale('ar');
    applyLocale('ar', ar);
    try {
      expect(run([failedOn('notes.txt')], merging).message).toBe(
        `تعذّر الدمج: الملف ${isolated} لا يحتوي على صوت صالح للاستخدام.`,
      );
      // A name's own direction controls stay inside it and cannot turn the sentence around.
      expect(run([failedOn('\u202eevil.mp3')], merging).message).toContain('\u2068evil.mp3\u2069');
    } finally {
      applyLocale('en', en);
    }
    expect(run([failedOn('notes.txt')], merging).message).toBe(sentence);
  });
});
