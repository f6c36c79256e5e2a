// The server's whole configuration, typed, with defaults in one place. Only src/main.ts reads it
// from the environment (configFromEnv); tests build the app from a plain object. Finding ffmpeg is
// the engine's (engine/ffmpeg/tools.ts): with no paths here it looks in the process's environment.
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { S3Config } from './files/s3/s3-objects.js';

export type Role = 'all' | 'web' | 'worker';
const ROLES: Role[] = ['all', 'web', 'worker'];

export interface AppConfig {
  /** HTTP listen address. */
  host: string;
  /** HTTP port (0 = any free port, for tests). */
  port: number;
  /** socket.io port (0 = any free port). */
  socketPort: number;
  /** Start the realtime server at all (some tests do without). */
  realtime: boolean;
  /** Root of everything stored: database, uploads, results, temporary files. */
  dataDir: string;
  /** Largest accepted upload, bytes. */
  maxFileBytes: number;
  /**
   * Uploads are refused (507) when they would leave less than this free on DATA_DIR's disk, so
   * the disk never fills up with them (MIN_FREE_MB).
   */
  minFreeBytes: number;
  /** Uploads per session. */
  maxFiles: number;
  /** Idle sessions older than this are deleted with their files. */
  retentionHours: number;
  /** How often the retention sweep runs, ms. */
  sweepIntervalMs: number;
  /** How long the start-up check of the database (PRAGMA quick_check) may take before it is skipped. */
  dbCheckTimeoutMs: number;
  /** Merges that run at once; more wait in order. */
  mergeConcurrency: number;
  /**
   * Upload work (probe, measuring decode, waveform) that runs at once, each one ffmpeg or ffprobe
   * at a time; more waits, taken round-robin across sessions.
   */
  uploadConcurrency: number;
  /** Requests per minute per session. */
  uploadRateLimit: number;
  mergeRateLimit: number;
  /** New sessions (page views without one) per minute per client address: each is a database row. */
  sessionRateLimit: number;
  /** tus requests (creations, chunks, offsets, terminations) per minute per session; at least MAX_FILES x 4 is used. */
  tusRateLimit: number;
  /** A request whose whole body has not arrived in this time is cut (slow-trickle bound), ms. */
  requestTimeoutMs: number;
  /** A request whose headers have not all arrived in this time is cut, ms. */
  headersTimeoutMs: number;
  /** A connection that sends nothing for this long is closed, ms. */
  idleTimeoutMs: number;
  /** A resumable upload's PATCH that brings under 1 KB in this long is cut (its bytes kept), ms. */
  slowUploadWindowMs: number;
  /** On shutdown, uploads still arriving after this long are cut and their temporary files removed, ms. */
  shutdownGraceMs: number;
  /** The appid the host page puts on the widget element. */
  appId: string;
  /** Explicit ffmpeg/ffprobe; otherwise docs/reference/server.md lookup. */
  ffmpegPath?: string;
  ffprobePath?: string;
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  /** postgres://...: metadata in PostgreSQL instead of SQLite under DATA_DIR. */
  databaseUrl?: string;
  /** redis://...: merges through a BullMQ queue, realtime shared across web processes. */
  redisUrl?: string;
  /** Uploads and results in this bucket instead of DATA_DIR (which then holds scratch files only). */
  s3?: S3Config;
  /**
   * With a bucket, a process that merges keeps local copies of uploads up to this many bytes in its
   * scratch area, so merging what it stored or merged before reads no object (S3_CACHE_MB; 0: none).
   */
  localCopiesBytes: number;
  /** all: web and merges in one process; web: HTTP and realtime only; worker: merges only, no ports. */
  role: Role;
  /** With REDIS_URL: a worker silent this long (it died) has its merge run again elsewhere. */
  mergeStallMs: number;
  /**
   * Origins (scheme://host[:port]) browsers reach the app through, behind a proxy (PUBLIC_ORIGIN):
   * the realtime server accepts them besides http://HOST:PORT and localhost.
   */
  publicOrigins: string[];
  /**
   * Addresses or subnets of the proxies in front (TRUST_PROXY; empty = none): a request from one
   * of them has its client address (per-address limits, logs) and https (secure cookies) taken
   * from X-Forwarded-For/-Proto. Never a bare count: anyone could then forge those headers.
   */
  trustedProxies: string[];
  /** A merge whose inputs last longer than this in all (each use counted) is refused (MAX_MERGE_HOURS). */
  maxMergeHours: number;
  /** The highest sample rate a merge writes; higher inputs are resampled (MAX_SAMPLE_RATE). */
  maxSampleRate: number;
  /** The most channels a merge writes; more are mixed down (MAX_CHANNELS). */
  maxChannels: number;
  /** Realtime connections open at once from one client address (MAX_SOCKETS_PER_IP). */
  maxSocketsPerIp: number;
  /** Merges one session may have queued or running at once. */
  maxMergesPerSession: number;
  /** Collect the routes' schemas into an OpenAPI document (`npm run docs:api`); off to start faster. */
  apiDocs: boolean;
  /** Prometheus text at http://HOST:METRICS_PORT/metrics, on a listener of its own (0: any free port); off when unset. */
  metricsPort?: number;
}

