// Builds the whole server from a typed config: database, storage, tools, realtime, jobs, routes.
// It does not listen; src/main.ts does.
import { randomUUID } from 'node:crypto';
import { rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Fastify, { type FastifyError, type FastifyInstance, type FastifyReply } from 'fastify';
import fastifyCookie from '@fastify/cookie';
import fastifyMultipart from '@fastify/multipart';
import fastifyRateLimit from '@fastify/rate-limit';
import fastifyStatic from '@fastify/static';
import { locateTools, probeFile, type Tools } from '../../engine/index.js';
import { resolveConfig, type AppConfig } from '../config.js';
import { withItemListCache } from '../data/item-list-cache.js';
import { openCheckedSqliteStore } from '../data/db-check.js';
import { AppError, ERRORS } from './errors.js';
import { createFlash } from './flash.js';
import { createJobRunner, type JobRunner } from '../jobs/job-runner.js';
import { createRealtime, nullRealtime, type Realtime } from '../realtime/server.js';
import { filesRoutes } from './routes/files.js';
import { itemsRoutes } from './routes/items.js';
import { mergeRoutes } from './routes/merge.js';
import { pageRoutes } from './routes/page.js';
import { uploadRoutes, type Prober } from './routes/upload.js';
import { requireSessionAndCsrf, sessionHook, sidForCookieHeader } from './session.js';
import { createStorage, type DiskStorage } from '../files/storage.js';
import type { Store } from '../data/store.js';
import { createSweeper, type Sweeper } from '../files/sweep.js';
import { isDiskFull, statfsFreeSpace, type FreeSpace } from '../files/disk-space.js';

/** The package root, from src/server/http or dist/server/http alike. */
export const PACKAGE_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

export interface AppDeps {
  /** The engine's probe; tests may wrap it to see what it was asked. */
  probe?: Prober;
  now?: () => number;
  /** Free bytes on a folder's disk (tests make the disk look full). */
  freeSpace?: FreeSpace;
}

export interface App {
  app: FastifyInstance;
  store: Store;
  storage: DiskStorage;
  realtime: Realtime;
  jobs: JobRunner;
  config: AppConfig;
  tools: Tools;
  sweeper: Sweeper;
  close(): Promise<void>;
}

export async function createApp(partial: Partial<AppConfig> = {}, deps: AppDeps = {}): Promise<App> {
  const config = resolveConfig(partial);
  const now = deps.now ?? Date.now;
  const app = Fastify({
    logger: {
      level: config.logLevel,
      redact: {
        paths: ['req.headers.cookie', 'req.headers["x-csrf-token"]', 'res.headers["set-cookie"]', 'headers.cookie'],
        censor: '[redacted]',
      },
    },
    genReqId: () => randomUUID(),
    requestIdHeader: false,
    bodyLimit: 1024 * 1024,
    trustProxy: false,
    // A URL that cannot be decoded: the app's own JSON error, without echoing the URL back.
    frameworkErrors: (_error, _request, reply) => {
      void (reply as FastifyReply).status(400).send({ error: ERRORS.badRequest.message });
    },
  });

  const storage = createStorage(config.dataDir);
  const dbFile = path.join(storage.root, 'audio-merge.sqlite');
  const store = withItemListCache(await openCheckedSqliteStore(dbFile, config.dbCheckTimeoutMs, app.log));
  let realtime: Realtime = nullRealtime;
  let closing = false;
  let closePromise: Promise<void> | undefined;
  let jobs: JobRunner | undefined;
  try {
    const tools = await locateTools(
      config.ffmpegPath && config.ffprobePath
        ? { FFMPEG_PATH: config.ffmpegPath, FFPROBE_PATH: config.ffprobePath }
        : undefined,
    );
    app.log.info({ ffmpeg: tools.ffmpeg, ffprobe: tools.ffprobe, source: tools.source, version: tools.ffmpegVersion },
      `using ffmpeg ${tools.ffmpegVersion} at ${tools.ffmpeg}`);

    if (config.realtime) {
      realtime = await createRealtime({
        host: config.host,
        port: config.socketPort,
        allowOrigin: (origin) => isOwnOrigin(origin, config.host, listenPort(app, config)),
        sidForCookieHeader: (header) => sidForCookieHeader(store, header),
        log: app.log.child({ component: 'realtime' }),
      });
    }
    jobs = createJobRunner({
      store,
      storage,
      realtime,
      tools,
      concurrency: config.mergeConcurrency,
      log: app.log.child({ component: 'jobs' }),
    });
    await jobs.recoverInterrupted();
    // Anything left in tmp/ belongs to a process that is gone.
    rmSync(storage.tmpDir, { recursive: true, force: true });
    createStorage(config.dataDir);

    await app.register(fastifyCookie);
    await app.register(fastifyMultipart, { throwFileSizeLimit: false });
    await app.register(fastifyRateLimit, {
      global: false,
      keyGenerator: (request) => request.amSession?.sid ?? request.ip,
      errorResponseBuilder: () => new AppError('rateLimited'),
    });
    app.decorateRequest('amSession', null);
    // Once close() has begun, new requests are turned away while running merges finish.
    app.addHook('onRequest', async (_request, reply) => {
      if (closing) {
        reply.header('connection', 'close');
        throw new AppError('unavailable');
      }
    });
    app.addHook('onRequest', sessionHook(store, now, app.log));
    // Before the body is read: a cross-site post without the token is refused whatever it carries.
    app.addHook('onRequest', requireSessionAndCsrf);
    // Only JSON and multipart bodies are spoken; text/plain is what a cross-site form can send.
    app.removeContentTypeParser('text/plain');
    app.setErrorHandler((error: FastifyError | AppError, request, reply) => {
      if (error instanceof AppError) {
        return reply.status(error.status).send({ error: error.message, ...error.extra });
      }
      if (isDiskFull(error)) {
        request.log.warn({ err: error }, 'disk full');
        return reply.status(ERRORS.diskFull.status).send({ error: ERRORS.diskFull.message });
      }
      const status = typeof error.statusCode === 'number' && error.statusCode >= 400 ? error.statusCode : 500;
      if (status >= 500) {
        request.log.error({ err: error }, 'request failed');
        return reply.status(status).send({ error: ERRORS.internal.message });
      }
      return reply.status(status).send({ error: error.validation ? ERRORS.badRequest.message : error.message });
    });
    app.setNotFoundHandler((_request, reply) => reply.status(404).send({ error: ERRORS.notFound.message }));

    await app.register(fastifyStatic, {
      root: path.join(PACKAGE_ROOT, 'dist', 'widget'),
      prefix: '/widget/',
      decorateReply: false,
      index: false,
      list: false,
    });
    const flash = createFlash();
    await app.register(pageRoutes, { store, config, realtime, flash, now });
    await app.register(uploadRoutes, { store, storage, config, tools, probe: deps.probe ?? probeFile, now, flash, freeSpace: deps.freeSpace ?? statfsFreeSpace });
    await app.register(itemsRoutes, { store });
    await app.register(filesRoutes, { store, storage });
    await app.register(async (scope) => mergeRoutes(scope, { store, jobs: jobs as JobRunner, config }));

    const sweeper = createSweeper({
      store,
      storage,
      retentionHours: config.retentionHours,
      intervalMs: config.sweepIntervalMs,
      now,
      log: app.log.child({ component: 'sweep' }),
    });
    sweeper.start();
    await app.ready();

    const runner = jobs;
    const rt = realtime;
    return {
      app,
      store,
      storage,
      realtime: rt,
      jobs: runner,
      config,
      tools,
      sweeper,
      close() {
        closing = true;
        closePromise ??= (async () => {
          sweeper.stop();
          await runner.shutdown();
          await rt.close();
          await app.close();
          store.close();
        })();
        return closePromise;
      },
    };
  } catch (err) {
    await jobs?.shutdown().catch(() => {});
    await realtime.close().catch(() => {});
    await app.close().catch(() => {});
    store.close();
    throw err;
  }
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
