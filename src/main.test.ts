// The real process: environment in, listening, logs without secrets, SIGTERM exits 0.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../test/support/audio-fixtures.js';
import { damagePage, makeDatabase } from '../test/support/damaged-db.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
let dataDir: string;
let cleanup: () => Promise<void>;

beforeAll(async () => {
  ({ dir: dataDir, cleanup } = await tempDir('audio-merge-main-'));
});
afterAll(async () => {
  await cleanup();
});

describe('src/main.ts', () => {
  it('serves on the configured address, logs no secrets, and exits 0 on SIGTERM', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'src/main.ts')], {
      cwd: root,
      env: { ...process.env, DATA_DIR: dataDir, PORT: '0', SOCKET_PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    try {
      const url = await new Promise<string>((resolve, reject) => {
        const check = () => {
          const m = /audio-merge: (http:\/\/127\.0\.0\.1:\d+\/)/.exec(out);
          if (m) resolve(m[1]);
        };
        child.stdout.on('data', check);
        child.on('exit', () => reject(new Error(`exited early:\n${out}`)));
      });
      expect(out).toMatch(/using ffmpeg \S+ at \S+ffmpeg/);

      const page = await fetch(url);
      expect(page.status).toBe(200);
      const secret = /am_session=([^;]+)/.exec(page.headers.get('set-cookie') ?? '')?.[1] as string;
      const html = await page.text();
      const csrf = /name="csrf-token" content="([^"]+)"/.exec(html)?.[1] as string;
      const items = await fetch(new URL('/app/merge/getDataJson', url), {
        method: 'POST',
        headers: { cookie: `am_session=${secret}`, 'x-csrf-token': csrf, 'content-type': 'application/json' },
        body: JSON.stringify({ appid: 'audio-merge' }),
      });
      expect(await items.text()).toBe('[]');
      expect(existsSync(path.join(dataDir, 'audio-merge.sqlite'))).toBe(true);
      expect(existsSync(path.join(dataDir, 'uploads'))).toBe(true);

      child.kill('SIGTERM');
      expect(await exited).toBe(0);
      expect(out).toContain('shutting down');
      expect(out).not.toContain(secret);
      expect(out).not.toContain(csrf);
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
    }
  });

  it('refuses to start on a damaged database with one line saying what to do, and exits non-zero', async () => {
    const { dir, cleanup: remove } = await tempDir('audio-merge-main-damaged-');
    try {
      const file = path.join(dir, 'audio-merge.sqlite');
      makeDatabase(file);
      await damagePage(file);
      const child = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'src/main.ts')], {
        cwd: root,
        env: { ...process.env, DATA_DIR: dir, PORT: '0', SOCKET_PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'error' },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (d) => (stdout += d));
      child.stderr.on('data', (d) => (stderr += d));
      const code = await new Promise<number | null>((resolve) => child.on('exit', (c) => resolve(c)));
      expect(code).toBe(1);
      expect(stdout).not.toMatch(/http:\/\//);
      const lines = stderr.trim().split('\n');
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(/^audio-merge: cannot start: the database \S+audio-merge\.sqlite is damaged .*move that file/);
    } finally {
      await remove();
    }
  });
});
