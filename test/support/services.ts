// Real Redis, PostgreSQL and an S3-compatible server (s3rver) for the scaled suites, each on a
// loopback port in a temporary folder, and stopped again whatever happens (also on process exit).
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { until } from './until.js';

export interface Service {
  url: string;
  stop(): Promise<void>;
}

export interface RedisService extends Service {
  port: number;
  /** kill -9 (no chance to save anything at exit), then start again on the same port and folder. */
  crash(): Promise<void>;
}

const cleanups = new Set<() => void>();
process.once('exit', () => {
  for (const c of cleanups) c();
});

const taken = new Set<number>();

/** A free loopback port at or above `from`: the scaled suites keep to a range of their own. */
export async function freePortFrom(
  from = Number(process.env.SCALED_PORT_BASE ?? 41700),
  span = 100,
): Promise<number> {
  for (let port = from; port < from + span; port++) {
    if (taken.has(port)) continue;
    // Reserved before the probe: concurrent callers must not both find the same port free.
    taken.add(port);
    const free = await new Promise<boolean>((resolve) => {
      const srv = net.createServer();
      srv.once('error', () => resolve(false));
      srv.listen(port, '127.0.0.1', () => srv.close(() => resolve(true)));
    });
    if (free) return port;
  }
  throw new Error(`No free port in ${from}-${from + span - 1}`);
}

function canConnect(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = net.connect(port, '127.0.0.1');
    s.once('connect', () => {
      s.destroy();
      resolve(true);
    });
    s.once('error', () => resolve(false));
  });
}

function exited(child: ChildProcess): Promise<void> {
  return child.exitCode !== null || child.signalCode !== null
    ? Promise.resolve()
    : new Promise((resolve) => child.once('exit', () => resolve()));
}

// ---------------------------------------------------------------- Redis

export async function startRedis(opts: { persistent?: boolean } = {}): Promise<RedisService> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'am-redis-'));
  const port = await freePortFrom();
  const args = [
    '--port',
    String(port),
    '--bind',
    '127.0.0.1',
    '--dir',
    dir,
    '--save',
    '',
    '--maxmemory-policy',
    'noeviction',
    '--daemonize',
    'no',
    '--logfile',
    '',
    // The crash tests need the queue to survive a kill -9; everything else needs no
    // disk at all. everysec, as docs/deploy.md advises: Redis writes each command to the file
    // before it answers, so a killed process loses nothing; only a lost machine loses <= 1 s.
    '--appendonly',
    opts.persistent ? 'yes' : 'no',
    '--appendfsync',
    'everysec',
  ];
  let child: ChildProcess;
  let log = '';
  const launch = async () => {
    child = spawn('redis-server', args, { stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout!.on('data', (d) => (log = (log + d).slice(-4000)));
    child.stderr!.on('data', (d) => (log = (log + d).slice(-4000)));
    child.once('error', (err) => (log += String(err)));
    await until(
      async () => {
        if (child.exitCode !== null) throw new Error(`redis-server exited: ${log}`);
        return canConnect(port);
      },
      { timeoutMs: 30_000, intervalMs: 100, what: `redis-server on ${port}` },
    );
  };
  const kill = (signal: NodeJS.Signals = 'SIGTERM') => {
    if (child.exitCode === null) child.kill(signal);
  };
  const cleanup = () => {
    kill();
    rmSync(dir, { recursive: true, force: true });
  };
  cleanups.add(cleanup);
  await launch();
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    async crash() {
      kill('SIGKILL');
      await exited(child);
      await launch();
    },
    async stop() {
      kill();
      await exited(child);
      cleanup();
      cleanups.delete(cleanup);
    },
  };
}

// ---------------------------------------------------------------- PostgreSQL

/** The newest installed PostgreSQL's bin folder (Debian keeps them under /usr/lib/postgresql/N/bin). */
export function postgresBin(): string {
  if (process.env.PG_BIN) return process.env.PG_BIN;
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root)
    ? readdirSync(root)
        .filter((v) => /^\d+$/.test(v))
        .map(Number)
    : [];
  if (versions.length === 0) throw new Error('PostgreSQL is not installed (apt-get install postgresql)');
  return path.join(root, String(Math.max(...versions)), 'bin');
}

