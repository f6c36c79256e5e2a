// What unfinished resumable uploads may hold of the disk: a declared length is held only while
// bytes come (it lapses after UPLOAD_HOLD_IDLE_MS without one, and is taken again on resume, or
// refused then with 507 and the bytes kept), and one session's unfinished uploads may declare at
// most SESSION_UPLOADING_FILES x MAX_FILE_MB together. The disk's free space and the clock are
// the test's, so no byte of hundreds of megabytes is written and no minute is waited for.
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Clock } from '../src/shared/clock.js';
import { UPLOAD_HOLD_IDLE_MS } from '../src/server/files/tus-uploads.js';
import { SESSION_UPLOADING_FILES } from '../src/server/http/routes/tus.js';
import { makeTone, tempDir } from './support/audio-fixtures.js';
import { listItems, openSession, startTestApp, type TestApp } from './support/server-harness.js';
import { tusClient } from './support/tus-requests.js';

const MB = 1024 * 1024;
const MIN_FREE = 64 * MB;

let app: TestApp;
let base: string;
let media: { dir: string; cleanup: () => Promise<void> };
/** Free bytes the server sees on its disk beyond MIN_FREE_MB. */
let room = 0;
let skipped = 0;
const clock: Clock = {
  now: () => Date.now() + skipped,
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (h) => clearTimeout(h as ReturnType<typeof setTimeout>),
};
const idle = () => (skipped += UPLOAD_HOLD_IDLE_MS + 1000);
const tone = () => path.join(media.dir, 'tone.mp3');

beforeAll(async () => {
  media = await tempDir('tus-holds-');
  await makeTone(tone(), { seconds: 3 });
  app = await startTestApp(
    { maxFileBytes: MB, minFreeBytes: MIN_FREE },
    { clock, freeSpace: async () => MIN_FREE + room },
  );
  base = await app.listenLocally();
});
afterAll(async () => {
  await app?.dispose();
  await media?.cleanup();
});

async function session() {
  const s = await openSession(app.app);
  return { s, tus: tusClient(base, s) };
}

describe('holds of unfinished resumable uploads', () => {
  it("lapse when no byte comes for the idle time: another session's upload then fits", async () => {
    room = 1.5 * MB;
    const a = await session();
    expect((await a.tus.create(MB, { filename: 'never-sent.mp3', appid: a.s.appid })).status).toBe(201);
    const b = await session();
    const refused = await b.tus.create(MB, { filename: 'chapter.mp3', appid: b.s.appid });
    expect(refused.status).toBe(507);
    expect(JSON.parse(refused.body)).toMatchObject({ code: 'disk-full' });

    idle();
    expect((await b.tus.create(MB, { filename: 'chapter.mp3', appid: b.s.appid })).status).toBe(201);
    idle();
  });

  it("caps what one session's unfinished uploads declare together, lapsed ones included", async () => {
    room = 1000 * MB;
    const { s, tus } = await session();
    const made = [];
    for (let n = 0; n < SESSION_UPLOADING_FILES; n++)
      made.push(await tus.create(MB, { filename: `part ${n}.mp3`, appid: s.appid }));
    expect(made.map((r) => r.status)).toEqual(Array(SESSION_UPLOADING_FILES).fill(201));

    idle();
    const over = await tus.create(1, { filename: 'one more.mp3', appid: s.appid });
    expect(over.status).toBe(507);
    expect(JSON.parse(over.body)).toMatchObject({
      code: 'disk-full',
      error: `one more.mp3 was not started: this session's unfinished uploads may hold at most ${SESSION_UPLOADING_FILES} MB; finish or remove some first`,
    });
    // Another session is not held back by this one's cap.
    const other = await session();
    expect((await other.tus.create(MB, { filename: 'x.mp3', appid: other.s.appid })).status).toBe(201);
    // Removing one gives the session its place back.
    expect((await tus.remove(made[0].headers.location!)).status).toBe(204);
    expect((await tus.create(MB, { filename: 'one more.mp3', appid: s.appid })).status).toBe(201);
    idle();
  });

  it('a resumed lapsed upload that no longer fits is a 507 and keeps its bytes; it resumes once there is room', async () => {
    const length = (await stat(tone())).size;
    const half = Math.floor(length / 2);
    // Room for one whole upload and a quarter: not for another's whole one and A's other half.
    room = length + Math.floor(length / 4);
    const a = await session();
    const location = (await a.tus.create(length, { filename: 'tone.mp3', appid: a.s.appid })).headers
      .location!;
    expect((await a.tus.patch(location, tone(), 0, half)).status).toBe(204);

    idle();
    // The lapsed upload's room is taken by another session's upload.
    const b = await session();
    const taken = await b.tus.create(length, { filename: 'other.mp3', appid: b.s.appid });
    expect(taken.status).toBe(201);

    const resumed = await a.tus.patch(location, tone(), half, length);
    expect(resumed.status).toBe(507);
    expect(JSON.parse(resumed.body)).toMatchObject({ code: 'disk-full' });
    expect(Number((await a.tus.head(location)).headers['upload-offset'])).toBe(half);
    expect(await listItems(app.app, a.s)).toEqual([]);

    expect((await b.tus.remove(taken.headers.location!)).status).toBe(204);
    const done = await a.tus.patch(location, tone(), half, length);
    expect(done.status, done.body).toBe(200);
    const [item] = await listItems(app.app, a.s);
    const stored = await app.app.inject({
      url: `/upload/${item.sid}/${item.newfilename}.mp3`,
      headers: { cookie: a.s.cookie },
    });
    expect(stored.rawPayload.equals(await readFile(tone()))).toBe(true);
  });
});
