import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../../../test/support/audio-fixtures.js';
import {
  listItems,
  openSession,
  startTestApp,
  upload,
  type TestApp,
} from '../../../test/support/server-harness.js';
import { isOwnOrigin, PACKAGE_ROOT } from './app.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ uploadRateLimit: 2 });
});
afterAll(async () => {
  await t.dispose();
});

describe('the app', () => {
  it('serves the widget script from dist/widget, whatever the working directory', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/widget/audio-merge.js' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/javascript/);
    const built = await readFile(path.join(PACKAGE_ROOT, 'dist', 'widget', 'audio-merge.js'));
    expect(res.rawPayload.equals(built)).toBe(true);
  });

  it('answers unknown paths with a JSON 404', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/nope' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ error: 'Not found', code: 'notFound' });
  });

  it('rate-limits uploads per session with a JSON 429', async () => {
    const a = await openSession(t.app);
    const b = await openSession(t.app);
    expect((await upload(t.app, a, [])).statusCode).toBe(400);
    expect((await upload(t.app, a, [])).statusCode).toBe(400);
    const limited = await upload(t.app, a, []);
    expect(limited.statusCode).toBe(429);
    expect(limited.json().error).toMatch(/Too many requests/);
    expect((await upload(t.app, b, [])).statusCode).toBe(400);
  });

  it('allows realtime connections only from its own origin', () => {
    expect(isOwnOrigin('http://127.0.0.1:3000', '127.0.0.1', 3000)).toBe(true);
    expect(isOwnOrigin('http://localhost:3000', '127.0.0.1', 3000)).toBe(true);
    expect(isOwnOrigin('http://evil.example:3000', '127.0.0.1', 3000)).toBe(false);
    expect(isOwnOrigin('http://127.0.0.1:4000', '127.0.0.1', 3000)).toBe(false);
    expect(isOwnOrigin(undefined, '127.0.0.1', 3000)).toBe(false);
    expect(isOwnOrigin('not a url', '127.0.0.1', 3000)).toBe(false);
  });
});

describe('closing', () => {
  it('turns new requests away with 503 once close() has begun, and closes cleanly', async () => {
    const app = await startTestApp();
    const closing = app.dispose();
    const res = await app.app.inject({ method: 'GET', url: '/' });
    expect(res.statusCode).toBe(503);
    expect(res.json().error).toMatch(/shutting down/);
    await closing;
  });
});

describe('restarting', () => {
  it('keeps sessions and items in the same DATA_DIR and empties tmp/', async () => {
    const { dir, cleanup } = await tempDir('audio-merge-restart-');
    try {
      const first = await startTestApp({ dataDir: dir });
      const s = await openSession(first.app);
      await first.close();
      await writeFile(path.join(dir, 'tmp', 'left-over.upload'), 'half a file');

      const second = await startTestApp({ dataDir: dir });
      expect(await readdir(path.join(dir, 'tmp'))).toEqual([]);
      expect(await listItems(second.app, s)).toEqual([]);
      const page = await second.app.inject({ method: 'GET', url: '/', headers: { cookie: s.cookie } });
      expect(page.headers['set-cookie']).toBeUndefined();
      expect(page.body).toContain(`data-sid="${s.sid}"`);
      await second.close();
    } finally {
      await cleanup();
    }
  });
});
