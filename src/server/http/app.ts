// Builds the whole server from a typed config, in named phases: the data (store and files), the
// tools, realtime, the job queue and its listeners, the HTTP plugins and guards, the routes, the
// sweeper. It does not listen; src/main.ts does.
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Fastify, { type FastifyError, type FastifyInstance, type FastifyReply } from 'fastify';
import fastifyCookie from '@fastify/cookie';
import fastifyMultipart from '@fastify/multipart';
import fastifyRateLimit from '@fastify/rate-limit';
import fastifyStatic from '@fastify/static';
import { locateTools, probeFile, toolNiceness, type Tools } from '../../engine/index.js';
import { systemClock, type Clock } from '../../shared/clock.js';
import { announceTools, openBackends, type Backends } from '../backends.js';
import { resolveConfig, type AppConfig } from '../config.js';
import type { Store } from '../data/store.js';
import type { DiskStorage } from '../files/disk/disk-storage.js';
import { statfsFreeSpace, type FreeSpace } from '../files/disk-space.js';
import { createDiskBudget } from '../files/disk-budget.js';
import type { FileStorage } from '../files/storage.js';
import { createSweeper, type Sweeper } from '../files/sweep.js';
import { killLeftoverTools } from '../files/leftover-tools.js';
import type { MergeFn } from '../jobs/merge-processor.js';
import { startJobs, type StartedJobs } from '../jobs/start-jobs.js';
import type { JobQueue } from '../jobs/queue.js';
import { liveProgress, type LiveDetail, type LiveProgress } from '../jobs/job-status.js';
import { redisAdapter, type RedisAdapterHandle } from '../realtime/redis/redis-fanout.js';
import { createRealtime, nullRealtime, type Realtime } from '../realtime/server.js';
import { latestStatusWelcome } from '../realtime/status-broadcasts.js';
import { errorCodeOf } from '../errors.js';
import { registerApiDocs } from './api-docs.js';
import { clientAddressFor } from './client-address.js';
import { AppError, ERRORS, type ErrorCode } from './errors.js';
import { parseJsonBody } from './json-body.js';
import { createFlash } from './flash.js';
import { filesRoutes } from './routes/files.js';
import { healthRoutes, type ReadinessCheck } from './routes/health.js';
import { itemsRoutes } from './routes/items.js';
import { peaksRoutes } from './routes/peaks.js';
import { createPeaks, type Peaks } from '../uploads/waveforms.js';
import { createUploadWork, type UploadWork } from '../uploads/upload-work.js';
import { createTusFinisher, type TusFinisher } from '../uploads/tus-finish.js';
import { mergeRoutes } from './routes/merge.js';
import { mergeControlRoutes } from './routes/merge-control.js';
import { bookRoutes } from './routes/book.js';
import { tagDetailsRoutes } from './routes/tag-details.js';
import { resultsRoutes } from './routes/results.js';
import { pageRoutes } from './routes/page.js';
import { uploadRoutes, type Prober } from './routes/upload.js';
import { AppLogController } from './log-lines.js';
import { requireSessionAndCsrf, sessionHook, sidForCookieHeader } from './session.js';
import { createTusUploads } from '../files/tus-uploads.js';
import { tusRoutes } from './routes/tus.js';
import { createStoreUpload, type StoreUpload } from '../uploads/upload-store.js';
import { trackUploads, type UploadsInFlight } from './uploads-in-flight.js';
import { startProcessMetrics, type ProcessMetrics } from '../ops/metrics-server.js';
import type { Metrics } from '../ops/metrics.js';

/** The package root, from src/server/http or dist/server/http alike. */
const PACKAGE_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

/** How much lower than the server its ffmpeg and ffprobe run (nice). */
const TOOL_NICENESS = 10;

export interface AppDeps {
  /** The engine's probe; tests may wrap it to see what it was asked. */
  probe?: Prober;
  /** The engine's mergeFiles; tests may wrap it. */
  merge?: MergeFn;
  /** Time and timers for everything in the server (tests drive their own). */
  clock?: Clock;
  /** Free bytes on a folder's disk (tests make the disk look full). */
  freeSpace?: FreeSpace;
  /** Where log lines go (default stdout; tests read them). */
  logStream?: { write(line: string): void };
  /** false: an MP3's waveform waits for the first request for it (the benchmark's comparison). */
  peaksAtUpload?: boolean;
}

