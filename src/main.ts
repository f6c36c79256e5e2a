// The server process: the only reader of the environment. Builds the app, listens, and shuts down
// gracefully on SIGTERM/SIGINT (stop taking work, let merges finish or fail cleanly, close the DB).
import { createApp, type App } from './server/http/app.js';
import { configFromEnv } from './server/config.js';

async function main(): Promise<void> {
  let built: App;
  try {
    built = await createApp(configFromEnv(process.env));
  } catch (err) {
    console.error(`audio-merge: cannot start: ${(err as Error).message}`);
    process.exit(1);
  }
  const { app, config, realtime } = built;

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    app.log.info({ signal }, 'shutting down: finishing running merges');
    built.close().then(
      () => process.exit(0),
      (err: unknown) => {
        app.log.error({ err }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.once('SIGTERM', () => stop('SIGTERM'));
  process.once('SIGINT', () => stop('SIGINT'));

  try {
    await app.listen({ host: config.host, port: config.port });
  } catch (err) {
    app.log.error({ err }, `cannot listen on ${config.host}:${config.port}`);
    await built.close().catch(() => {});
    process.exit(1);
  }
  const address = app.server.address();
  const port = address && typeof address === 'object' ? address.port : config.port;
  const realtimeNote = config.realtime ? `realtime on port ${realtime.port}` : 'realtime off';
  app.log.info(
    { url: `http://${config.host}:${port}/`, socketPort: realtime.port, dataDir: config.dataDir },
    `audio-merge: http://${config.host}:${port}/ (${realtimeNote}; data in ${config.dataDir})`,
  );
}

await main();
