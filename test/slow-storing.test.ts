// The idle timeout cuts clients that go silent, not clients waiting for the server: an upload
// whose files take longer to probe and store than the idle timeout (a long file's decoded length
// is measured) is answered, over multipart and tus alike, and a client silent mid-body is still
// cut once the server's own work is done. The timeout is made short here and probing is held back by a wrapper around
// the real probe.
import http from 'node:http';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { probeFile } from '../src/engine/index.js';
import { makeTone, tempDir } from './support/audio-fixtures.js';
import {
  listItems,
  multipartBody,
  openSession,
  startTestApp,
  type TestApp,
  type TestSession,
} from './support/server-harness.js';
import { tusClient } from './support/tus-requests.js';

const IDLE_MS = 300;

let app: TestApp;
let media: { dir: string; cleanup: () => Promise<void> };
let base: string;
let tone: string;

beforeAll(async () => {
  media = await tempDir('slow-storing-');
  tone = await makeTone(path.join(media.dir, 'tone.wav'), { seconds: 1 });
  app = await startTestApp(
    { idleTimeoutMs: IDLE_MS },
    {
      probe: async (...args: Parameters<typeof probeFile>) => {
        await delay(4 * IDLE_MS);
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

/** POST the multipart `body` over a fresh connection; `upTo` bytes only, then silence, when given. */
function post(s: TestSession, body: Buffer, contentType: string, upTo = body.length) {
  return new Promise<{ status: number; text: string }>((resolve) => {
    const req = http.request(new URL('/app/merge/upload', base), {
      method: 'POST',
      agent: false,
      headers: {
        'content-type': contentType,
        'content-length': body.length,
        cookie: s.cookie,
        'x-csrf-token': s.csrf,
        accept: 'application/json',
      },
    });
    req.on('response', (res) => {
      let text = '';
      res.on('data', (d: Buffer) => (text += d.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
    });
    req.on('error', (err) => resolve({ status: 0, text: String(err) }));
    if (upTo < body.length) req.write(body.subarray(0, upTo));
    else req.end(body);
  });
}

async function twoFiles(s: TestSession) {
  const content = await readFile(tone);
  return multipartBody([
    { name: 'appid', value: s.appid },
    { name: 'files', filename: 'one.wav', content },
    { name: 'files', filename: 'two.wav', content },
  ]);
}

it('answers a multipart upload of two files probed for longer than the idle timeout', async () => {
  const s = await openSession(app.app);
  const { body, contentType } = await twoFiles(s);
  const answer = await post(s, body, contentType);
  expect(answer.status, answer.text).toBe(200);
  expect((await listItems(app.app, s)).map((i) => i.filename)).toEqual(['one.wav', 'two.wav']);
});

it('still cuts a client that goes silent mid-body once the server has probed what came', async () => {
  const s = await openSession(app.app);
  const { body, contentType } = await twoFiles(s);
  // The first file whole and a little of the second, then nothing: cut, nothing stored.
  const cut = await post(s, body, contentType, Math.floor(body.length * 0.6));
  expect(cut.status).not.toBe(200);
  expect(await listItems(app.app, s)).toEqual([]);
});

it('answers the tus PATCH that brings the last byte, probed for longer than the idle timeout', async () => {
  const s = await openSession(app.app);
  const size = (await readFile(tone)).length;
  const tus = tusClient(base, s);
  const created = await tus.create(size, { filename: 'tone.wav', appid: s.appid });
  expect(created.status).toBe(201);
  const sent = await tus.patch(created.headers.location as string, tone, 0, size);
  expect(sent.status, sent.body).toBe(200);
  expect(JSON.parse(sent.body).items[0]).toMatchObject({ filename: 'tone.wav', format: 'wav' });
});