export interface App {
  app: FastifyInstance;
  store: Store;
  /** DATA_DIR: scratch, and the files themselves unless they are in a bucket. */
  storage: DiskStorage;
  /** Where uploads and results live. */
  files: FileStorage;
  realtime: Realtime;
  jobs: JobQueue;
  config: AppConfig;
  tools: Tools;
  sweeper: Sweeper;
  /** Waveforms: made at upload, kept beside each upload. */
  peaks: Pick<Peaks, 'idle'>;
  /** The upload pool: what runs and what waits of the work uploads cost after their bytes. */
  uploadWork: Pick<UploadWork, 'active' | 'waiting'>;
  /** The metrics listener's port (METRICS_PORT, its own listener); null when off. */
  metricsPort: number | null;
  close(): Promise<void>;
}

/** What has been started so far, so a failed start can stop it again. */
interface Started extends StartedJobs {
  backends: Backends;
  realtime: Realtime;
  adapter?: RedisAdapterHandle;
  uploads?: UploadsInFlight;
  /** Finishes of tus uploads under way: stopped (their bytes kept) before the store closes. */
  tusFinisher?: Pick<TusFinisher, 'close'>;
  uploadWork?: Pick<UploadWork, 'close'>;
  metrics?: ProcessMetrics;
}

export async function createApp(partial: Partial<AppConfig> = {}, deps: AppDeps = {}): Promise<App> {
  const config = resolveConfig(partial);
  const clock = deps.clock ?? systemClock;
  const app = createFastify(config, deps.logStream);
  const started: Started = { backends: await openBackends(config, app.log), realtime: nullRealtime };
  const { store, files, disk: storage } = started.backends;
  let closing = false;
  try {
    const metrics = (started.metrics = await startProcessMetrics(config, app.log));
    const tools = await findTools(app, config);
    // Merges' encodes give way to requests: a page or a list is never slow behind them.
    toolNiceness(TOOL_NICENESS);
    if (config.redisUrl) started.adapter = await redisAdapter(config.redisUrl);
    // A subscriber's first status waits for the merges a dead process left to be marked: read
    // earlier, a stale "running" could arrive after the "interrupted" broadcast and stay.
    let markRecovered = () => {};
    const recovered = new Promise<void>((resolve) => (markRecovered = resolve));
    // The running merges' stages, as their events tell them (made once the queue is).
    const live: { progress?: LiveProgress } = {};
    const liveDetail: LiveDetail = (jobId) => live.progress?.get(jobId);
    if (config.realtime)
      started.realtime = await startRealtime(app, config, {
        store,
        adapter: started.adapter,
        recovered,
        liveDetail,
      });
    // Anything left in scratch belongs to a process that is gone. Cleared before the jobs start:
    // with REDIS_URL this process's worker may take a waiting merge at once, in scratch.
    const leftovers = await killLeftoverTools(storage.tmpDir);
    if (leftovers.length > 0)
      app.log.warn({ pids: leftovers }, 'killed tools left running by a process that is gone');
    await storage.clearScratch();
    // Resumable uploads in progress hold places against MAX_FILES, multipart's too, and their
    // declared lengths on the disk. Their bytes stay on this process's disk until the last one
    // (docs/deploy.md: tus needs sticky routing).
    const tusUploads = createTusUploads(storage.root, { clock });
    await tusUploads.load();
    const freeSpace = deps.freeSpace ?? statfsFreeSpace;
    const disk = createDiskBudget({
      dir: config.dataDir,
      minFreeBytes: config.minFreeBytes,
      freeSpace,
      heldByUploads: tusUploads.declaredBytes,
    });
    const jobs = await startJobs(
      {
        config,
        backends: started.backends,
        broadcaster: started.realtime,
        log: app.log.child({ component: 'jobs' }),
        tools,
        clock,
        merge: deps.merge,
        disk,
        metrics: metrics.recorder,
      },
      started,
    );
    metrics.watch({
      queueCounts: () => jobs.counts(),
      diskFree: () => freeSpace(config.dataDir),
      connections: () => started.realtime.connections(),
    });
    live.progress = liveProgress(jobs.events);
    await jobs.recover().finally(markRecovered);

    if (config.apiDocs) await registerApiDocs(app);
    started.uploads = await installRequestGuards(
      app,
      { store, clock, retentionHours: config.retentionHours },
      () => closing,
    );
    const flash = createFlash();
    const realtime = started.realtime;
    await app.register(fastifyStatic, {
      root: path.join(PACKAGE_ROOT, 'dist', 'widget'),
      prefix: '/widget/',
      decorateReply: false,
      index: false,
      list: false,
    });
    const checks: ReadinessCheck[] = [...started.backends.checks, diskCheck(config, freeSpace)];
    if (started.queueCheck) checks.push(started.queueCheck);
    await app.register(healthRoutes, { checks });
    await app.register(pageRoutes, { store, config, socketPort: () => realtime.port, flash, clock });
    // Everything an upload costs after its bytes, in one pool sized to the machine.
    const uploadWork = createUploadWork(config.uploadConcurrency);
    const peaks = createPeaks({
      store,
      files,
      tools,
      work: uploadWork,
      limitSeconds: config.maxMergeHours * 3600 + 1,
      log: app.log.child({ component: 'peaks' }),
    });
    // An upload's waveform starts once its answer is out (the decode would only slow the answer).
    app.addHook('onResponse', async () => peaks.startQueued());
    const uploadDeps = {
      peaks: deps.peaksAtUpload === false ? undefined : peaks,
      store,
      files,
      config,
      tools,
      probe: deps.probe ?? probeFile,
      clock,
      heldElsewhere: tusUploads.countFor,
      disk,
      work: uploadWork,
    };
    await app.register(uploadRoutes, { ...uploadDeps, flash, metrics: metrics.recorder });
    const finisher = createTusFinisher({
      uploads: tusUploads,
      store,
      storeUpload: countedUploads(createStoreUpload(uploadDeps), metrics.recorder),
      closing: () => closing,
      log: app.log.child({ component: 'tus' }),
    });
    started.tusFinisher = finisher;
    started.uploadWork = uploadWork;
    await app.register(tusRoutes, { store, config, uploads: tusUploads, finisher, freeSpace, disk });
    await app.register(itemsRoutes, { store, files, config });
    await app.register(peaksRoutes, { store, peaks });
    await app.register(resultsRoutes, { store, files });
    await app.register(bookRoutes, { files, tools });
    await app.register(tagDetailsRoutes, { store, files });
    await app.register(filesRoutes, { store, files });
    await app.register(async (scope) => mergeRoutes(scope, { store, jobs, config, clock }));
    await app.register(mergeControlRoutes, { store, jobs, liveDetail });

    const sweeper = createSweeper({
      store,
      files,
      retentionHours: config.retentionHours,
      intervalMs: config.sweepIntervalMs,
      clock,
      log: app.log.child({ component: 'sweep' }),
      tusUploads,
      disk: storage,
    });
    sweeper.start();
    await app.ready();
    // Uploads a previous run received whole but did not store (it died in between) become items
    // now, in the upload pool like any other, or are refused.
    void finisher.recover();

    let closePromise: Promise<void> | undefined;
    return {
      app,
      store,
      storage,
      files,
      realtime,
      jobs,
      config,
      tools,
      sweeper,
      peaks,
      uploadWork,
      metricsPort: metrics.port,
      close() {
        // Once close() has begun, new requests are turned away while running merges finish.
        closing = true;
        closePromise ??= (async () => {
          sweeper.stop();
          await peaks.close();
          await stopAll(app, started, clock, config.shutdownGraceMs);
        })();
        return closePromise;
      },
    };
  } catch (err) {
    await stopAll(app, started, clock).catch(() => {});
    throw err;
  }
}

