// A resumable upload's PATCH that brings under 1 KB in a window (60 s by default; short here) is
// cut, however often a byte comes; the bytes that came are kept, and the upload resumes from them.
// A PATCH whose last byte is in is not slow: it is answered however long storing the file takes.
import http from 'node:http';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { probeFile } from '../src/engine/index.js';
import { makeTone, tempDir } from './support/audio-fixtures.js';
import { listItems, openSession, startTestApp, type TestApp } from './support/server-harness.js';
import { TUS_URL, tusClient } from './support/tus-requests.js';

let app: TestApp;
let media: { dir: string; cleanup: () => Promise<void> };
let base: string;
const WINDOW_MS = 400;
let slowProbe = false;

beforeAll(async () => {
  media = await tempDir('tus-slow-');
  app = await startTestApp(
    { slowUploadWindowMs: WINDOW_MS },
    {
      // Storing a finished upload (probing, measuring) takes longer than the window here.
      probe: async (...args: Parameters<typeof probeFile>) => {
        if (slowProbe) await delay(4 * WINDOW_MS);
        return probeFile(...args);
      },
    },
  );
  base = await app.listenLocally();
});
afterAll(async () => {
  await app?.dispose();
  await media?.cleanup();
});

/** PATCH from 0: `head` bytes at once, then one byte every 50 ms until the server closes. */
function trickle(location: string, cookie: string, csrf: string, bytes: Buffer, head: number) {
  return new Promise<{ status: number; sent: number }>((resolve) => {
    let sent = 0;
    const req = http.request(new URL(location, base), {
      method: 'PATCH',
      agent: false,
      headers: {
        'tus-resumable': '1.0.0',
        cookie,
        'x-csrf-token': csrf,
        'upload-offset': '0',
        'content-type': 'application/offset+octet-stream',
        'content-length': String(bytes.length),
      },
    });
    const done = (status: number) => {
      clearInterval(timer);
      resolve({ status, sent });
    };
    req.on('response', (res) => {
      res.resume();
      done(res.statusCode ?? 0);
    });
    req.on('error', () => done(0));
    req.write(bytes.subarray(0, head));
    sent = head;
    const timer = setInterval(() => {
      if (sent < bytes.length) req.write(bytes.subarray(sent, ++sent));
    }, 50);
  });
}

it('cuts a PATCH that trickles, keeps what came, and resumes from there', async () => {
  const s = await openSession(app.app);
  const file = await makeTone(path.join(media.dir, 'tone.wav'), { seconds: 1 });
  const bytes = await readFile(file);
  const tus = tusClient(base, s);
  const created = await tus.create(bytes.length, { filename: 'tone.wav', appid: s.appid });
  expect(created.status).toBe(201);
  const location = created.headers.location as string;
  expect(location.startsWith(TUS_URL)).toBe(true);

  const slow = await trickle(location, s.cookie, s.csrf, bytes, 8192);
  // Cut by the server long before the last byte (at one per 50 ms, the rest would take hours).
  expect(slow.status).toBe(0);
  expect(slow.sent).toBeLessThan(bytes.length);
  const offset = Number((await tus.head(location)).headers['upload-offset']);
  expect(offset).toBeGreaterThanOrEqual(8192);
  expect(offset).toBeLessThanOrEqual(slow.sent);

  const rest = await tus.patch(location, file, offset, bytes.length);
  expect(rest.status, rest.body).toBe(200);
  const [item] = await listItems(app.app, s);
  const stored = await app.app.inject({
    method: 'GET',
    url: `/upload/${s.sid}/${item.newfilename}.${item.format}`,
    headers: { cookie: s.cookie },
  });
  expect(stored.rawPayload.equals(bytes)).toBe(true);
});

it('answers a PATCH whose last byte is in, however long storing the file takes', async () => {
  const s = await openSession(app.app);
  const file = await makeTone(path.join(media.dir, 'whole.wav'), { seconds: 1 });
  const size = (await readFile(file)).length;
  const tus = tusClient(base, s);
  const created = await tus.create(size, { filename: 'whole.wav', appid: s.appid });
  expect(created.status).toBe(201);
  slowProbe = true;
  try {
    const sent = await tus.patch(created.headers.location as string, file, 0, size);
    expect(sent.status, sent.body).toBe(200);
    expect(JSON.parse(sent.body).items[0]).toMatchObject({ filename: 'whole.wav', format: 'wav' });
  } finally {
    slowProbe = false;
  }
  expect((await listItems(app.app, s)).map((i) => i.filename)).toEqual(['whole.wav']);
});
