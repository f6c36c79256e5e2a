// mergemp3 answers when its merge ends, however long that takes: neither the idle timeout nor the
// request timeout that cut slow clients cut a merge that runs, or waits behind another, longer
// than they last. The timeouts are made short here (the default idle timeout is 60 s); the slow
// part is the merge itself, held back by a wrapper around the real engine.
import { request } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { mergeFiles } from '../src/engine/index.js';
import { makeTone, tempDir } from './support/audio-fixtures.js';
import { listItems, openSession, startTestApp, upload, type TestApp } from './support/server-harness.js';

const IDLE_MS = 300;
const HOLD_MS = 4 * IDLE_MS;

let app: TestApp;
let media: { dir: string; cleanup: () => Promise<void> };

beforeAll(async () => {
  media = await tempDir('merge-long-wait-');
  app = await startTestApp(
    { idleTimeoutMs: IDLE_MS, requestTimeoutMs: 2 * IDLE_MS, headersTimeoutMs: IDLE_MS, mergeConcurrency: 1 },
    {
      merge: async (inputs, output, opts) => {
        await delay(HOLD_MS);
        return mergeFiles(inputs, output, opts);
      },
    },
  );
  await app.app.listen({ host: '127.0.0.1', port: 0 });
});
afterAll(async () => {
  await app?.dispose();
  await media?.cleanup();
});

/** POST over a real socket, as a browser would, and wait for the answer however long it takes. */
function post(
  cookie: string,
  csrf: string,
  url: string,
  payload: unknown,
): Promise<{ status: number; body: string }> {
  const body = JSON.stringify(payload);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port: (app.app.server.address() as AddressInfo).port,
        method: 'POST',
        path: url,
        headers: {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
          cookie,
          'x-csrf-token': csrf,
        },
      },
      (res) => {
        let text = '';
        res.on('data', (d: Buffer) => (text += d.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

it('answers "success" to a merge that runs, and one that waits, longer than every timeout', async () => {
  const s = await openSession(app.app);
  const tone = await makeTone(path.join(media.dir, 'a.mp3'), { seconds: 1 });
  expect((await upload(app.app, s, [{ path: tone }])).statusCode).toBe(200);
  const [item] = await listItems(app.app, s);

  const merge = () => post(s.cookie, s.csrf, '/app/merge/mergemp3', { items: [{ id: item.id }] });
  // The second waits behind the first: about 2 x HOLD_MS, eight idle timeouts, before its answer.
  const [first, second] = await Promise.all([merge(), merge()]);
  expect(first).toEqual({ status: 200, body: '"success"' });
  expect(second).toEqual({ status: 200, body: '"success"' });
  expect(await app.store.listResults(s.sid)).toHaveLength(2);
});
