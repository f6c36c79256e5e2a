// An upload's measuring decode (the one decode of a file other than an MP3) serves the client
// that sent it: when that client goes away while the file is decoded, its ffmpeg is ended and
// nothing of the upload stays (no stored file, no item, no scratch or tus file), over multipart
// and tus alike.
import { execFile } from 'node:child_process';
import { readdir, readFile } from 'node:fs/promises';
import http from 'node:http';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir, tools } from './support/audio-fixtures.js';
import { childrenNamed } from './support/processes.js';
import {
  listItems,
  multipartBody,
  openSession,
  startTestApp,
  type TestApp,
} from './support/server-harness.js';
import { tusClient } from './support/tus-requests.js';
import { until } from './support/until.js';

const exec = promisify(execFile);
let t: TestApp;
let base: string;
let media: { dir: string; cleanup: () => Promise<void> };
let flac: string;

beforeAll(async () => {
  media = await tempDir('client-gone-');
  // Ten minutes of 7.1 silence at 96 kHz: a small file whose decode lasts long enough to be cut.
  flac = path.join(media.dir, 'silence.flac');
  await exec(tools.ffmpeg, [
    ...['-hide_banner', '-v', 'error', '-y', '-f', 'lavfi', '-i', 'anullsrc=r=96000:cl=7.1:d=600'],
    ...['-c:a', 'flac', flac],
  ]);
  t = await startTestApp();
  base = await t.listenLocally();
});
afterAll(async () => {
  await t?.dispose();
  await media?.cleanup();
});

/** Every file under DATA_DIR but the database's. */
async function filesKept(): Promise<string[]> {
  const entries = await readdir(t.dataDir, { recursive: true, withFileTypes: true });
  return entries
    .filter((e) => e.isFile() && !/\.(db|sqlite)(-wal|-shm|-journal)?$/.test(e.name))
    .map((e) => path.relative(t.dataDir, path.join(e.parentPath, e.name)))
    .sort();
}

/** Send `req` its body, then drop the connection once the server's ffmpeg is decoding it. */
async function dropWhileDecoded(req: http.ClientRequest, body: Buffer): Promise<void> {
  req.on('error', () => {});
  req.end(body);
  await until(() => childrenNamed('ffmpeg').length > 0, { timeoutMs: 20_000, what: 'the measuring decode' });
  req.destroy();
}

/** Nothing of the upload is left: its ffmpeg ended, no item, no file beyond those there before. */
async function expectNothingLeft(sid: string, before: string[]): Promise<void> {
  await until(() => childrenNamed('ffmpeg').length === 0, { timeoutMs: 10_000, what: 'ffmpeg ending' });
  await until(async () => JSON.stringify(await filesKept()) === JSON.stringify(before), {
    timeoutMs: 10_000,
    what: 'the upload being cleared away',
  }).catch(async () => expect(await filesKept()).toEqual(before));
  expect(await listItems(t.app, { ...(await openSession(t.app)), sid })).toEqual([]);
}

describe('a client gone while its upload is measured', () => {
  it('multipart: the decode is ended and nothing is stored', async () => {
    const s = await openSession(t.app);
    const before = await filesKept();
    const { body, contentType } = multipartBody([
      { name: 'appid', value: s.appid },
      { name: 'files', filename: 'silence.flac', content: await readFile(flac) },
    ]);
    const req = http.request(new URL('/app/merge/upload', base), {
      method: 'POST',
      agent: false,
      headers: {
        cookie: s.cookie,
        'x-csrf-token': s.csrf,
        accept: 'application/json',
        'content-type': contentType,
        'content-length': String(body.length),
      },
    });
    await dropWhileDecoded(req, body);
    await expectNothingLeft(s.sid, before);
    expect(await listItems(t.app, s)).toEqual([]);
  });

  it('tus: the decode of the last PATCH is ended and nothing is stored', async () => {
    const s = await openSession(t.app);
    const before = await filesKept();
    const bytes = await readFile(flac);
    const created = await tusClient(base, s).create(bytes.length, {
      filename: 'silence.flac',
      appid: s.appid,
    });
    expect(created.status).toBe(201);
    const req = http.request(new URL(String(created.headers.location), base), {
      method: 'PATCH',
      agent: false,
      headers: {
        'tus-resumable': '1.0.0',
        cookie: s.cookie,
        'x-csrf-token': s.csrf,
        'upload-offset': '0',
        'content-type': 'application/offset+octet-stream',
        'content-length': String(bytes.length),
      },
    });
    await dropWhileDecoded(req, bytes);
    await expectNothingLeft(s.sid, before);
    expect(await listItems(t.app, s)).toEqual([]);
  });
});
