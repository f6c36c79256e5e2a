// Realtime across processes on a real Redis: two socket.io servers sharing rooms through the
// adapter, a worker publishing with the emitter, and stock Laravel Echo clients listening.
import pino from 'pino';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { listenStatus, type StatusListener } from '../../../../test/support/echo-client.js';
import { emitterBroadcaster, redisAdapter } from './redis-fanout.js';
import { createRealtime, type Realtime } from '../server.js';

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

const SESSIONS: Record<string, string> = { 'am_session=secret-a': 'sidA', 'am_session=secret-b': 'sidB' };
const channelOf = (sid: string) => `status-channel-app-${sid}`;

async function webProcess(): Promise<Realtime> {
  const handle = await redisAdapter(inject('redisUrl'));
  const rt = await createRealtime({
    host: '127.0.0.1',
    port: 0,
    allowOrigin: () => true,
    sidForCookieHeader: (cookie) => SESSIONS[cookie ?? ''] ?? null,
    log: pino({ level: 'silent' }),
    adapter: handle.adapter,
  });
  cleanups.push(
    () => handle.close(),
    () => rt.close(),
  );
  return rt;
}

function listen(rt: Realtime, cookie: string, sid: string): StatusListener {
  const l = listenStatus(rt.port, cookie, channelOf(sid));
  cleanups.push(() => l.close());
  return l;
}

describe('realtime through Redis', () => {
  it("a worker's events reach a stock Echo client on any web process, in order, once each", async () => {
    const [a, b] = [await webProcess(), await webProcess()];
    const onA = listen(a, 'am_session=secret-a', 'sidA');
    const alsoOnB = listen(b, 'am_session=secret-a', 'sidA');
    const otherSession = listen(b, 'am_session=secret-b', 'sidB');
    await Promise.all([onA.ready, alsoOnB.ready, otherSession.ready]);

    const worker = emitterBroadcaster(inject('redisUrl'));
    cleanups.push(() => worker.close());
    const sent = Array.from({ length: 101 }, (_, i) => String(i));
    for (const data of sent)
      worker.broadcast(channelOf('sidA'), 'NewStatus', { data, state: 'running', percent: Number(data) });
    await Promise.all([onA.waitFor((d) => d === '100'), alsoOnB.waitFor((d) => d === '100')]);
    // Anything duplicated or misrouted would have arrived by now, behind the last one.
    await new Promise((r) => setTimeout(r, 200));

    expect(onA.data).toEqual(sent);
    expect(alsoOnB.data).toEqual(sent);
    expect(otherSession.data).toEqual([]);
  });

  it("refuses a browser's subscription to another session's channel on any web process", async () => {
    const [, b] = [await webProcess(), await webProcess()];
    const intruder = listen(b, 'am_session=secret-b', 'sidA');
    await intruder.ready;
    expect(intruder.errors).toEqual([[channelOf('sidA'), 403]]);
    const worker = emitterBroadcaster(inject('redisUrl'));
    cleanups.push(() => worker.close());
    worker.broadcast(channelOf('sidA'), 'NewStatus', { data: '50' });
    await new Promise((r) => setTimeout(r, 300));
    expect(intruder.data).toEqual([]);
  });
});