export const DEFAULT_CONFIG: AppConfig = {
  host: '127.0.0.1',
  port: 3000,
  socketPort: 6001,
  realtime: true,
  dataDir: path.resolve('data'),
  maxFileBytes: 500 * 1024 * 1024,
  minFreeBytes: 64 * 1024 * 1024,
  maxFiles: 500,
  retentionHours: 24,
  sweepIntervalMs: 10 * 60 * 1000,
  dbCheckTimeoutMs: 10_000,
  mergeConcurrency: os.availableParallelism(),
  uploadConcurrency: os.availableParallelism(),
  uploadRateLimit: 120,
  mergeRateLimit: 20,
  sessionRateLimit: 300,
  tusRateLimit: 2000,
  requestTimeoutMs: 60 * 60 * 1000,
  headersTimeoutMs: 20_000,
  idleTimeoutMs: 60_000,
  shutdownGraceMs: 10_000,
  slowUploadWindowMs: 60_000,
  appId: 'audio-merge',
  logLevel: 'info',
  role: 'all',
  localCopiesBytes: 1024 * 1024 * 1024,
  mergeStallMs: 30_000,
  publicOrigins: [],
  trustedProxies: [],
  apiDocs: false,
  maxMergeHours: 100,
  maxSampleRate: 96000,
  maxChannels: 2,
  maxSocketsPerIp: 50,
  maxMergesPerSession: 3,
};

export function resolveConfig(partial: Partial<AppConfig> = {}): AppConfig {
  const c = { ...DEFAULT_CONFIG, ...partial };
  c.dataDir = path.resolve(c.dataDir);
  // Node refuses a header timeout longer than the whole request's.
  if (c.requestTimeoutMs > 0) c.headersTimeoutMs = Math.min(c.headersTimeoutMs, c.requestTimeoutMs);
  return c;
}

/** docs/reference/server.md variables to a partial config. Used by src/main.ts only. */
export function configFromEnv(env: NodeJS.ProcessEnv): Partial<AppConfig> {
  const num = (name: string): number | undefined => {
    const v = env[name];
    if (v === undefined || v === '') return undefined;
    const n = Number(v);
    if (!Number.isFinite(n) || n < 0) throw new Error(`${name} must be a non-negative number, got "${v}"`);
    return n;
  };
  const out: Partial<AppConfig> = {};
  const set = <K extends keyof AppConfig>(k: K, v: AppConfig[K] | undefined) => {
    if (v !== undefined) out[k] = v;
  };
  set('port', num('PORT'));
  set('host', env.HOST || undefined);
  set('socketPort', num('SOCKET_PORT'));
  set('dataDir', env.DATA_DIR || undefined);
  const mb = num('MAX_FILE_MB');
  set('maxFileBytes', mb === undefined ? undefined : Math.floor(mb * 1024 * 1024));
  set('maxFiles', num('MAX_FILES'));
  const freeMb = num('MIN_FREE_MB');
  set('minFreeBytes', freeMb === undefined ? undefined : Math.floor(freeMb * 1024 * 1024));
  set('retentionHours', num('RETENTION_HOURS'));
  set('mergeConcurrency', num('MERGE_CONCURRENCY'));
  set('uploadConcurrency', num('UPLOAD_CONCURRENCY'));
  const grace = num('SHUTDOWN_GRACE_SECONDS');
  set('shutdownGraceMs', grace === undefined ? undefined : Math.round(grace * 1000));
  set('maxMergeHours', num('MAX_MERGE_HOURS'));
  set('maxSampleRate', num('MAX_SAMPLE_RATE'));
  set('maxChannels', num('MAX_CHANNELS'));
  set('maxSocketsPerIp', num('MAX_SOCKETS_PER_IP'));
  set('metricsPort', num('METRICS_PORT'));
  set('ffmpegPath', env.FFMPEG_PATH || undefined);
  set('ffprobePath', env.FFPROBE_PATH || undefined);
  const level = env.LOG_LEVEL as AppConfig['logLevel'] | undefined;
  set('logLevel', level || undefined);
  set('publicOrigins', env.PUBLIC_ORIGIN ? parseOrigins(env.PUBLIC_ORIGIN) : undefined);
  set('trustedProxies', env.TRUST_PROXY ? parseTrustedProxies(env.TRUST_PROXY) : undefined);
  Object.assign(out, scaledFromEnv(env, num));
  return out;
}

/** PUBLIC_ORIGIN: comma-separated origins, each http(s)://host[:port] and nothing more. */
export function parseOrigins(value: string): string[] {
  return value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
    .map((s) => {
      let url: URL | undefined;
      try {
        url = new URL(s);
      } catch {
        // reported below
      }
      if (
        !url ||
        !/^https?:$/.test(url.protocol) ||
        url.pathname !== '/' ||
        url.search ||
        url.hash ||
        url.username
      ) {
        throw new Error(
          `PUBLIC_ORIGIN must list origins like https://audio.example.com (no path), got "${s}"`,
        );
      }
      return url.origin;
    });
}

