// The scaled deployment the soak runs against, started here on loopback: Debian's PostgreSQL and
// redis-server and s3rver (the scaled suites' helpers), and two web and two worker processes of
// the built server, each in a slot that keeps its DATA_DIR and ports across a kill -9 and restart,
// as a machine that reboots would. It samples each process's peak memory, keeps each merge's end
// line from the logs, and counts what is left behind once everything has stopped.
import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, readFileSync, type WriteStream } from 'node:fs';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ListObjectsV2Command } from '@aws-sdk/client-s3';
import pg from 'pg';
import { createS3Client } from '../../src/server/files/s3/s3-objects.js';
import {
  freePortFrom,
  S3_TEST_CREDENTIALS,
  startPostgres,
  startRedis,
  startS3,
  type RedisService,
  type Service,
} from '../support/services.js';
import { until } from '../support/until.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const BUCKET = 'audio-merge-soak';

/** What a worker's end line says about a merge, by the requestId the person gave it. */
export interface EndLine {
  outcome: string;
  engineSeconds: number | null;
  code: string | null;
}

export interface Slot {
  name: string;
  role: 'web' | 'worker';
  /** Web: its HTTP and socket ports. */
  url: string;
  socketPort: number;
  dataDir: string;
  /** kill -9 now; the slot is down until start(). */
  kill(): Promise<void>;
  start(): Promise<void>;
  /** SIGTERM, and wait. */
  stop(): Promise<void>;
}

export interface Cluster {
  webs: Slot[];
  workers: Slot[];
  redis: RedisService;
  endLines: Map<string, EndLine>;
  /** Peak resident memory by slot, bytes (restarts count as one slot). */
  peakRss: Map<string, number>;
  /** Stop every process gracefully, then list what is left; then stop the services. */
  finish(): Promise<string[]>;
  /** Stop everything, whatever state it is in. */
  abort(): Promise<void>;
}

const exited = (child: ChildProcess) =>
  child.exitCode !== null || child.signalCode !== null
    ? Promise.resolve()
    : new Promise<void>((resolve) => child.once('exit', () => resolve()));

/** VmHWM: the process's peak resident memory so far, bytes; 0 once it is gone. */
function peakOf(pid: number): number {
  try {
    const kb = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return kb ? Number(kb) * 1024 : 0;
  } catch {
    return 0;
  }
}

function readEndLines(line: string, into: Map<string, EndLine>): void {
  if (!line.startsWith('{') || !line.includes('"outcome"')) return;
  try {
    const l = JSON.parse(line) as Record<string, unknown>;
    if (typeof l.requestId === 'string' && typeof l.outcome === 'string')
      into.set(l.requestId, {
        outcome: l.outcome,
        engineSeconds: typeof l.engineSeconds === 'number' ? l.engineSeconds : null,
        code: typeof l.code === 'string' ? l.code : null,
      });
  } catch {
    // not one of ours
  }
}

