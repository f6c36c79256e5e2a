import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { healthRoutes } from './health.js';

async function appWith(checks: Parameters<typeof healthRoutes>[1]['checks']) {
  const app = Fastify({ logger: false });
  await app.register(healthRoutes, { checks });
  return app;
}

describe('health routes', () => {
  it('/healthz answers 200 while the process is up, whatever its dependencies do', async () => {
    const app = await appWith([{ name: 'database', check: () => Promise.reject(new Error('down')) }]);
    expect((await app.inject('/healthz')).statusCode).toBe(200);
  });

  it('/readyz answers 503 naming what is unreachable, and 200 when everything answers', async () => {
    const app = await appWith([
      { name: 'database', check: async () => undefined },
      { name: 'queue', check: () => Promise.reject(new Error('ECONNREFUSED')) },
      { name: 'files', check: () => new Promise(() => undefined) },
    ]);
    const down = await app.inject('/readyz');
    expect(down.statusCode).toBe(503);
    expect(down.json()).toEqual({
      ok: false,
      checks: { database: 'ok', queue: 'unreachable', files: 'unreachable' },
      error: 'Not ready: queue, files unreachable',
      code: 'notReady',
    });
    const ready = await appWith([
      { name: 'database', check: async () => undefined },
      { name: 'queue', check: async () => undefined },
    ]);
    expect((await ready.inject('/readyz')).json()).toEqual({
      ok: true,
      checks: { database: 'ok', queue: 'ok' },
    });
  });
});
