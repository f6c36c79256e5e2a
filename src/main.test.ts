// The real process: environment in, listening, logs without secrets, SIGTERM exits 0.
import { spawn } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../test/support/audio-fixtures.js';
import { FALLBACK_NOTICE } from './engine/index.js';
import { damagePage, makeDatabase } from '../test/support/damaged-db.js';
import { until } from '../test/support/until.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
let dataDir: string;
let cleanup: () => Promise<void>;

beforeAll(async () => {
  ({ dir: dataDir, cleanup } = await tempDir('audio-merge-main-'));
});
afterAll(async () => {
  await cleanup();
});

/** The environment of a server on free ports at 127.0.0.1 keeping its data in `dir`, and `extra`. */
const serverEnv = (dir: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv => ({
  ...process.env,
  DATA_DIR: dir,
  PORT: '0',
  SOCKET_PORT: '0',
  HOST: '127.0.0.1',
  ...extra,
});

/** src/main.ts in a process of its own on `env`, keeping what it says. */
function runMain(env: NodeJS.ProcessEnv) {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'src/main.ts')], {
    cwd: root,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const said = { out: '', stdout: '', stderr: '' };
  child.stdout.on('data', (d) => {
    said.out += d;
    said.stdout += d;
  });
  child.stderr.on('data', (d) => {
    said.out += d;
    said.stderr += d;
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  /** The address it says it serves on, once it says so (by default one on 127.0.0.1); refused if it exits first. */
  const serving = (pattern = /audio-merge: (http:\/\/127\.0\.0\.1:\d+\/)/) =>
    new Promise<string>((resolve, reject) => {
      child.stdout.on('data', () => {
        const m = pattern.exec(said.out);
        if (m) resolve(m[1]);
      });
      child.on('exit', () => reject(new Error(`exited early:\n${said.out}`)));
    });
  return { child, said, exited, serving };
}

describe('src/main.ts', () => {
  it('serves on the configured address, logs no secrets, and exits 0 on SIGTERM', async () => {
    const { child, said, exited, serving } = runMain(serverEnv(dataDir, { LOG_LEVEL: 'info' }));
    try {
      const url = await serving();
      expect(said.out).toMatch(/using ffmpeg \S+ at \S+ffmpeg/);

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
      expect(said.out).toContain('shutting down');
      expect(said.out).not.toContain(secret);
      expect(said.out).not.toContain(csrf);
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
    }
  });

  it('refuses to start on a damaged database with one line saying what to do, and exits non-zero', async () => {
    const { dir, cleanup: remove } = await tempDir('audio-merge-main-damaged-');
    try {
      const file = path.join(dir, 'audio-merge.sqlite');
      await makeDatabase(file);
      await damagePage(file);
      const { said, exited } = runMain(serverEnv(dir, { LOG_LEVEL: 'error' }));
      expect(await exited).toBe(1);
      expect(said.stdout).not.toMatch(/http:\/\//);
      const lines = said.stderr.trim().split('\n');
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(
        /^audio-merge: cannot start: the database \S+audio-merge\.sqlite is damaged .*move that file/,
      );
    } finally {
      await remove();
    }
  });

  it('on the npm fallback alone, says once how to install a current ffmpeg', async () => {
    const { FFMPEG_PATH: _, FFPROBE_PATH: __, ...env } = process.env;
    const { child, said, exited, serving } = runMain({
      ...env,
      PATH: dataDir,
      DATA_DIR: dataDir,
      PORT: '0',
      SOCKET_PORT: '0',
      LOG_LEVEL: 'info',
    });
    try {
      await serving(/audio-merge: (http:)/);
      const notices = said.out
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line) as { msg: string })
        .filter((l) => /ffmpeg/.test(l.msg) && /apt install ffmpeg/.test(l.msg));
      expect(notices.map((l) => l.msg)).toEqual([FALLBACK_NOTICE]);
      expect(said.out).toMatch(/using ffmpeg \S+ at \S+@ffmpeg-installer\S+ffmpeg/);
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
    }
  });

  it.each(['PORT', 'SOCKET_PORT'])('a busy %s: one plain line naming the port, exit 1', async (variable) => {
    const busy = net.createServer();
    await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', resolve));
    const port = (busy.address() as net.AddressInfo).port;
    try {
      const { said, exited } = runMain(serverEnv(dataDir, { [variable]: String(port), LOG_LEVEL: 'error' }));
      expect(await exited).toBe(1);
      expect(said.stdout).toBe('');
      expect(said.stderr.trim().split('\n')).toEqual([
        `audio-merge: cannot start: port ${port} on 127.0.0.1 (${variable}) is already in use; stop what uses it or set ${variable} to a free port`,
      ]);
    } finally {
      busy.close();
    }
  });

  it('SIGTERM while a client trickles an upload: exits 0 after the grace, leaving no temporary file', async () => {
    const { dir, cleanup: done } = await tempDir('audio-merge-main-grace-');
    const { child, exited, serving } = runMain(
      serverEnv(dir, { LOG_LEVEL: 'info', SHUTDOWN_GRACE_SECONDS: '1' }),
    );
    let trickle: NodeJS.Timeout | undefined;
    try {
      const url = new URL(await serving());
      const page = await fetch(url);
      const cookie = /am_session=[^;]+/.exec(page.headers.get('set-cookie') ?? '')?.[0] as string;
      const csrf = /name="csrf-token" content="([^"]+)"/.exec(await page.text())?.[1] as string;

      // A 10 MB file announced, a few bytes sent every 200 ms, for as long as the socket is open.
      const boundary = 'trickle';
      const socket = net.connect(Number(url.port), '127.0.0.1');
      const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
      socket.on('error', () => {});
      socket.write(
        `POST /app/merge/upload HTTP/1.1\r\nHost: ${url.host}\r\nCookie: ${cookie}\r\nX-CSRF-TOKEN: ${csrf}\r\n` +
          `Content-Type: multipart/form-data; boundary=${boundary}\r\nContent-Length: ${10 * 1024 * 1024}\r\n\r\n` +
          `--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="slow.mp3"\r\n\r\n`,
      );
      socket.write(Buffer.alloc(64 * 1024, 0x55));
      trickle = setInterval(() => socket.writable && socket.write(Buffer.alloc(16, 0x55)), 200);
      const tmp = path.join(dir, 'tmp');
      await until(() => readdirSync(tmp).some((f) => f.endsWith('.upload')), {
        timeoutMs: 20_000,
        intervalMs: 50,
        what: 'the upload being written to tmp',
      });

      child.kill('SIGTERM');
      expect(await exited).toBe(0);
      await closed;
      expect(readdirSync(tmp)).toEqual([]);
    } finally {
      clearInterval(trickle);
      if (child.exitCode === null) child.kill('SIGKILL');
      await done();
    }
  });
});