/** TRUST_PROXY: comma-separated addresses, subnets (a.b.c.d/n) or loopback, linklocal, uniquelocal. */
export function parseTrustedProxies(value: string): string[] {
  const named = new Set(['loopback', 'linklocal', 'uniquelocal']);
  return value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
    .map((s) => {
      const [address, bits, extra] = s.split('/');
      const family = net.isIP(address);
      const bitsOk = bits === undefined || (/^\d+$/.test(bits) && Number(bits) <= (family === 6 ? 128 : 32));
      if (!named.has(s) && (family === 0 || !bitsOk || extra !== undefined)) {
        throw new Error(
          `TRUST_PROXY must list proxy addresses or subnets (10.0.0.0/8, loopback...), got "${s}"`,
        );
      }
      return s;
    });
}

/** The variables for more than one machine (Postgres, Redis, a bucket, the role); none set is one process. */
function scaledFromEnv(
  env: NodeJS.ProcessEnv,
  num: (name: string) => number | undefined,
): Partial<AppConfig> {
  const out: Partial<AppConfig> = {};
  if (env.DATABASE_URL) {
    if (!/^postgres(ql)?:\/\//.test(env.DATABASE_URL))
      throw new Error('DATABASE_URL must be a postgres:// URL');
    out.databaseUrl = env.DATABASE_URL;
  }
  if (env.REDIS_URL) {
    if (!/^rediss?:\/\//.test(env.REDIS_URL))
      throw new Error('REDIS_URL must be a redis:// or rediss:// URL');
    out.redisUrl = env.REDIS_URL;
  }
  const anyS3 = Object.keys(env).some((k) => k.startsWith('S3_') && k !== 'S3_CACHE_MB' && env[k]);
  if (anyS3) {
    if (!env.S3_BUCKET) throw new Error('S3_BUCKET must be set when any S3_ variable is');
    out.s3 = {
      endpoint: env.S3_ENDPOINT || undefined,
      bucket: env.S3_BUCKET,
      region: env.S3_REGION || 'us-east-1',
      accessKeyId: env.S3_ACCESS_KEY_ID || undefined,
      secretAccessKey: env.S3_SECRET_ACCESS_KEY || undefined,
      forcePathStyle: /^(1|true|yes)$/i.test(env.S3_FORCE_PATH_STYLE ?? ''),
    };
  }
  if (env.ROLE) {
    if (!ROLES.includes(env.ROLE as Role))
      throw new Error(`ROLE must be one of ${ROLES.join(', ')}, got "${env.ROLE}"`);
    out.role = env.ROLE as Role;
  }
  const cacheMb = num('S3_CACHE_MB');
  if (cacheMb !== undefined) out.localCopiesBytes = Math.floor(cacheMb * 1024 * 1024);
  const stall = num('MERGE_STALL_SECONDS');
  if (stall !== undefined) out.mergeStallMs = Math.max(1000, stall * 1000);
  return out;
}

/**
 * Web and worker processes share everything through PostgreSQL, Redis and a bucket: a role
 * without all three would take uploads no worker can read, or merges no web process hears of.
 */
export function checkRole(c: AppConfig): void {
  if (c.role === 'all') return;
  const missing = [!c.databaseUrl && 'DATABASE_URL', !c.redisUrl && 'REDIS_URL', !c.s3 && 'S3_BUCKET'].filter(
    Boolean,
  );
  if (missing.length > 0)
    throw new Error(`ROLE=${c.role} needs ${missing.join(', ')} (shared by every web and worker process)`);
}

/** The configuration as a start-up log may show it: no passwords, no secret keys. */
export function describeConfig(c: AppConfig): Record<string, unknown> {
  const hidePassword = (url: string | undefined) => {
    if (!url) return undefined;
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  };
  const shared = {
    role: c.role,
    dataDir: c.dataDir,
    mergeConcurrency: c.mergeConcurrency,
    uploadConcurrency: c.uploadConcurrency,
    ...(c.metricsPort === undefined ? {} : { metricsPort: c.metricsPort }),
  };
  return {
    ...shared,
    ...(c.role === 'worker'
      ? {}
      : {
          host: c.host,
          port: c.port,
          socketPort: c.socketPort,
          publicOrigins: c.publicOrigins,
          trustedProxies: c.trustedProxies,
        }),
    database: hidePassword(c.databaseUrl) ?? 'sqlite (DATA_DIR)',
    queue: c.redisUrl ? `bullmq on ${hidePassword(c.redisUrl)}` : 'in process',
    files: c.s3
      ? `s3://${c.s3.bucket} at ${c.s3.endpoint ?? 'AWS'} (${c.s3.region}${c.s3.forcePathStyle ? ', path style' : ''}` +
        `${c.s3.accessKeyId ? `, key ${c.s3.accessKeyId}` : ''})`
      : 'DATA_DIR',
    ...(c.s3 && c.role !== 'web'
      ? {
          localCopies:
            c.localCopiesBytes > 0 ? `up to ${Math.round(c.localCopiesBytes / 1048576)} MiB` : 'off',
        }
      : {}),
  };
}
