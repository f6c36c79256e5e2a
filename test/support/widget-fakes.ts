// Test doubles for the widget tests: a socket.io client that records what it was asked and lets
// the test play the server, and a fetch that answers per path.
import { vi } from 'vitest';
import type { AudioItem, MergeStatusAnswer } from '../../src/shared/types.js';
import type { StatusHandlers } from '../../src/widget/api/realtime.js';

export class FakeSocket {
  handlers = new Map<string, Array<(...args: unknown[]) => void>>();
  emitted: Array<[string, ...unknown[]]> = [];
  connected = false;
  disconnected = false;

  on(event: string, cb: (...args: unknown[]) => void) {
    this.handlers.set(event, [...(this.handlers.get(event) ?? []), cb]);
    // Connect on the next tick, as a real client would after its handshake.
    if (event === 'connect') queueMicrotask(() => this.serverConnect());
    return this;
  }
  emit(event: string, ...args: unknown[]) {
    this.emitted.push([event, ...args]);
    return this;
  }
  disconnect() {
    this.disconnected = true;
    this.connected = false;
    return this;
  }
  serverConnect() {
    if (this.connected) return;
    this.connected = true;
    for (const cb of this.handlers.get('connect') ?? []) cb();
  }
  /** The server emitting `event` to this client. */
  serverEmit(event: string, ...args: unknown[]) {
    for (const cb of this.handlers.get(event) ?? []) cb(...args);
  }
}

/** Every socket the mocked socket.io-client's io() made in this test file, oldest first. */
export const sockets: FakeSocket[] = [];

/** io() for vi.mock('socket.io-client'): a FakeSocket, kept in `sockets`. */
export function fakeIo(): FakeSocket {
  const s = new FakeSocket();
  sockets.push(s);
  return s;
}

export const item = (id: string, filename: string, extra: Partial<AudioItem> = {}): AudioItem => ({
  id,
  sid: 'sid-1',
  newfilename: `stored-${id}`,
  format: 'mp3',
  filename,
  ...extra,
});

export interface FetchCall {
  url: string;
  init: RequestInit;
  body: unknown;
}

/** Asked by every mount; a test that does not care about it gets "no merge" rather than a 404. */
const QUIET_DEFAULTS: Record<string, () => Response> = {
  '/app/merge/status': () => json({ state: 'none' }),
};

/** A fetch whose answers are chosen per path; every call is recorded with its parsed body. */
export function fakeFetch(answers: Record<string, () => Response | Promise<Response>>) {
  const calls: FetchCall[] = [];
  const fn = vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = String(input);
    calls.push({ url, init, body: typeof init.body === 'string' ? JSON.parse(init.body) : init.body });
    const answer = answers[url] ?? QUIET_DEFAULTS[url];
    if (!answer) return new Response('{"error":"not found"}', { status: 404 });
    return answer();
  });
  return { fn, calls };
}

export const json = (value: unknown, status = 200) =>
  new Response(JSON.stringify(value), { status, headers: { 'content-type': 'application/json' } });

/** The widget store's HTTP calls, each a vi.fn the test answers; records nothing it does not have to. */
export function fakeApi(items: AudioItem[] = []) {
  return {
    fetchItems: vi.fn(async (_appid: string) => items),
    requestMerge: vi.fn(
      (_items: AudioItem[], _requestId: string) =>
        new Promise<{ success: boolean; answer: unknown }>(() => {}),
    ),
    deleteItem: vi.fn(async (_id: string, _opts?: { keepalive?: boolean }) => {}),
    saveOrder: vi.fn(async (_appid: string, _ids: string[]) => {}),
    mergeStatus: vi.fn(async (): Promise<MergeStatusAnswer> => ({ state: 'none' })),
    cancelMerge: vi.fn(async (_requestId: string | null) => {}),
  };
}

/** Status subscriptions the test plays the server for, through each one's handlers. */
export function fakeSubscribe() {
  const subs: Array<{ channel: string; handlers: StatusHandlers; closed: boolean }> = [];
  const subscribe = vi.fn((_port: string, channel: string, handlers: StatusHandlers) => {
    const sub = { channel, handlers, closed: false };
    subs.push(sub);
    return { ready: Promise.resolve(), close: () => void (sub.closed = true) };
  });
  return { subscribe, subs };
}

/**
 * jsdom has no layout: give each `.audio-merge-row` the box it would have, 320x120 stacked 130 px
 * apart from the top, the list the box around them, and everything else a 320x400 box at the origin.
 */
export function stackRows() {
  return vi.spyOn(Element.prototype, 'getBoundingClientRect').mockImplementation(function (this: Element) {
    const rows = Array.from(document.querySelectorAll('.audio-merge-row'));
    const i = rows.indexOf(this);
    const top = i < 0 ? 0 : i * 130;
    const height = i >= 0 ? 120 : this.classList.contains('audio-merge-list') ? rows.length * 130 - 10 : 400;
    return {
      x: 0,
      y: top,
      top,
      left: 0,
      width: 320,
      height,
      right: 320,
      bottom: top + height,
      toJSON: () => ({}),
    } as DOMRect;
  });
}
