// Test doubles for the widget tests: a socket.io client that records what it was asked and lets
// the test play the server, and a fetch that answers per path.
import { vi } from 'vitest';
import type { AudioItem } from '../../src/shared/types.js';

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

/** A fetch whose answers are chosen per path; every call is recorded with its parsed body. */
export function fakeFetch(answers: Record<string, () => Response | Promise<Response>>) {
  const calls: FetchCall[] = [];
  const fn = vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = String(input);
    calls.push({ url, init, body: typeof init.body === 'string' ? JSON.parse(init.body) : init.body });
    const answer = answers[url];
    if (!answer) return new Response('{"error":"not found"}', { status: 404 });
    return answer();
  });
  return { fn, calls };
}

export const json = (value: unknown, status = 200) =>
  new Response(JSON.stringify(value), { status, headers: { 'content-type': 'application/json' } });
