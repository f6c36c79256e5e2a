// @vitest-environment jsdom
import { io } from 'socket.io-client';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { subscribeStatus, socketUrl } from './realtime.js';
import { fakeIo, sockets } from '../../../test/support/widget-fakes.js';

vi.mock('socket.io-client', () => ({ io: vi.fn(() => fakeIo()) }));

beforeEach(() => {
  sockets.length = 0;
  vi.mocked(io).mockClear();
});

describe('the status subscription', () => {
  it("connects to the page's own host on the given port", () => {
    expect(socketUrl('6001', { protocol: 'https:', hostname: 'podcasts.example' })).toBe(
      'https://podcasts.example:6001',
    );
    subscribeStatus('6001', 'status-channel-a-s', { onStatus: () => {} });
    expect(vi.mocked(io).mock.calls[0][0]).toBe(
      `${window.location.protocol}//${window.location.hostname}:6001`,
    );
  });

  it('subscribes on connect and again after a reconnect, as Echo does', async () => {
    const sub = subscribeStatus('6001', 'status-channel-a-s', { onStatus: () => {} });
    await sub.ready;
    const s = sockets[0];
    s.connected = false;
    s.serverConnect();
    const subscribes = s.emitted.filter(([e]) => e === 'subscribe');
    expect(subscribes).toEqual([
      ['subscribe', { channel: 'status-channel-a-s', auth: { headers: {} } }],
      ['subscribe', { channel: 'status-channel-a-s', auth: { headers: {} } }],
    ]);
  });

  it("passes on only this channel's NewStatus payloads, with requestId, state and percent", async () => {
    const seen: unknown[] = [];
    const sub = subscribeStatus('6001', 'status-channel-a-s', { onStatus: (st) => seen.push(st) });
    await sub.ready;
    const s = sockets[0];
    s.serverEmit('NewStatus', 'status-channel-a-s', {
      data: '12',
      requestId: 'r1',
      state: 'running',
      percent: 12,
    });
    s.serverEmit('NewStatus', 'status-channel-b-s', { data: '99' });
    s.serverEmit('NewStatus', 'status-channel-a-s', { data: 40 });
    s.serverEmit('NewStatus', 'status-channel-a-s', {});
    s.serverEmit('OtherEvent', 'status-channel-a-s', { data: '77' });
    expect(seen).toEqual([
      { data: '12', requestId: 'r1', state: 'running', percent: 12 },
      { data: '40', percent: 40 },
    ]);
  });

  it('says when the server is lost, but not when it is closed on purpose', async () => {
    const lost = vi.fn();
    const sub = subscribeStatus('6001', 'status-channel-a-s', { onStatus: () => {}, onDisconnect: lost });
    await sub.ready;
    sockets[0].serverEmit('disconnect', 'transport close');
    expect(lost).toHaveBeenCalledTimes(1);
    sockets[0].serverEmit('disconnect', 'io client disconnect');
    expect(lost).toHaveBeenCalledTimes(1);
  });

  it('close unsubscribes and disconnects', async () => {
    const sub = subscribeStatus('6001', 'status-channel-a-s', { onStatus: () => {} });
    await sub.ready;
    sub.close();
    expect(sockets[0].emitted.at(-1)).toEqual(['unsubscribe', { channel: 'status-channel-a-s' }]);
    expect(sockets[0].disconnected).toBe(true);
  });
});