/** initdb refuses to run as root: as root, run the server tools as `nobody`. */
function asPgUser(cmd: string, args: string[]): [string, string[]] {
  return process.getuid?.() === 0 ? ['runuser', ['-u', 'nobody', '--', cmd, ...args]] : [cmd, args];
}

function runPg(bin: string, tool: string, args: string[]): void {
  const [cmd, full] = asPgUser(path.join(bin, tool), args);
  const r = spawnSync(cmd, full, { encoding: 'utf8', cwd: os.tmpdir() });
  if (r.status !== 0)
    throw new Error(`${tool} ${args.join(' ')} failed: ${r.stdout}${r.stderr}${r.error ?? ''}`);
}

export interface PostgresService extends Service {
  port: number;
  /** Stop the server at once (as a crash or an outage would), keeping its data. */
  halt(): Promise<void>;
  /** Start it again on the same port and data after halt(). */
  resume(): Promise<void>;
}

export async function startPostgres(): Promise<PostgresService> {
  const bin = postgresBin();
  const base = mkdtempSync(path.join(os.tmpdir(), 'am-pg-'));
  const data = path.join(base, 'data');
  const sockets = path.join(base, 'sock');
  mkdirSync(sockets);
  if (process.getuid?.() === 0) {
    spawnSync('chown', ['-R', 'nobody', base]);
    chmodSync(base, 0o755);
  }
  const port = await freePortFrom();
  runPg(bin, 'initdb', [
    '-D',
    data,
    '-U',
    'postgres',
    '-A',
    'trust',
    '-E',
    'UTF8',
    '--locale=C',
    '--no-sync',
  ]);
  const serverOpts = [
    `-p ${port}`,
    `-k ${sockets}`,
    "-c listen_addresses='127.0.0.1'",
    '-c fsync=off',
    '-c synchronous_commit=off',
    '-c full_page_writes=off',
    '-c max_connections=200',
  ].join(' ');
  const stopPg = () => {
    const [cmd, args] = asPgUser(path.join(bin, 'pg_ctl'), ['-D', data, '-m', 'immediate', '-w', 'stop']);
    spawnSync(cmd, args, { stdio: 'ignore', cwd: os.tmpdir() });
  };
  const cleanup = () => {
    stopPg();
    rmSync(base, { recursive: true, force: true });
  };
  cleanups.add(cleanup);
  const startPg = () =>
    runPg(bin, 'pg_ctl', [
      '-D',
      data,
      '-o',
      serverOpts,
      '-l',
      path.join(base, 'log'),
      '-w',
      '-t',
      '60',
      'start',
    ]);
  try {
    startPg();
  } catch (err) {
    cleanup();
    cleanups.delete(cleanup);
    throw err;
  }
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    port,
    async halt() {
      stopPg();
    },
    async resume() {
      startPg();
    },
    async stop() {
      cleanup();
      cleanups.delete(cleanup);
    },
  };
}

// ---------------------------------------------------------------- S3 (s3rver)

export const S3_TEST_CREDENTIALS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER', region: 'us-east-1' };

export async function startS3(bucket: string): Promise<Service & { port: number; bucket: string }> {
  const { default: S3rver } = await import('s3rver');
  const dir = mkdtempSync(path.join(os.tmpdir(), 'am-s3-'));
  const port = await freePortFrom();
  const server = new S3rver({
    address: '127.0.0.1',
    port,
    directory: dir,
    silent: true,
    configureBuckets: [{ name: bucket }],
  });
  await server.run();
  const cleanup = () => rmSync(dir, { recursive: true, force: true });
  cleanups.add(cleanup);
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    bucket,
    async stop() {
      await server.close();
      cleanup();
      cleanups.delete(cleanup);
    },
  };
}
