// The server process: the only reader of the environment. By ROLE it serves HTTP and realtime
// (web), runs merges (worker), or both (all, the default), and stops cleanly on SIGTERM/SIGINT:
// a web process stops taking requests, a worker finishes or hands back its merges.
// `node dist/main.js migrate-to-postgres` moves an embedded installation instead.
import { createApp } from './server/http/app.js';
import { checkRole, configFromEnv, describeConfig, resolveConfig, type AppConfig } from './server/config.js';
import { startErrorReason } from './server/start-error.js';

interface Running {
  log: (obj: object, msg: string) => void;
  close(): Promise<void>;
}

function stopOnSignals(running: Running): void {
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    running.log({ signal }, 'shutting down: finishing running merges');
    running.close().then(
      () => process.exit(0),
      (err: unknown) => {
        console.error(`audio-merge: shutdown failed: ${(err as Error).message}`);
        process.exit(1);
      },
    );
  };
  process.once('SIGTERM', () => stop('SIGTERM'));
  process.once('SIGINT', () => stop('SIGINT'));
}

async function startWeb(config: AppConfig): Promise<void> {
  const built = await createApp(config);
  const { app, realtime } = built;
  stopOnSignals({ log: (o, m) => app.log.info(o, m), close: () => built.close() });
  try {
    await app.listen({ host: config.host, port: config.port });
  } catch (err) {
    await built.close().catch(() => {});
    throw err;
  }
  const address = app.server.address();
  const port = address && typeof address === 'object' ? address.port : config.port;
  const realtimeNote =
    (config.realtime ? `realtime on port ${realtime.port}` : 'realtime off') +
    (built.metricsPort === null ? '' : `; metrics on port ${built.metricsPort}`);
  app.log.info(
    { ...describeConfig(config), url: `http://${config.host}:${port}/`, socketPort: realtime.port },
    `audio-merge: http://${config.host}:${port}/ (${config.role}; ${realtimeNote}; data in ${config.dataDir})`,
  );
}

async function startWorker(config: AppConfig & { redisUrl: string }): Promise<void> {
  const { startWorkerProcess } = await import('./server/worker-process.js');
  const worker = await startWorkerProcess(config);
  stopOnSignals({ log: (o, m) => worker.log.info(o, m), close: () => worker.close() });
}

async function migrate(config: AppConfig): Promise<void> {
  if (!config.databaseUrl) throw new Error('migrate-to-postgres needs DATABASE_URL');
  const { migrateToPostgres } = await import('./server/data/postgres/migrate-to-postgres.js');
  const report = await migrateToPostgres({
    dataDir: config.dataDir,
    databaseUrl: config.databaseUrl,
    s3: config.s3,
    log: (m) => console.log(`audio-merge: ${m}`),
  });
  for (const f of report.missingFiles) console.warn(`audio-merge: not on disk, row moved without it: ${f}`);
}

async function main(): Promise<void> {
  let config: AppConfig | undefined;
  try {
    config = resolveConfig(configFromEnv(process.env));
    if (process.argv[2] === 'migrate-to-postgres') return await migrate(config);
    checkRole(config);
    if (config.role === 'worker') await startWorker({ ...config, redisUrl: config.redisUrl as string });
    else await startWeb(config);
  } catch (err) {
    const reason = config ? startErrorReason(err, config) : (err as Error).message;
    console.error(`audio-merge: cannot start: ${reason}`);
    process.exit(1);
  }
}

await main();
