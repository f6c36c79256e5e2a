// A tus upload whose bytes are all in but which is not stored yet is never silently lost: the
// server killed (SIGKILL, a real process) between its last byte and its store finishes it at its
// next start and tells the client its item on the next HEAD; a shutdown or a failed store (the
// bucket down) keeps its bytes, and the next HEAD stores them.
import { spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { once } from 'node:events';
import { readFile, readdir, stat, writeFile } from 'node:fs/promises';
import http from 'node:http';
import path from 'node:path';
import readline from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { probeFile } from '../src/engine/index.js';
import type { AudioItem } from '../src/shared/types.js';
import { makeTone, tempDir } from './support/audio-fixtures.js';
import {
  listItems,
  openSession,
  sessionFromPage,
  startTestApp,
  type TestApp,
  type TestSession,
} from './support/server-harness.js';
import { tusClient, type TusAnswer } from './support/tus-requests.js';
import { until } from './support/until.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
let media: { dir: string; cleanup: () => Promise<void> };
let tone: string;
let length: number;

beforeAll(async () => {
  media = await tempDir('tus-finish-later-');
  tone = await makeTone(path.join(media.dir, 'tone.mp3'), { seconds: 3 });
  length = (await stat(tone)).size;
});
afterAll(() => media.cleanup());

const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');
const tusFiles = (dataDir: string) => readdir(path.join(dataDir, 'tus')).catch(() => [] as string[]);

/** The server process of tus-dying-server.ts on `dataDir`, listening, and its lines as they come. */
async function dyingServer(dataDir: string) {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', path.join(root, 'test/support/tus-dying-server.ts'), dataDir],
    {
      cwd: root,
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  const lines = readline.createInterface({ input: child.stdout! });
  const next = (match: RegExp) =>
    new Promise<string>((resolve, reject) => {
      const onLine = (line: string) => {
        if (!match.test(line)) return;
        lines.off('line', onLine);
        resolve(line);
      };
      lines.on('line', onLine);
      child.once('exit', (code) => reject(new Error(`the server exited (${code}) before "${match.source}"`)));
    });
  const port = Number((await next(/^listening \d+$/)).split(' ')[1]);
  return { child, base: `http://127.0.0.1:${port}`, next };
}

async function sessionAt(base: string): Promise<TestSession> {
  const res = await fetch(`${base}/`);
  return sessionFromPage(res.headers.getSetCookie().join('; '), await res.text());
}

async function kill(child: ChildProcess): Promise<void> {
  const exited = once(child, 'exit');
  child.kill('SIGKILL');
  await exited;
}

/** A whole upload sent, its answer never awaited (the server dies or is closed first). */
async function sendWhole(
  base: string,
  s: TestSession,
): Promise<{ location: string; answer: Promise<TusAnswer> }> {
  const tus = tusClient(base, s);
  const created = await tus.create(length, { filename: 'tone.mp3', appid: s.appid });
  expect(created.status).toBe(201);
  const location = String(created.headers.location);
  const answer = tus.patch(location, tone, 0, length).catch(() => ({ status: 0, headers: {}, body: '' }));
  return { location, answer };
}

/** What a HEAD tells of a complete upload's outcome. */
function outcomeOf(head: TusAnswer): { status: number; body: { items?: AudioItem[]; error?: string } } {
  return {
    status: Number(head.headers['upload-outcome-status']),
    body: JSON.parse(decodeURIComponent(String(head.headers['upload-outcome']))) as { items?: AudioItem[] },
  };
}

async function expectStoredWhole(t: TestApp, s: TestSession, item: AudioItem): Promise<void> {
  const stored = await t.app.inject({
    url: `/upload/${item.sid}/${item.newfilename}.${item.format}`,
    headers: { cookie: s.cookie },
  });
  expect(stored.statusCode).toBe(200);
  expect(sha256(stored.rawPayload)).toBe(sha256(await readFile(tone)));
}

describe('a tus upload complete but not stored', () => {
  it('killed between its last byte and its store: the next HEAD stores it and tells its item, once', async () => {
    const data = await tempDir('tus-killed-');
    try {
      const dying = await dyingServer(data.dir);
      const s = await sessionAt(dying.base);
      const probing = dying.next(/^probing$/);
      const { location } = await sendWhole(dying.base, s);
      await probing;
      await kill(dying.child);
      expect(await tusFiles(data.dir)).toContain(location.split('/').pop());

      const t = await startTestApp({ dataDir: data.dir });
      try {
        const base = await t.listenLocally();
        const head = await tusClient(base, s).head(location);
        expect(head.status).toBe(200);
        expect(head.headers['upload-offset']).toBe(String(length));
        const told = outcomeOf(head);
        expect(told.status).toBe(200);
        expect(told.body.items?.map((i) => i.filename)).toEqual(['tone.mp3']);
        const listed = await listItems(t.app, s);
        expect(listed.map((i) => i.id)).toEqual([told.body.items![0].id]);
        await expectStoredWhole(t, s, listed[0]);
        // Asked again (an answer lost on the way): the same item, never a second one.
        expect(outcomeOf(await tusClient(base, s).head(location)).body.items?.[0].id).toBe(listed[0].id);
        expect(await listItems(t.app, s)).toHaveLength(1);
        expect(await tusFiles(data.dir)).toEqual([]);
      } finally {
        await t.dispose();
      }
    } finally {
      await data.cleanup();
    }
  });

  it('killed between its last byte and its store: the next start stores it without being asked', async () => {
    const data = await tempDir('tus-killed-start-');
    try {
      const dying = await dyingServer(data.dir);
      const s = await sessionAt(dying.base);
      const probing = dying.next(/^probing$/);
      await sendWhole(dying.base, s);
      await probing;
      await kill(dying.child);

      const t = await startTestApp({ dataDir: data.dir });
      try {
        await until(async () => (await listItems(t.app, s)).length === 1, {
          timeoutMs: 20_000,
          what: 'the upload stored at start',
        });
        await expectStoredWhole(t, s, (await listItems(t.app, s))[0]);
        await until(async () => (await tusFiles(data.dir)).length === 0, {
          timeoutMs: 5000,
          what: 'tus files gone',
        });
      } finally {
        await t.dispose();
      }
    } finally {
      await data.cleanup();
    }
  });

  it('a shutdown while it is stored keeps its bytes; the next HEAD stores it', async () => {
    const data = await tempDir('tus-shutdown-');
    let release = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    let reached = () => {};
    const probing = new Promise<void>((resolve) => (reached = resolve));
    try {
      const first = await startTestApp(
        { dataDir: data.dir, shutdownGraceMs: 50 },
        {
          probe: async (file, opts) => {
            reached();
            await gate;
            return probeFile(file, opts);
          },
        },
      );
      const s = await openSession(first.app);
      const { location, answer } = await sendWhole(await first.listenLocally(), s);
      await probing;
      const closed = first.close();
      // The shutdown cuts the request that was storing it: only then may the probe go on.
      expect((await answer).status).not.toBe(200);
      release();
      await closed;
      expect(await tusFiles(data.dir)).toContain(location.split('/').pop());

      const second = await startTestApp({ dataDir: data.dir });
      try {
        const head = await tusClient(await second.listenLocally(), s).head(location);
        expect(outcomeOf(head).body.items?.map((i) => i.filename)).toEqual(['tone.mp3']);
        const listed = await listItems(second.app, s);
        expect(listed).toHaveLength(1);
        await expectStoredWhole(second, s, listed[0]);
      } finally {
        await second.dispose();
      }
    } finally {
      release();
      await data.cleanup();
    }
  });

  it('a shutdown mid-PATCH keeps the bytes so far: the upload resumes from there after the restart', async () => {
    const data = await tempDir('tus-shutdown-partial-');
    try {
      const first = await startTestApp({ dataDir: data.dir, shutdownGraceMs: 50 });
      const base = await first.listenLocally();
      const s = await openSession(first.app);
      const created = await tusClient(base, s).create(length, { filename: 'tone.mp3', appid: s.appid });
      const location = String(created.headers.location);
      const bytes = await readFile(tone);
      const half = Math.floor(length / 2);
      // Half the file sent, the request left open: the shutdown has to cut it.
      const req = http.request(new URL(location, base), {
        method: 'PATCH',
        agent: false,
        headers: {
          'tus-resumable': '1.0.0',
          cookie: s.cookie,
          'x-csrf-token': s.csrf,
          'upload-offset': '0',
          'content-type': 'application/offset+octet-stream',
          'content-length': String(length),
        },
      });
      const cut = new Promise<void>((resolve) => {
        req.on('error', () => resolve());
        req.on('close', () => resolve());
      });
      req.write(bytes.subarray(0, half));
      const data0 = path.join(data.dir, 'tus', location.split('/').pop()!);
      await until(async () => ((await stat(data0).catch(() => undefined))?.size ?? 0) === half, {
        timeoutMs: 10_000,
        what: 'half the upload on disk',
      });
      await first.close();
      await cut;

      const second = await startTestApp({ dataDir: data.dir });
      try {
        const tus = tusClient(await second.listenLocally(), s);
        expect(Number((await tus.head(location)).headers['upload-offset'])).toBe(half);
        const rest = await tus.patch(location, tone, half, length);
        expect(rest.status).toBe(200);
        const listed = await listItems(second.app, s);
        expect(listed).toHaveLength(1);
        await expectStoredWhole(second, s, listed[0]);
      } finally {
        await second.dispose();
      }
    } finally {
      await data.cleanup();
    }
  });

  it('refused after the restart: the next HEAD says why, naming the file, and nothing is kept', async () => {
    const data = await tempDir('tus-refused-later-');
    const notes = path.join(media.dir, 'notes.mp3');
    await writeFile(notes, 'these are meeting notes, not audio\n'.repeat(100));
    let release = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    let reached = () => {};
    const probing = new Promise<void>((resolve) => (reached = resolve));
    try {
      const first = await startTestApp(
        { dataDir: data.dir, shutdownGraceMs: 50 },
        {
          probe: async (file, opts) => {
            reached();
            await gate;
            return probeFile(file, opts);
          },
        },
      );
      const s = await openSession(first.app);
      const base = await first.listenLocally();
      const size = (await stat(notes)).size;
      const created = await tusClient(base, s).create(size, { filename: 'notes.mp3', appid: s.appid });
      const location = String(created.headers.location);
      const answer = tusClient(base, s)
        .patch(location, notes, 0, size)
        .catch(() => ({ status: 0 }));
      await probing;
      const closed = first.close();
      await answer;
      release();
      await closed;

      const second = await startTestApp({ dataDir: data.dir });
      try {
        const head = await tusClient(await second.listenLocally(), s).head(location);
        const told = outcomeOf(head);
        expect(told.status).toBe(422);
        expect(told.body.error).toBe('notes.mp3 is not usable audio; it was not stored');
        expect(await listItems(second.app, s)).toEqual([]);
        expect(await tusFiles(data.dir)).toEqual([]);
      } finally {
        await second.dispose();
      }
    } finally {
      release();
      await data.cleanup();
    }
  });

  it('a failed store (the bucket down) keeps its bytes; asked again once it is back, it is stored', async () => {
    const t = await startTestApp();
    try {
      const base = await t.listenLocally();
      const s = await openSession(t.app);
      const put = t.files.put.bind(t.files);
      t.files.put = async () => {
        throw Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' });
      };
      const { location, answer } = await sendWhole(base, s);
      expect((await answer).status).toBe(500);
      expect(await listItems(t.app, s)).toEqual([]);
      const whileDown = await tusClient(base, s).head(location);
      expect(whileDown.status).toBe(423);
      expect(whileDown.headers['upload-offset']).toBe(String(length));

      t.files.put = put;
      const head = await tusClient(base, s).head(location);
      expect(head.status).toBe(200);
      expect(outcomeOf(head).body.items?.map((i) => i.filename)).toEqual(['tone.mp3']);
      const listed = await listItems(t.app, s);
      expect(listed).toHaveLength(1);
      await expectStoredWhole(t, s, listed[0]);
    } finally {
      await t.dispose();
    }
  });
});
