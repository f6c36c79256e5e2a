// Real `node dist/main.js` processes in web and worker roles sharing one PostgreSQL, Redis and
// bucket, as a deployment runs them; each with its own DATA_DIR (scratch only) and ports from
// the scaled range. Workers open no port: they are ready when they say so in their log.
import { spawn, type ChildProcess } from 'node:child_process';
import { inject } from 'vitest';
import { personEnv, ROOT, waitForHttp } from '../../e2e/harness.js';
import { tempDir } from './audio-fixtures.js';
import { freePortFrom } from './services.js';
import { TEST_ORIGIN } from './test-origin.js';
import { until } from './until.js';

export interface ClusterProcess {
  role: 'web' | 'worker';
  /** Web only. */
  url: string;
  socketPort: number;
  pid: number;
  output(): string;
  /** SIGKILL: the process dies mid-whatever, as a lost machine would. */
  kill(): Promise<void>;
  /** SIGTERM and wait for the exit code. */
  stop(): Promise<number | null>;
}

/** The variables of docs/reference/scaling.md for the services the scaled global setup started. */
export function scaledEnv(databaseUrl: string, redisUrl = inject('redisUrl')): Record<string, string> {
  const s3 = inject('s3');
  return {
    DATABASE_URL: databaseUrl,
    REDIS_URL: redisUrl,
    S3_ENDPOINT: s3.endpoint,
    S3_BUCKET: s3.bucket,
    S3_REGION: s3.region,
    S3_ACCESS_KEY_ID: s3.accessKeyId,
    S3_SECRET_ACCESS_KEY: s3.secretAccessKey,
    S3_FORCE_PATH_STYLE: 'true',
    MERGE_STALL_SECONDS: '3',
    MERGE_CONCURRENCY: '1',
    LOG_LEVEL: 'info',
  };
}

const exited = (child: ChildProcess) =>
  new Promise<number | null>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve(child.exitCode);
    child.once('exit', (code) => resolve(code));
  });

export async function startProcess(
  role: 'web' | 'worker',
  env: Record<string, string>,
): Promise<ClusterProcess> {
  const data = await tempDir(`am-${role}-`);
  const [port, socketPort] = role === 'web' ? [await freePortFrom(), await freePortFrom()] : [0, 0];
  const child = spawn(process.execPath, ['dist/main.js'], {
    cwd: ROOT,
    env: personEnv({
      ...env,
      ROLE: role,
      DATA_DIR: data.dir,
      HOST: '127.0.0.1',
      PORT: String(port),
      SOCKET_PORT: String(socketPort),
      PUBLIC_ORIGIN: TEST_ORIGIN,
    }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  child.stdout!.on('data', (d) => (log += d));
  child.stderr!.on('data', (d) => (log += d));
  const output = () => log;
  child.once('exit', () => void data.cleanup());
  const url = `http://127.0.0.1:${port}`;
  try {
    if (role === 'web') await waitForHttp(`${url}/healthz`, child, output);
    else {
      await until(
        () => {
          if (child.exitCode !== null) throw new Error(`worker exited with ${child.exitCode}:\n${log}`);
          return log.includes('worker ready');
        },
        { timeoutMs: 60_000, intervalMs: 100, what: 'the worker being ready' },
      );
    }
  } catch (err) {
    child.kill('SIGKILL');
    throw err;
  }
  return {
    role,
    url,
    socketPort,
    pid: child.pid as number,
    output,
    async kill() {
      child.kill('SIGKILL');
      await exited(child);
    },
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      return exited(child);
    },
  };
}
