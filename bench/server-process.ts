// Starts the built server as `npm start` would, on free ports and a temporary DATA_DIR.
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { measuredEnv } from './measure.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
    s.on('error', reject);
  });
}

export interface RunningServer {
  base: string;
  pid: number;
  child: ChildProcess;
  dataDir: string;
  /** Resident set size now, bytes (from /proc). */
  rss(): number;
  stop(): Promise<void>;
}

/** A ROLE=worker process: no port; ready once its log says so (its base is empty). */
export async function startWorker(env: NodeJS.ProcessEnv): Promise<RunningServer> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'audio-merge-bench-worker-'));
  const child = spawn(process.execPath, [path.join(root, 'dist', 'main.js')], {
    env: measuredEnv({ ...env, ROLE: 'worker', DATA_DIR: dataDir, LOG_LEVEL: 'info' }),
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let log = '';
  const ready = new Promise<void>((resolve, reject) => {
    child.stdout!.on('data', (d: Buffer) => {
      log = (log + d.toString()).slice(-4000);
      if (log.includes('worker ready')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`the worker exited with ${code}:\n${log}`)));
  });
  await ready;
  return running('', child, dataDir);
}

function running(base: string, child: ChildProcess, dataDir: string): RunningServer {
  return {
    base,
    pid: child.pid!,
    child,
    dataDir,
    rss() {
      const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'));
      return m ? Number(m[1]) * 1024 : 0;
    },
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        await new Promise((r) => child.once('close', r));
      }
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

export async function startServer(
  env: NodeJS.ProcessEnv = {},
  nodeArgs: string[] = [],
): Promise<RunningServer> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'audio-merge-bench-data-'));
  const port = await freePort();
  const socketPort = await freePort();
  const child = spawn(process.execPath, [...nodeArgs, path.join(root, 'dist', 'main.js')], {
    env: measuredEnv({
      PORT: String(port),
      SOCKET_PORT: String(socketPort),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      ...env,
    }),
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const base = `http://127.0.0.1:${port}`;
  for (let i = 0; ; i++) {
    try {
      if ((await fetch(base + '/')).ok) break;
    } catch {
      // not up yet
    }
    if (i > 200 || child.exitCode !== null) throw new Error('the server did not start');
    await new Promise((r) => setTimeout(r, 50));
  }
  return running(base, child, dataDir);
}

export interface BrowserSession {
  cookie: string;
  csrf: string;
  sid: string;
  appid: string;
}

/** Open the host page like a browser: keep the cookie, read the csrf token and the widget attributes. */
export async function openSession(base: string): Promise<BrowserSession> {
  const res = await fetch(base + '/');
  const html = await res.text();
  const cookie = res.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
  const csrf = /<meta name="csrf-token" content="([^"]+)"/.exec(html)?.[1];
  const sid = /data-sid="([^"]+)"/.exec(html)?.[1];
  const appid = /data-appid="([^"]+)"/.exec(html)?.[1];
  if (!csrf || !sid || !appid || !cookie)
    throw new Error('the host page lacks the session, csrf token or widget element');
  return { cookie, csrf, sid, appid };
}

/**
 * The built server started with `env`, a session opened on it, `work` done with both, and the
 * server stopped whatever came of it.
 */
export async function withServer<T>(
  env: NodeJS.ProcessEnv,
  work: (server: RunningServer, s: BrowserSession) => Promise<T>,
): Promise<T> {
  const server = await startServer(env);
  try {
    return await work(server, await openSession(server.base));
  } finally {
    await server.stop();
  }
}

export function headers(s: BrowserSession, json = true): Record<string, string> {
  return {
    cookie: s.cookie,
    'x-csrf-token': s.csrf,
    ...(json ? { 'content-type': 'application/json' } : {}),
  };
}