async function makeSlot(
  name: string,
  role: 'web' | 'worker',
  env: Record<string, string>,
  logDir: string,
  cluster: Pick<Cluster, 'endLines' | 'peakRss'>,
): Promise<Slot & { sample(): void; killNow(): void }> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), `am-soak-${name}-`));
  const [port, socketPort, metricsPort] = [await freePortFrom(), await freePortFrom(), await freePortFrom()];
  const log: WriteStream = createWriteStream(path.join(logDir, `${name}.log`), { flags: 'a' });
  let child: ChildProcess | undefined;
  const url = `http://127.0.0.1:${port}`;
  const sample = () => {
    if (!child?.pid || child.exitCode !== null) return;
    const peak = peakOf(child.pid);
    cluster.peakRss.set(name, Math.max(cluster.peakRss.get(name) ?? 0, peak));
  };
  async function start(): Promise<void> {
    const own = spawn(process.execPath, ['dist/main.js'], {
      cwd: ROOT,
      env: {
        ...process.env,
        NODE_ENV: '',
        ...env,
        ROLE: role,
        DATA_DIR: dataDir,
        HOST: '127.0.0.1',
        PORT: String(port),
        SOCKET_PORT: String(socketPort),
        METRICS_PORT: String(metricsPort),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child = own;
    let text = '';
    let partial = '';
    const take = (d: Buffer) => {
      log.write(d);
      const s = partial + d.toString();
      const lines = s.split('\n');
      partial = lines.pop() ?? '';
      for (const l of lines) readEndLines(l, cluster.endLines);
      if (text.length < 20000) text += d.toString();
    };
    own.stdout!.on('data', take);
    own.stderr!.on('data', take);
    await until(
      async () => {
        if (own.exitCode !== null) throw new Error(`${name} exited with ${own.exitCode}:\n${text}`);
        if (role === 'worker') return text.includes('worker ready');
        return (await fetch(`${url}/healthz`).catch(() => null))?.status === 200;
      },
      { timeoutMs: 90_000, intervalMs: 200, what: `${name} starting` },
    );
  }
  return {
    name,
    role,
    url,
    socketPort,
    dataDir,
    sample,
    start,
    killNow: () => child?.kill('SIGKILL'),
    async kill() {
      if (!child) return;
      sample();
      child.kill('SIGKILL');
      await exited(child);
    },
    async stop() {
      if (!child) return;
      sample();
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited(child);
      log.end();
    },
  };
}

/** Objects in the bucket that no row names: a session's uploads, waveforms, choices, results and covers. */
async function bucketLeftovers(databaseUrl: string, endpoint: string): Promise<string[]> {
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  const named = new Set<string>();
  try {
    const items = await db.query<{ sid: string; newfilename: string; format: string }>(
      'SELECT sid, newfilename, format FROM items',
    );
    for (const i of items.rows) {
      named.add(`${i.sid}/uploads/${i.newfilename}.${i.format}`);
      named.add(`${i.sid}/uploads/${i.newfilename}-peaks.bin`);
    }
    const results = await db.query<{ sid: string; file: string; cover: string | null }>(
      'SELECT sid, file, cover FROM results',
    );
    for (const r of results.rows) {
      named.add(`${r.sid}/results/${r.file}`);
      if (r.cover) named.add(`${r.sid}/results/${r.cover}`);
    }
  } finally {
    await db.end();
  }
  const s3 = createS3Client({ ...S3_TEST_CREDENTIALS, endpoint, bucket: BUCKET, forcePathStyle: true });
  const left: string[] = [];
  try {
    let token: string | undefined;
    do {
      const page = await s3.send(new ListObjectsV2Command({ Bucket: BUCKET, ContinuationToken: token }));
      for (const o of page.Contents ?? []) {
        const key = o.Key ?? '';
        const own = /\/uploads\/(session-cover\.img|choices-[0-9a-f]+\.json)$/.test(key);
        if (!own && !named.has(key)) left.push(`bucket: ${key}`);
      }
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
  } finally {
    s3.destroy();
  }
  return left;
}

/** `work`, tried again twice a second apart (s3rver answers a listing 500 while it moves files). */
async function retried<T>(work: () => Promise<T>): Promise<T> {
  for (let tried = 0; ; tried++) {
    try {
      return await work();
    } catch (err) {
      if (tried >= 2) throw err;
      await new Promise((r) => setTimeout(r, 1000));
    }
  }
}

/** Merge scratch folders left in a process's DATA_DIR once it has stopped. */
async function scratchLeftovers(slot: Slot): Promise<string[]> {
  const names = await readdir(path.join(slot.dataDir, 'tmp')).catch(() => [] as string[]);
  return names.filter((n) => n.startsWith('job-')).map((n) => `${slot.name} scratch: ${n}`);
}

export async function startCluster(logDir: string): Promise<Cluster> {
  const services: Service[] = [];
  const [pgService, redis, s3] = await Promise.all([
    startPostgres(),
    startRedis({ persistent: true }),
    startS3(BUCKET),
  ]);
  services.push(pgService, redis, s3);
  const env: Record<string, string> = {
    DATABASE_URL: pgService.url,
    REDIS_URL: redis.url,
    S3_ENDPOINT: s3.url,
    S3_BUCKET: BUCKET,
    S3_REGION: S3_TEST_CREDENTIALS.region,
    S3_ACCESS_KEY_ID: S3_TEST_CREDENTIALS.accessKeyId,
    S3_SECRET_ACCESS_KEY: S3_TEST_CREDENTIALS.secretAccessKey,
    S3_FORCE_PATH_STYLE: 'true',
    MERGE_CONCURRENCY: '1',
    // A worker killed mid-merge has it taken over this soon; long enough that a loaded machine's
    // event loop does not lose a living worker's lock.
    MERGE_STALL_SECONDS: '10',
    LOG_LEVEL: 'info',
    // Every simulated person comes from 127.0.0.1.
    MAX_SOCKETS_PER_IP: '5000',
  };
  const peakRss = new Map<string, number>();
  const endLines = new Map<string, EndLine>();
  const shared = { peakRss, endLines };
  const webs = [
    await makeSlot('web1', 'web', env, logDir, shared),
    await makeSlot('web2', 'web', env, logDir, shared),
  ];
  const workers = [
    await makeSlot('worker1', 'worker', env, logDir, shared),
    await makeSlot('worker2', 'worker', env, logDir, shared),
  ];
  const all = [...webs, ...workers];
  // However the soak ends (an uncaught error included), no server process outlives it.
  process.once('exit', () => all.forEach((s) => s.killNow()));
  // The first one migrates the empty database alone.
  await webs[0].start();
  await Promise.all(all.slice(1).map((s) => s.start()));
  const sampler = setInterval(() => all.forEach((s) => s.sample()), 1000);
  const stopServices = () => Promise.allSettled(services.map((s) => s.stop()));
  const removeData = () =>
    Promise.allSettled(all.map((s) => rm(s.dataDir, { recursive: true, force: true })));
  return {
    webs,
    workers,
    redis,
    endLines,
    peakRss,
    async finish() {
      clearInterval(sampler);
      await Promise.all(all.map((s) => s.stop()));
      const left = [
        ...(await Promise.all(all.map(scratchLeftovers))).flat(),
        ...(await retried(() => bucketLeftovers(pgService.url, s3.url)).catch((err: unknown) => [
          `the bucket could not be listed: ${(err as Error).message}`,
        ])),
      ];
      await stopServices();
      await removeData();
      return left;
    },
    async abort() {
      clearInterval(sampler);
      await Promise.allSettled(all.map((s) => s.kill()));
      await stopServices();
      await removeData();
    },
  };
}