function createFastify(config: AppConfig, logStream?: AppDeps['logStream']): FastifyInstance {
  return Fastify({
    logController: new AppLogController(),
    logger: {
      level: config.logLevel,
      ...(logStream ? { stream: logStream } : {}),
      redact: {
        paths: [
          'req.headers.cookie',
          'req.headers["x-csrf-token"]',
          'res.headers["set-cookie"]',
          'headers.cookie',
        ],
        censor: '[redacted]',
      },
    },
    genReqId: () => randomUUID(),
    requestIdHeader: false,
    bodyLimit: 1024 * 1024,
    // X-Forwarded-For/-Proto count only on a request from one of the TRUST_PROXY addresses.
    trustProxy: config.trustedProxies.length > 0 ? config.trustedProxies.join(',') : false,
    // Slow clients are bounded: no bytes for idleTimeoutMs, headers not done in headersTimeoutMs,
    // or a body not done in requestTimeoutMs, and the connection is closed.
    connectionTimeout: config.idleTimeoutMs,
    requestTimeout: config.requestTimeoutMs,
    http: {
      headersTimeout: config.headersTimeoutMs,
      // How often Node checks those two; its 30 s default would let a header stall last 50 s.
      connectionsCheckingInterval: Math.max(250, Math.min(30_000, Math.floor(config.headersTimeoutMs / 4))),
    },
    // A URL that cannot be decoded: the app's own JSON error, without echoing the URL back.
    frameworkErrors: (_error, _request, reply) => {
      void (reply as FastifyReply).status(400).send({ error: ERRORS.badRequest.message, code: 'badRequest' });
    },
  });
}

