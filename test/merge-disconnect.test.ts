// A browser that goes away (tab closed, network dropped) while its merge runs does not stop it:
// the job finishes and its result is there on the next visit. Needs a real HTTP port.
import { request } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { statusChannel } from '../src/shared/types.js';
import { makeTone, tempDir } from './support/audio-fixtures.js';
import { listenStatus } from './support/echo-client.js';
import { listItems, openSession, startTestApp, upload, type TestApp } from './support/server-harness.js';

let app: TestApp;
let media: { dir: string; cleanup: () => Promise<void> };

beforeAll(async () => {
  media = await tempDir('merge-disconnect-');
  app = await startTestApp({ realtime: true, socketPort: 0, mergeConcurrency: 1 });
  await app.app.listen({ host: '127.0.0.1', port: 0 });
});
afterAll(async () => {
  await app?.dispose();
  await media?.cleanup();
});

it('a client that disconnects from HTTP does not stop its job', async () => {
  const s = await openSession(app.app);
  const long = await makeTone(path.join(media.dir, 'long.wav'), { seconds: 60 });
  expect((await upload(app.app, s, [{ path: long }])).statusCode).toBe(200);
  const [item] = await listItems(app.app, s);
  const status = listenStatus(app.realtime.port, s.cookie, statusChannel(s.appid, s.sid));
  await status.ready;

  const body = JSON.stringify({ items: [{ id: item.id }] });
  const req = request({
    host: '127.0.0.1',
    port: (app.app.server.address() as AddressInfo).port,
    method: 'POST',
    path: '/app/merge/mergemp3',
    headers: {
      'content-type': 'application/json',
      'content-length': Buffer.byteLength(body),
      cookie: s.cookie,
      'x-csrf-token': s.csrf,
    },
  });
  const gone = new Promise<void>((resolve) => req.on('error', () => resolve()).on('close', () => resolve()));
  req.end(body);
  await status.waitFor(() => true); // the job has started
  req.destroy();
  await gone;

  await status.waitFor((d) => d === '100');
  status.close();
  const [job] = (await app.store.jobsWithStatus('succeeded')).filter((j) => j.sid === s.sid);
  expect(job).toBeDefined();
  const [result] = await app.store.listResults(s.sid);
  expect(result.id).toBe(job.resultId);
  expect(result.duration).toBeGreaterThan(59);
  const page = await app.app.inject({ method: 'GET', url: '/', headers: { cookie: s.cookie } });
  expect(page.body).toContain(`/results/${s.sid}/${result.id}.mp3`);
});
