// GET /healthz and GET /readyz, for load balancers: the first answers while the process is up; the
// second only while everything a request needs answers (database, queue, files), naming what does not.
import type { FastifyInstance } from 'fastify';
import { documented, healthzSchema, readyzSchema } from './schemas.js';

export interface ReadinessCheck {
  /** What a person operating the service calls it: "database", "queue", "files". */
  name: string;
  /** How it is listed when it fails ("unreachable" unless said). */
  failure?: string;
  check(): Promise<unknown>;
}

/** A check that has not answered in this long counts as down: a balancer must not wait on it. */
const CHECK_TIMEOUT_MS = 2000;

function within<T>(p: Promise<T>, ms: number): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
    p.then(resolve, reject).finally(() => clearTimeout(timer));
  });
}

export async function healthRoutes(
  app: FastifyInstance,
  { checks }: { checks: ReadinessCheck[] },
): Promise<void> {
  app.get('/healthz', documented(healthzSchema), async () => ({ ok: true }));

  app.get('/readyz', documented(readyzSchema), async (request, reply) => {
    const results = await Promise.all(
      checks.map(async (c) => {
        try {
          await within(c.check(), CHECK_TIMEOUT_MS);
          return { name: c.name, ok: true as const, word: 'ok' };
        } catch (err) {
          request.log.warn({ err, check: c.name }, 'not ready');
          return { name: c.name, ok: false as const, word: c.failure ?? 'unreachable' };
        }
      }),
    );
    const down = results.filter((r) => !r.ok);
    const body = {
      ok: down.length === 0,
      checks: Object.fromEntries(results.map((r) => [r.name, r.word])),
    };
    if (down.length > 0) {
      // "queue, files unreachable; disk full"
      const words = [...new Set(down.map((r) => r.word))].map(
        (word) =>
          `${down
            .filter((r) => r.word === word)
            .map((r) => r.name)
            .join(', ')} ${word}`,
      );
      return reply.status(503).send({ ...body, error: `Not ready: ${words.join('; ')}`, code: 'notReady' });
    }
    return body;
  });
}