async function findTools(app: FastifyInstance, config: AppConfig): Promise<Tools> {
  const tools = await locateTools(
    config.ffmpegPath && config.ffprobePath
      ? { FFMPEG_PATH: config.ffmpegPath, FFPROBE_PATH: config.ffprobePath }
      : undefined,
  );
  announceTools(app.log, tools);
  return tools;
}

function startRealtime(
  app: FastifyInstance,
  config: AppConfig,
  {
    store,
    adapter,
    recovered,
    liveDetail,
  }: {
    store: Store;
    adapter?: RedisAdapterHandle;
    recovered: Promise<void>;
    liveDetail: LiveDetail;
  },
): Promise<Realtime> {
  const latest = latestStatusWelcome(store, liveDetail);
  return createRealtime({
    host: config.host,
    port: config.socketPort,
    allowOrigin: (origin) =>
      isOwnOrigin(origin, config.host, listenPort(app, config)) ||
      (origin !== undefined && config.publicOrigins.includes(origin)),
    sidForCookieHeader: (header) => sidForCookieHeader(store, header),
    maxSocketsPerIp: config.maxSocketsPerIp,
    clientAddress: clientAddressFor(config.trustedProxies),
    welcome: async (channel, sid) => {
      await recovered;
      return latest(channel, sid);
    },
    log: app.log.child({ component: 'realtime' }),
    adapter: adapter?.adapter,
  });
}

/** Plugins, the session and CSRF hooks, and the one error handler every answer goes through. */
async function installRequestGuards(
  app: FastifyInstance,
  { store, clock, retentionHours }: { store: Store; clock: Clock; retentionHours: number },
  closing: () => boolean,
): Promise<UploadsInFlight> {
  await app.register(fastifyCookie);
  await app.register(fastifyMultipart, { throwFileSizeLimit: false });
  await app.register(fastifyRateLimit, {
    global: false,
    keyGenerator: (request) => request.amSession?.sid ?? request.ip,
    errorResponseBuilder: () => new AppError('rateLimited'),
  });
  app.decorateRequest('amSession', null);
  const uploads = trackUploads(app);
  app.addHook('onRequest', async (_request, reply) => {
    if (closing()) {
      reply.header('connection', 'close');
      throw new AppError('unavailable');
    }
  });
  app.addHook('onRequest', sessionHook(store, clock, retentionHours, app.log));
  // Before the body is read: a cross-site post without the token is refused whatever it carries.
  app.addHook('onRequest', requireSessionAndCsrf);
  // Only JSON and multipart bodies are spoken; text/plain is what a cross-site form can send.
  app.removeContentTypeParser('text/plain');
  // JSON bodies are read by one parser that names a refused key (json-body.ts).
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
    try {
      done(null, parseJsonBody(body as string));
    } catch (err) {
      done(err as Error, undefined);
    }
  });
  app.setErrorHandler((error: FastifyError | AppError, request, reply) => {
    if (error instanceof AppError) {
      // The code lets a client tell "your session is gone" from "not yours" (both 403).
      return reply.status(error.status).send({ error: error.message, code: error.code, ...error.extra });
    }
    // The engine's errors and a full disk answer by their code, with the table's words.
    const code = errorCodeOf(error);
    if (code) {
      if (ERRORS[code].status >= 500) request.log.error({ err: error }, 'request failed');
      return reply.status(ERRORS[code].status).send({ error: ERRORS[code].message, code });
    }
    const status = typeof error.statusCode === 'number' && error.statusCode >= 400 ? error.statusCode : 500;
    if (status >= 500) request.log.error({ err: error }, 'request failed');
    // Fastify's own refusals (a body too large, a media type it does not read): the table's words.
    const framework = frameworkCode(status, Boolean(error.validation));
    return reply.status(status).send({ error: ERRORS[framework].message, code: framework });
  });
  app.setNotFoundHandler((_request, reply) =>
    reply.status(404).send({ error: ERRORS.notFound.message, code: 'notFound' }),
  );
  return uploads;
}

