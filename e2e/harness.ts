// Runs the product as a person would: the built server in its own process, and Debian's Chromium.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { tempDir } from '../test/support/audio-fixtures.js';
import type { ListedItem } from '../test/support/server-harness.js';
import { until } from '../test/support/until.js';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const SCREENSHOTS = path.join(ROOT, 'e2e', 'screenshots');

/** A port the OS says is free right now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

/** The environment a person's shell would have: not vitest's NODE_ENV=test. */
export function personEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env = { ...process.env, ...extra };
  delete env.NODE_ENV;
  delete env.VITEST;
  return env;
}

/** npm run build, once per test run; a failed build fails the suite with its output. */
export function build(): void {
  const r = spawnSync('npm', ['run', 'build', '--silent'], { cwd: ROOT, encoding: 'utf8', env: personEnv() });
  if (r.status !== 0) throw new Error(`npm run build failed:\n${r.stdout}\n${r.stderr}`);
}

export interface RunningServer {
  url: string;
  port: number;
  socketPort: number;
  /** The server process, whose children (ffmpeg) a test may look for. */
  pid: number;
  output: () => string;
  stop: () => Promise<void>;
  /** Kill the process with `signal` (no shutdown of its own) and wait until it has exited. */
  kill: (signal: NodeJS.Signals) => Promise<void>;
}

export async function waitForHttp(url: string, child: ChildProcess, output: () => string): Promise<void> {
  await until(
    async () => {
      if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}:\n${output()}`);
      try {
        return (await fetch(url)).ok;
      } catch {
        return false; // not listening yet
      }
    },
    { timeoutMs: 60_000, intervalMs: 150, what: `${url} answering` },
  );
}

/** The built server on `dataDir`; on the given ports (a restart), else on free ones. */
export async function startServer(
  dataDir: string,
  ports: { port?: number; socketPort?: number } = {},
): Promise<RunningServer> {
  const port = ports.port ?? (await freePort());
  const socketPort = ports.socketPort ?? (await freePort());
  const child = spawn(process.execPath, ['dist/main.js'], {
    cwd: ROOT,
    env: personEnv({
      PORT: String(port),
      SOCKET_PORT: String(socketPort),
      DATA_DIR: dataDir,
      HOST: '127.0.0.1',
    }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  child.stdout!.on('data', (d) => (log += d));
  child.stderr!.on('data', (d) => (log += d));
  const url = `http://127.0.0.1:${port}`;
  await waitForHttp(`${url}/`, child, () => log);
  const killWith = (signal: NodeJS.Signals) =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill(signal);
    });
  return {
    url,
    port,
    socketPort,
    pid: child.pid as number,
    output: () => log,
    stop: () => killWith('SIGTERM'),
    kill: killWith,
  };
}

export async function launchBrowser(): Promise<Browser> {
  const executablePath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
  if (!existsSync(executablePath))
    throw new Error(`Chromium not found at ${executablePath} (set CHROMIUM_PATH)`);
  return chromium.launch({
    executablePath,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-quic',
      '--no-first-run',
      '--disable-component-update',
      '--disable-sync',
      '--autoplay-policy=no-user-gesture-required',
    ],
  });
}

export interface ServerRun {
  server: RunningServer;
  browser: Browser;
  /** The test's folder: inputs here, the server's data under data/. */
  dir: string;
}

export interface OnePageRun extends ServerRun {
  page: Page;
}

/**
 * For a test file with one server and one browser: made before its tests (after `makeInputs`
 * wrote the files into the folder, and with the screenshots folder there), all stopped and
 * removed after them.
 */
export function serverRun(prefix: string, makeInputs: (dir: string) => Promise<unknown>): () => ServerRun {
  let run: ServerRun | undefined;
  let cleanup: (() => Promise<void>) | undefined;
  beforeAll(async () => {
    if (!process.env.E2E_SKIP_BUILD) build();
    const work = await tempDir(prefix);
    cleanup = work.cleanup;
    await mkdir(SCREENSHOTS, { recursive: true });
    await makeInputs(work.dir);
    const server = await startServer(path.join(work.dir, 'data'));
    run = { server, browser: await launchBrowser(), dir: work.dir };
  });
  afterAll(async () => {
    await run?.browser.close();
    await run?.server.stop();
    await cleanup?.();
  });
  return () => {
    if (!run) throw new Error('the run is not started (call it at the top of a test file)');
    return run;
  };
}

/** serverRun with one tall page open. */
export function onePageRun(prefix: string, makeInputs: (dir: string) => Promise<unknown>): () => OnePageRun {
  const started = serverRun(prefix, makeInputs);
  let page: Page | undefined;
  beforeAll(async () => {
    page = await started().browser.newPage({ viewport: { width: 900, height: 1400 } });
  });
  return () => {
    if (!page) throw new Error('the page run is not started (call onePageRun at the top of a test file)');
    return { ...started(), page };
  };
}

/** getDataJson asked from inside the page, with its cookie and CSRF token. */
export function pageItems(page: Page): Promise<ListedItem[]> {
  return page.evaluate(async () => {
    const csrf = document.querySelector<HTMLMetaElement>('meta[name="csrf-token"]')!.content;
    const appid = document.getElementById('audio-merge-tool')!.dataset.appid;
    const res = await fetch('/app/merge/getDataJson', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-csrf-token': csrf },
      body: JSON.stringify({ appid }),
    });
    return (await res.json()) as ListedItem[];
  });
}

/**
 * Wait until the page has run the timers already queued. dnd-kit's keyboard sensor starts
 * listening for arrow keys in a zero-delay timer after a row is lifted, and the announcement of
 * the lift can come first: a key pressed in between would be lost (nobody types that fast; a
 * test does, on a loaded machine). A zero-delay timer queued now runs after that one.
 */
export function afterQueuedTimers(page: Page): Promise<void> {
  return page.evaluate(() => new Promise<void>((resolve) => setTimeout(resolve, 0)));
}