/** /readyz: a disk with less than MIN_FREE_MB free takes no uploads or merges, so it is not ready. */
function diskCheck(config: AppConfig, freeSpace: FreeSpace): ReadinessCheck {
  return {
    name: 'disk',
    failure: 'full',
    async check() {
      const free = await freeSpace(config.dataDir);
      if (free < Math.max(config.minFreeBytes, 1)) throw new Error(`${free} bytes free on DATA_DIR's disk`);
    },
  };
}

/** The code of a refusal Fastify itself made, by its status. */
export function frameworkCode(status: number, validation: boolean): ErrorCode {
  if (status >= 500) return 'internal';
  if (validation) return 'badRequest';
  const byStatus: Partial<Record<number, ErrorCode>> = {
    403: 'csrf',
    404: 'notFound',
    413: 'bodyTooLarge',
    415: 'unsupportedMediaType',
    429: 'rateLimited',
  };
  return byStatus[status] ?? 'badRequest';
}

/**
 * Stop in the order that loses nothing: jobs finish (or fail cleanly), then realtime, HTTP, the
 * store. Uploads still arriving after `graceMs` are cut (their handlers remove their temporary
 * files), and once the grace is over no connection keeps the process.
 */
async function stopAll(app: FastifyInstance, started: Started, clock: Clock, graceMs = 0): Promise<void> {
  let timer: unknown;
  const graceOver = new Promise<void>((resolve) => {
    timer = clock.setTimeout(() => {
      started.uploads?.cutAll();
      resolve();
    }, graceMs);
  });
  try {
    await started.worker?.close();
    await started.jobs?.shutdown();
    started.stopBroadcasts?.();
    await started.realtime.close();
    started.adapter?.close();
    const closed = app.close();
    await Promise.race([closed, graceOver]);
    app.server.closeAllConnections();
    await Promise.all([closed, started.uploads?.drained()]);
  } finally {
    clock.clearTimeout(timer);
  }
  started.uploadWork?.close();
  await started.tusFinisher?.close();
  await started.metrics?.close();
  await started.backends.close();
}

/** A finished tus upload's fate, counted where it is decided (multipart counts its own). */
function countedUploads(storeUpload: StoreUpload, metrics: Pick<Metrics, 'upload'>): StoreUpload {
  return async (input) => {
    const outcome = await storeUpload(input);
    if (outcome.ok) metrics.upload('accepted', outcome.item.size ?? 0);
    else metrics.upload('refused', 0);
    return outcome;
  };
}

function listenPort(app: FastifyInstance, config: AppConfig): number {
  const address = app.server.address();
  return address && typeof address === 'object' ? address.port : config.port;
}

/** CORS for the realtime server: the page's own origin, by the names it is usually reached as. */
export function isOwnOrigin(origin: string | undefined, host: string, port: number): boolean {
  if (!origin) return false;
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false;
  }
  const hosts = new Set([host, 'localhost', '127.0.0.1', '[::1]']);
  return url.protocol === 'http:' && hosts.has(url.hostname) && url.port === String(port);
}
